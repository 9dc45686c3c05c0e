// A narrow is the set of messages the middle column shows. It has one form
// for the URL hash (so a reload keeps the view), one for the API's `narrow`
// parameter, and a local test for messages that arrive live.
import { pmEmails, topicKey, type MuteState } from './conversation'
import { parseSearch, type PersonResolver } from './search'
import type { Message, NarrowTerm } from './types'

export type Narrow =
  | { kind: 'all' }
  | { kind: 'stream'; streamId: number; stream: string; topic?: string }
  | { kind: 'pm'; emails: string[] } // the other participants, sorted
  | { kind: 'private' }
  | { kind: 'starred' }
  | { kind: 'mentions' }
  | { kind: 'search'; query: string }

// Hash parts are encoded as Zulip encodes them (percent escapes written with
// a dot, and dots escaped too), so links the server renders and links
// copied from Zulip open here. Hashes written with % escapes still open.
export const encodeHashPart = (s: string) => encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.')
export function decodeHashPart(s: string): string {
  try {
    return decodeURIComponent(s.includes('%') ? s : s.replace(/\./g, '%'))
  } catch {
    return s
  }
}
const enc = encodeHashPart

export function narrowToHash(n: Narrow): string {
  switch (n.kind) {
    case 'all': return '#all'
    case 'stream': return `#narrow/channel/${n.streamId}-${enc(n.stream)}` + (n.topic !== undefined ? `/topic/${enc(n.topic)}` : '')
    case 'pm': return `#narrow/dm/${n.emails.map(enc).join(',')}`
    case 'private': return '#narrow/is/dm'
    case 'starred': return '#narrow/is/starred'
    case 'mentions': return '#narrow/is/mentioned'
    case 'search': return `#narrow/search/${enc(n.query)}`
  }
}

// A place is a narrow and, for a message link, the message to open at.
export interface Place { narrow: Narrow; near?: number }

// hashToPlace reads our hashes and Zulip's (`stream`/`channel`, `topic`,
// `pm-with`/`dm` by emails or user IDs, `is`, `search`, `sender`, `near`,
// `id`); emailOf turns a user ID from a Zulip link into an email.
export function hashToPlace(hash: string, emailOf: (id: number) => string | undefined = () => undefined): Place {
  const parts = hash.replace(/^#/, '').split('/')
  if (parts[0] !== 'narrow') return { narrow: { kind: 'all' } }
  const people = (operand: string) => {
    const ids = /^([\d,]+)(-.*)?$/.exec(operand)
    return (ids ? ids[1].split(',').filter(Boolean).map((id) => emailOf(Number(id)) ?? id) : operand.split(',').filter(Boolean)).sort()
  }
  let stream: { id: number; name: string } | undefined
  let topic: string | undefined
  let pm: string[] | undefined
  let is: string | undefined
  const words: string[] = []
  let near: number | undefined
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const operand = decodeHashPart(parts[i + 1])
    switch (parts[i]) {
      case 'stream': case 'channel': {
        const m = /^(\d+)(?:-(.*))?$/.exec(operand)
        if (m) stream = { id: Number(m[1]), name: m[2] ?? '' }
        break
      }
      case 'topic': case 'subject': topic = operand; break
      case 'pm-with': case 'dm': pm = people(operand); break
      case 'is': is = operand; break
      case 'search': words.push(operand); break
      case 'sender': words.unshift(`sender:${people(operand).join(',')}`); break
      case 'near': case 'id': if (/^\d+$/.test(operand)) near = Number(operand); break
    }
  }
  const place = (narrow: Narrow): Place => near === undefined ? { narrow } : { narrow, near }
  if (words.length) return place({ kind: 'search', query: [...(stream ? [`channel:${stream.id}`] : []), ...(topic !== undefined ? [`topic:"${topic}"`] : []), ...words].join(' ') })
  if (stream) return place(topic !== undefined ? { kind: 'stream', streamId: stream.id, stream: stream.name, topic } : { kind: 'stream', streamId: stream.id, stream: stream.name })
  if (pm) return place({ kind: 'pm', emails: pm })
  if (is === 'private' || is === 'dm') return place({ kind: 'private' })
  if (is === 'starred') return place({ kind: 'starred' })
  if (is === 'mentioned') return place({ kind: 'mentions' })
  return place({ kind: 'all' })
}

export const hashToNarrow = (hash: string): Narrow => hashToPlace(hash).narrow

// messageLink is the permanent link of a message, in Zulip's form.
export function messageLink(origin: string, n: Narrow, id: number): string {
  return `${origin}/${narrowToHash(n)}/near/${id}`
}

// narrowToApi is the API's narrow; a search's typed people are resolved by person.
export function narrowToApi(n: Narrow, person?: PersonResolver): NarrowTerm[] {
  switch (n.kind) {
    case 'all': return [{ operator: 'in', operand: 'home' }] // muted streams and topics stay out, as in Zulip
    case 'stream': return n.topic !== undefined
      ? [{ operator: 'stream', operand: n.streamId }, { operator: 'topic', operand: n.topic }]
      : [{ operator: 'stream', operand: n.streamId }]
    case 'pm': return [{ operator: 'pm-with', operand: n.emails.join(',') }]
    case 'private': return [{ operator: 'is', operand: 'private' }]
    case 'starred': return [{ operator: 'is', operand: 'starred' }]
    case 'mentions': return [{ operator: 'is', operand: 'mentioned' }]
    case 'search': return parseSearch(n.query, person)
  }
}

// matchesLocally says whether a live message belongs in the narrow. Search
// results are not extended live (the server's matcher owns search).
export function matchesLocally(n: Narrow, m: Message, myEmail: string, mute: MuteState): boolean {
  switch (n.kind) {
    case 'all': return m.type !== 'stream' || !(mute.mutedStreams.has(m.stream_id!) || mute.mutedTopics.has(topicKey(m.stream_id!, m.subject)))
    case 'stream': return m.type === 'stream' && m.stream_id === n.streamId &&
      (n.topic === undefined || m.subject.toLowerCase() === n.topic.toLowerCase())
    case 'pm': return m.type === 'private' && pmEmails(m, myEmail).join(',') === n.emails.join(',')
    case 'private': return m.type === 'private'
    case 'starred': return m.flags.includes('starred')
    case 'mentions': return m.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned')
    case 'search': return false
  }
}

export function sameNarrow(a: Narrow, b: Narrow): boolean {
  return narrowToHash(a) === narrowToHash(b)
}

export function narrowTitle(n: Narrow, namesOf: (emails: string[]) => string): string {
  switch (n.kind) {
    case 'all': return 'All messages'
    case 'stream': return n.topic !== undefined ? `#${n.stream} › ${n.topic}` : `#${n.stream}`
    case 'pm': return `Direct messages with ${namesOf(n.emails)}`
    case 'private': return 'All direct messages'
    case 'starred': return 'Starred messages'
    case 'mentions': return 'Mentions'
    case 'search': return `Search: ${n.query}`
  }
}
