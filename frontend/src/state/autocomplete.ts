// Compose autocomplete: the token being typed before the caret, and what
// replaces it. `@` completes people, user groups and the wildcards, `#`
// streams and, after `#**stream>` (or a completed stream and `>`), that
// stream's topics, `:` emoji, and `/`
// at the start of a message the slash commands.

export interface Token {
  trigger: '@' | '#' | ':' | '/'
  query: string
  start: number
  // stream is set when a topic of this stream is being typed (#**stream>…).
  stream?: string
}

// slashCommands are the commands a message may start with: the server turns
// /poll and /todo into widgets, and renders /me as an action.
export const slashCommands = [
  { name: 'poll', detail: 'Create a poll (question, then one option per line)' },
  { name: 'todo', detail: 'Create a todo list (title, then one task per line)' },
  { name: 'me', detail: 'Action message' },
]

// wildcards are Zulip's mentions of everyone in a stream or a topic.
export const wildcards = [
  { name: 'all', detail: 'Notify channel' },
  { name: 'everyone', detail: 'Notify channel' },
  { name: 'channel', detail: 'Notify channel' },
  { name: 'topic', detail: 'Notify topic' },
]

export function tokenBefore(text: string, caret: number): Token | null {
  const before = text.slice(0, caret)
  const command = /^\/([a-z]*)$/.exec(before)
  if (command) return { trigger: '/', query: command[1], start: 0 }
  const topic = /(^|[\s(])#\*\*([^*>\n]+?)(?:\*\* ?)?>([^*\n]*)$/.exec(before)
  if (topic) return { trigger: '#', stream: topic[2], query: topic[3].toLowerCase(), start: topic.index + topic[1].length }
  const m = /(^|[\s(])([@#:])(\*{0,2})([^\s@#:*]*)$/.exec(before)
  if (!m) return null
  const trigger = m[2] as Token['trigger']
  // ":" needs a letter first, so times like 10:30 do not open the list.
  if (trigger === ':' && !/^[a-z0-9_+-]+$/i.test(m[4])) return null
  return { trigger, query: m[4].toLowerCase(), start: caret - m[2].length - m[3].length - m[4].length }
}

export interface Completion { label: string; insert: string; detail?: string }

// Sources are what completions are drawn from.
export interface Sources {
  people: { full_name: string; email: string }[]
  groups: string[]
  streams: string[]
  topics: (stream: string) => string[]
  emoji: string[]
}

const max = 8

// startsFirst orders names that start with the query before those that
// only contain it.
const startsFirst = (q: string) => (a: string, b: string) => Number(!a.toLowerCase().startsWith(q)) - Number(!b.toLowerCase().startsWith(q))

export function complete(t: Token, s: Sources): Completion[] {
  const q = t.query
  const has = (name: string) => name.toLowerCase().includes(q)
  switch (t.trigger) {
    case '@': {
      const people = s.people.filter((p) => has(p.full_name) || p.email.toLowerCase().startsWith(q))
        .map((p) => ({ label: p.full_name, detail: p.email, insert: `@**${p.full_name}** ` }))
      const groups = s.groups.filter(has).sort(startsFirst(q)).map((g) => ({ label: g, detail: 'User group', insert: `@*${g}* ` }))
      const everyone = wildcards.filter((w) => w.name.startsWith(q)).map((w) => ({ label: w.name, detail: w.detail, insert: `@**${w.name}** ` }))
      return [...people, ...groups, ...everyone].slice(0, max)
    }
    case '#':
      if (t.stream !== undefined) {
        const stream = t.stream
        return s.topics(stream).filter(has).sort(startsFirst(q)).slice(0, max)
          .map((topic) => ({ label: `#${stream} > ${topic}`, insert: `#**${stream}>${topic}** ` }))
      }
      return s.streams.filter(has).sort(startsFirst(q)).slice(0, max).map((name) => ({ label: `#${name}`, insert: `#**${name}** ` }))
    case ':':
      return s.emoji.filter((e) => e.includes(q)).sort(startsFirst(q))
        .slice(0, max).map((e) => ({ label: `:${e}:`, insert: `:${e}: ` }))
    case '/':
      return slashCommands.filter((c) => c.name.startsWith(q)).map((c) => ({ label: `/${c.name}`, detail: c.detail, insert: `/${c.name} ` }))
  }
}

export function applyCompletion(text: string, t: Token, caret: number, c: Completion): { text: string; caret: number } {
  const out = text.slice(0, t.start) + c.insert + text.slice(caret)
  return { text: out, caret: t.start + c.insert.length }
}
