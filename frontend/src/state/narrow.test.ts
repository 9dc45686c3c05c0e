import { describe, expect, it } from 'vitest'
import { hashToNarrow, matchesLocally, narrowToApi, narrowToHash, type Narrow } from './narrow'
import type { Message } from './types'

const narrows: Narrow[] = [
  { kind: 'all' },
  { kind: 'stream', streamId: 3, stream: 'dev ops' },
  { kind: 'stream', streamId: 3, stream: 'dev ops', topic: 'deploy/ci #2' },
  { kind: 'pm', emails: ['a@x', 'b@x'] },
  { kind: 'private' },
  { kind: 'starred' },
  { kind: 'mentions' },
  { kind: 'search', query: 'lunch plans/today' },
]

describe('narrow hashes', () => {
  it.each(narrows)('round-trips %j', (n) => {
    expect(hashToNarrow(narrowToHash(n))).toEqual(n)
  })
  it('falls back to all messages on nonsense', () => {
    expect(hashToNarrow('#narrow/stream/abc')).toEqual({ kind: 'all' })
    expect(hashToNarrow('#settings')).toEqual({ kind: 'all' })
  })
  it('speaks the API', () => {
    expect(narrowToApi(narrows[2])).toEqual([{ operator: 'stream', operand: 3 }, { operator: 'topic', operand: 'deploy/ci #2' }])
    expect(narrowToApi({ kind: 'search', query: 'x' })).toEqual([{ operator: 'search', operand: 'x' }])
  })
})

describe('matchesLocally', () => {
  const stream: Message = { id: 1, sender_id: 1, sender_email: 'a@x', sender_full_name: 'A', content: '', subject: 'Lunch',
    type: 'stream', stream_id: 3, display_recipient: 'dev ops', timestamp: 0, reactions: [], flags: ['mentioned'] }
  const pm: Message = { ...stream, id: 2, type: 'private', stream_id: undefined, subject: '', flags: [],
    display_recipient: [{ id: 1, email: 'a@x', full_name: 'A' }, { id: 2, email: 'me@x', full_name: 'Me' }] }
  it.each([
    [{ kind: 'stream', streamId: 3, stream: 'dev ops', topic: 'lunch' }, stream, true],
    [{ kind: 'stream', streamId: 3, stream: 'dev ops', topic: 'dinner' }, stream, false],
    [{ kind: 'stream', streamId: 4, stream: 'other' }, stream, false],
    [{ kind: 'pm', emails: ['a@x'] }, pm, true],
    [{ kind: 'pm', emails: ['b@x'] }, pm, false],
    [{ kind: 'private' }, stream, false],
    [{ kind: 'mentions' }, stream, true],
    [{ kind: 'search', query: 'lunch' }, stream, false],
  ] as [Narrow, Message, boolean][])('%j', (n, m, want) => {
    expect(matchesLocally(n, m, 'me@x')).toBe(want)
  })
})
