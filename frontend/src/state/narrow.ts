// A narrow is the set of messages the middle column shows. It has one form
// for the URL hash (so a reload keeps the view), one for the API's `narrow`
// parameter, and a local test for messages that arrive live.
import type { Message } from './types'

export type Narrow =
  | { kind: 'all' }
  | { kind: 'stream'; streamId: number; stream: string; topic?: string }
  | { kind: 'pm'; emails: string[] } // the other participants, sorted
  | { kind: 'private' }
  | { kind: 'starred' }
  | { kind: 'mentions' }
  | { kind: 'search'; query: string }

const enc = encodeURIComponent
const dec = decodeURIComponent

export function narrowToHash(n: Narrow): string {
  switch (n.kind) {
    case 'all': return '#all'
    case 'stream': return `#narrow/stream/${n.streamId}-${enc(n.stream)}` + (n.topic !== undefined ? `/topic/${enc(n.topic)}` : '')
    case 'pm': return `#narrow/pm-with/${n.emails.map(enc).join(',')}`
    case 'private': return '#narrow/is/private'
    case 'starred': return '#narrow/is/starred'
    case 'mentions': return '#narrow/is/mentioned'
    case 'search': return `#narrow/search/${enc(n.query)}`
  }
}

export function hashToNarrow(hash: string): Narrow {
  const parts = hash.replace(/^#/, '').split('/')
  if (parts[0] !== 'narrow') return { kind: 'all' }
  const [, op, operand = '', extra, topic] = parts
  switch (op) {
    case 'stream': {
      const m = /^(\d+)-?(.*)$/.exec(operand)
      if (!m) return { kind: 'all' }
      const n: Narrow = { kind: 'stream', streamId: Number(m[1]), stream: dec(m[2]) }
      if (extra === 'topic' && topic !== undefined) n.topic = dec(topic)
      return n
    }
    case 'pm-with': return { kind: 'pm', emails: operand.split(',').filter(Boolean).map(dec).sort() }
    case 'is':
      if (operand === 'private') return { kind: 'private' }
      if (operand === 'starred') return { kind: 'starred' }
      if (operand === 'mentioned') return { kind: 'mentions' }
      return { kind: 'all' }
    case 'search': return { kind: 'search', query: dec(operand) }
  }
  return { kind: 'all' }
}

export interface NarrowTerm { operator: string; operand: string | number; negated?: boolean }

export function narrowToApi(n: Narrow): NarrowTerm[] {
  switch (n.kind) {
    case 'all': return []
    case 'stream': return n.topic !== undefined
      ? [{ operator: 'stream', operand: n.streamId }, { operator: 'topic', operand: n.topic }]
      : [{ operator: 'stream', operand: n.streamId }]
    case 'pm': return [{ operator: 'pm-with', operand: n.emails.join(',') }]
    case 'private': return [{ operator: 'is', operand: 'private' }]
    case 'starred': return [{ operator: 'is', operand: 'starred' }]
    case 'mentions': return [{ operator: 'is', operand: 'mentioned' }]
    case 'search': return [{ operator: 'search', operand: n.query }]
  }
}

// pmEmails are a private message's other participants (or just me, for a
// note to self), sorted: the key of a conversation.
export function pmEmails(m: Message, myEmail: string): string[] {
  if (typeof m.display_recipient === 'string') return []
  const others = m.display_recipient.map((r) => r.email).filter((e) => e !== myEmail)
  return (others.length ? others : [myEmail]).sort()
}

// matchesLocally says whether a live message belongs in the narrow. Search
// results are not extended live (the server's matcher owns search).
export function matchesLocally(n: Narrow, m: Message, myEmail: string): boolean {
  switch (n.kind) {
    case 'all': return true
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

export function narrowTitle(n: Narrow): string {
  switch (n.kind) {
    case 'all': return 'All messages'
    case 'stream': return n.topic !== undefined ? `#${n.stream} › ${n.topic}` : `#${n.stream}`
    case 'pm': return `Private: ${n.emails.join(', ')}`
    case 'private': return 'Private messages'
    case 'starred': return 'Starred messages'
    case 'mentions': return 'Mentions'
    case 'search': return `Search: ${n.query}`
  }
}
