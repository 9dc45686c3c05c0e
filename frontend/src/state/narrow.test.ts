import { describe, expect, it } from 'vitest'
import { decodeHashPart, encodeHashPart, hashToNarrow, hashToPlace, matchesLocally, narrowToApi, narrowToHash, type Narrow } from './narrow'
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
  it('opens Zulip links and our older hashes', () => {
    const emailOf = (id: number) => ({ 12: 'b@x', 13: 'c@x' } as Record<number, string>)[id]
    expect(hashToPlace('#narrow/channel/3-dev-ops/topic/deploy.20notes.2E1/near/42')).toEqual(
      { narrow: { kind: 'stream', streamId: 3, stream: 'dev-ops', topic: 'deploy notes.1' }, near: 42 })
    expect(hashToPlace('#narrow/stream/3-general/topic/lunch')).toEqual({ narrow: { kind: 'stream', streamId: 3, stream: 'general', topic: 'lunch' } })
    expect(hashToPlace('#narrow/near/42')).toEqual({ narrow: { kind: 'all' }, near: 42 })
    expect(hashToPlace('#narrow/dm/13,12-group/near/7', emailOf)).toEqual({ narrow: { kind: 'pm', emails: ['b@x', 'c@x'] }, near: 7 })
    expect(hashToPlace('#narrow/pm-with/a%40x')).toEqual({ narrow: { kind: 'pm', emails: ['a@x'] } })
    expect(hashToPlace('#narrow/search/lunch%20plans')).toEqual({ narrow: { kind: 'search', query: 'lunch plans' } })
    expect(hashToPlace('#narrow/sender/12-bob/search/lunch', emailOf)).toEqual({ narrow: { kind: 'search', query: 'sender:b@x lunch' } })
    expect(hashToPlace('#narrow/is/private')).toEqual({ narrow: { kind: 'private' } })
  })
  it('encodes hash parts as Zulip does', () => {
    expect(encodeHashPart('deploy notes.1/x')).toBe('deploy.20notes.2E1.2Fx')
    expect(decodeHashPart('deploy.20notes.2E1.2Fx')).toBe('deploy notes.1/x')
  })
  it('leaves muted streams and topics out of all messages', () => {
    expect(narrowToApi({ kind: 'all' })).toEqual([{ operator: 'in', operand: 'home' }])
    const m = { id: 1, sender_id: 1, sender_email: 'a@x', sender_full_name: 'A', content: '', subject: 'Lunch', type: 'stream', stream_id: 3,
      display_recipient: 'x', timestamp: 0, reactions: [], flags: [] } as Message
    expect(matchesLocally({ kind: 'all' }, m, 'me@x', { mutedStreams: new Set(), mutedTopics: new Set(['3:lunch']) })).toBe(false)
    expect(matchesLocally({ kind: 'all' }, m, 'me@x', { mutedStreams: new Set([3]), mutedTopics: new Set() })).toBe(false)
  })
  it('speaks the API', () => {
    expect(narrowToApi(narrows[2])).toEqual([{ operator: 'stream', operand: 3 }, { operator: 'topic', operand: 'deploy/ci #2' }])
    expect(narrowToApi({ kind: 'search', query: 'x' })).toEqual([{ operator: 'search', operand: 'x' }])
  })
})

const noMute = { mutedStreams: new Set<number>(), mutedTopics: new Set<string>() }

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
    [{ kind: 'all' }, stream, true],
  ] as [Narrow, Message, boolean][])('%j', (n, m, want) => {
    expect(matchesLocally(n, m, 'me@x', noMute)).toBe(want)
  })
})
