import { describe, expect, it } from 'vitest'
import { filterConversations, recentConversations } from './recent'
import { Unreads } from './unread'
import type { Message } from './types'

const base: Message = { id: 0, sender_id: 1, sender_email: 'a@x', sender_full_name: 'A', content: '', subject: '', type: 'stream',
  stream_id: 1, display_recipient: 'general', timestamp: 100, reactions: [], flags: [] }
const msg = (id: number, over: Partial<Message>): Message => ({ ...base, id, ...over })
const dm = (id: number, sender: number): Message => msg(id, { type: 'private', stream_id: undefined, sender_id: sender,
  display_recipient: [{ id: 1, email: 'a@x', full_name: 'A' }, { id: 2, email: 'me@x', full_name: 'Me' }] })

describe('recent conversations', () => {
  const messages = [msg(1, { subject: 'lunch' }), msg(2, { subject: 'Lunch', sender_id: 3 }), msg(3, { subject: 'deploys' }), dm(4, 1), msg(5, { stream_id: 2, subject: 'noise' })]
  const unreads = new Unreads()
  unreads.add(2, { streamId: 1, topic: 'Lunch', mentioned: false })
  unreads.add(9, { streamId: 1, topic: 'old news', mentioned: false }) // unread, but older than what was fetched
  const mute = { mutedStreams: new Set([2]), mutedTopics: new Set<string>() }
  const rows = recentConversations(messages, unreads, mute, 'me@x', (id) => ['', 'general', 'random'][id])

  it('groups by conversation, topics without case, unread first', () => {
    expect(rows.map((r) => [r.key, r.unread, r.lastId])).toEqual([
      ['s:1:old news', 1, 9], ['s:1:lunch', 1, 2], ['s:2:noise', 0, 5], ['p:a@x', 0, 4], ['s:1:deploys', 0, 3]])
    expect(rows[1].senders).toEqual([3, 1])
    expect(rows[1].narrow).toEqual({ kind: 'stream', streamId: 1, stream: 'general', topic: 'Lunch' })
    expect(rows[2].muted).toBe(true)
  })
  it('filters by unread, kind, muting and text', () => {
    const label = (c: { key: string }) => c.key
    const f = { unreadOnly: false, kind: 'all' as const, includeMuted: false, text: '' }
    expect(filterConversations(rows, f, label).map((r) => r.key)).toEqual(['s:1:old news', 's:1:lunch', 'p:a@x', 's:1:deploys'])
    expect(filterConversations(rows, { ...f, unreadOnly: true }, label)).toHaveLength(2)
    expect(filterConversations(rows, { ...f, kind: 'dms' }, label).map((r) => r.key)).toEqual(['p:a@x'])
    expect(filterConversations(rows, { ...f, includeMuted: true, text: 'NOI' }, label).map((r) => r.key)).toEqual(['s:2:noise'])
  })
})
