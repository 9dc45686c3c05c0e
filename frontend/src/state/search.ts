// Zulip's search syntax: `operator:operand` terms (an operand may be
// "quoted", a term may be negated with a leading -) and free words, which
// become one `search` term. The UI keeps the typed query in the URL and
// turns it into the API's narrow here, so a reload searches the same way.
import type { NarrowTerm } from './types'

// The operators a person may type, with Zulip's older and newer spellings
// folded onto the ones the API takes.
const operatorAliases: Record<string, string> = {
  stream: 'stream', channel: 'stream', streams: 'streams', channels: 'streams',
  topic: 'topic', subject: 'topic',
  sender: 'sender', from: 'sender',
  dm: 'dm', 'pm-with': 'dm', 'dm-including': 'dm-including', 'group-pm-with': 'dm-including',
  is: 'is', has: 'has', near: 'near', id: 'id', search: 'search', in: 'in',
}

// People are named by email on the wire; a typed name or "me" is resolved.
export type PersonResolver = (typed: string) => string | undefined

const termPattern = /(-?)([a-z-]+):("[^"]*"?|\S*)|"([^"]*)"?|(\S+)/gi

const unquote = (s: string) => s.replace(/^"|"$/g, '')

export function parseSearch(query: string, person: PersonResolver = () => undefined): NarrowTerm[] {
  const terms: NarrowTerm[] = []
  const words: string[] = []
  for (const m of query.matchAll(termPattern)) {
    const [whole, negated, op, rawOperand, quoted, word] = m
    const operator = op ? operatorAliases[op.toLowerCase()] : undefined
    if (!operator) {
      words.push(quoted ?? word ?? whole)
      continue
    }
    let operand = unquote(rawOperand)
    if (!operand) continue // a half-typed "topic:" narrows nothing yet
    if (operator === 'stream' && /^\d+$/.test(operand)) { // a stream by ID, as links write it
      terms.push(negated ? { operator, operand: Number(operand), negated: true } : { operator, operand: Number(operand) })
      continue
    }
    if (operator === 'sender') operand = person(operand) ?? operand
    if (operator === 'dm' || operator === 'dm-including') operand = operand.split(',').map((p) => person(p.trim()) ?? p.trim()).join(',')
    terms.push(negated ? { operator, operand, negated: true } : { operator, operand })
  }
  const text = words.join(' ').trim()
  if (text) terms.push({ operator: 'search', operand: text })
  return terms
}

export interface Suggestion { label: string; query: string }

export interface SuggestionSources {
  streams: string[]
  people: { email: string; full_name: string }[]
}

const operatorHelp: [string, string][] = [
  ['channel:', 'messages in a stream'], ['topic:', 'messages in a topic'], ['sender:', 'messages sent by someone'],
  ['dm:', 'direct messages with someone'], ['is:starred', 'starred messages'], ['is:mentioned', 'messages that mention you'],
  ['is:unread', 'unread messages'], ['is:dm', 'all direct messages'], ['is:alerted', 'messages with your alert words'],
  ['is:resolved', 'resolved topics'], ['has:link', 'messages with links'], ['has:image', 'messages with images'],
  ['has:attachment', 'messages with files'], ['has:reaction', 'messages with reactions'],
]
const isValues = ['starred', 'mentioned', 'unread', 'dm', 'alerted', 'resolved', 'followed']
const hasValues = ['link', 'image', 'attachment', 'reaction']

const quote = (s: string) => /\s/.test(s) ? `"${s}"` : s

// suggest completes the term being typed at the end of the query: an
// operator, then a stream, a person or a flag for it.
export function suggest(query: string, src: SuggestionSources, limit = 8): Suggestion[] {
  const at = query.search(/\S*$/)
  const head = query.slice(0, at)
  const last = query.slice(at)
  if (!last) return []
  const m = /^(-?)([a-z-]+):(.*)$/i.exec(last)
  const out: Suggestion[] = []
  const add = (term: string, label: string) => out.push({ label, query: head + term + ' ' })
  if (!m) {
    for (const [op, help] of operatorHelp) if (op.startsWith(last.toLowerCase())) out.push({ label: `${op} ${help}`, query: head + op + (op.endsWith(':') ? '' : ' ') })
    return out.slice(0, limit)
  }
  const [, neg, op, partial] = m
  const operator = operatorAliases[op.toLowerCase()]
  const p = unquote(partial).toLowerCase()
  if (operator === 'stream') for (const s of src.streams) if (s.toLowerCase().includes(p)) add(`${neg}${op}:${quote(s)}`, `${neg ? 'Exclude' : 'Stream'} #${s}`)
  if (operator === 'sender' || operator === 'dm' || operator === 'dm-including') {
    for (const u of src.people) {
      if (u.full_name.toLowerCase().includes(p) || u.email.toLowerCase().startsWith(p)) add(`${neg}${op}:${u.email}`, `${u.full_name} <${u.email}>`)
    }
  }
  if (operator === 'is') for (const v of isValues) if (v.startsWith(p)) add(`${neg}is:${v}`, `${neg ? 'Not ' : ''}is:${v}`)
  if (operator === 'has') for (const v of hasValues) if (v.startsWith(p)) add(`${neg}has:${v}`, `${neg ? 'No ' : 'Has '}${v}`)
  return out.slice(0, limit)
}

// personResolver finds the person a typed operand names: "me", an email,
// a full name, or the one person whose name or email starts with it.
export function personResolver(me: string, people: { email: string; full_name: string }[]): PersonResolver {
  return (typed) => {
    const t = typed.toLowerCase()
    if (t === 'me') return me
    const exact = people.find((u) => u.email.toLowerCase() === t || u.full_name.toLowerCase() === t)
    if (exact) return exact.email
    const prefixed = people.filter((u) => u.full_name.toLowerCase().startsWith(t) || u.email.toLowerCase().startsWith(t))
    return prefixed.length === 1 ? prefixed[0].email : undefined
  }
}
