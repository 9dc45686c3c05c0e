// Compose autocomplete: the token being typed before the caret, and what
// replaces it. `@` completes people, `#` streams, `:` emoji, and `/` at the
// start of a message the slash commands.

export interface Token { trigger: '@' | '#' | ':' | '/'; query: string; start: number }

// slashCommands are the commands a message may start with: the server turns
// /poll and /todo into widgets, and renders /me as an action.
export const slashCommands = [
  { name: 'poll', detail: 'Create a poll (question, then one option per line)' },
  { name: 'todo', detail: 'Create a todo list (title, then one task per line)' },
  { name: 'me', detail: 'Action message' },
]

export function tokenBefore(text: string, caret: number): Token | null {
  const command = /^\/([a-z]*)$/.exec(text.slice(0, caret))
  if (command) return { trigger: '/', query: command[1], start: 0 }
  const m = /(^|[\s(])([@#:])(\*{0,2})([^\s@#:*]*)$/.exec(text.slice(0, caret))
  if (!m) return null
  const trigger = m[2] as Token['trigger']
  // ":" needs a letter first, so times like 10:30 do not open the list.
  if (trigger === ':' && !/^[a-z0-9_+-]+$/i.test(m[4])) return null
  return { trigger, query: m[4].toLowerCase(), start: caret - m[2].length - m[3].length - m[4].length }
}

export interface Completion { label: string; insert: string; detail?: string }

export function complete(t: Token, people: { full_name: string; email: string }[], streams: string[], emoji: string[]): Completion[] {
  const q = t.query
  switch (t.trigger) {
    case '@':
      return people.filter((p) => p.full_name.toLowerCase().includes(q) || p.email.toLowerCase().startsWith(q))
        .slice(0, 8).map((p) => ({ label: p.full_name, detail: p.email, insert: `@**${p.full_name}** ` }))
    case '#':
      return streams.filter((s) => s.toLowerCase().includes(q)).slice(0, 8).map((s) => ({ label: `#${s}`, insert: `#**${s}** ` }))
    case ':':
      return emoji.filter((e) => e.includes(q)).sort((a, b) => Number(!a.startsWith(q)) - Number(!b.startsWith(q)))
        .slice(0, 8).map((e) => ({ label: `:${e}:`, insert: `:${e}: ` }))
    case '/':
      return slashCommands.filter((c) => c.name.startsWith(q)).map((c) => ({ label: `/${c.name}`, detail: c.detail, insert: `/${c.name} ` }))
  }
}

export function applyCompletion(text: string, t: Token, caret: number, c: Completion): { text: string; caret: number } {
  const out = text.slice(0, t.start) + c.insert + text.slice(caret)
  return { text: out, caret: t.start + c.insert.length }
}
