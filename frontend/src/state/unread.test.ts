import { describe, expect, it } from 'vitest'
import { topicKey } from './conversation'
import { Unreads, titleWithUnreads } from './unread'

const register = {
  streams: [
    { stream_id: 1, topic: 'lunch', unread_message_ids: [10, 11] },
    { stream_id: 1, topic: 'Noise', unread_message_ids: [12] },
    { stream_id: 2, topic: 'x', unread_message_ids: [13] },
  ],
  pms: [{ other_user_id: 7, unread_message_ids: [14] }],
  huddles: [{ user_ids_string: '5,7,9', unread_message_ids: [15] }],
  mentions: [11, 14],
}
const emails = (ids: number[]) => ids.map((i) => `u${i}@x`).join(',')

describe('Unreads', () => {
  const none = { mutedStreams: new Set<number>(), mutedTopics: new Set<string>() }
  it('reads register and counts by place', () => {
    const u = Unreads.fromRegister(register, emails)
    expect(u.total(none)).toBe(6)
    expect(u.inStream(1, none)).toBe(3)
    expect(u.inTopic(1, 'LUNCH')).toBe(2)
    expect(u.inConversation('u7@x')).toBe(1)
    expect(u.inConversation('u5@x,u7@x,u9@x')).toBe(1)
    expect(u.private()).toBe(2)
    expect(u.mentions()).toBe(2)
  })
  it('leaves muted streams and topics out of the total, and muted topics out of their stream', () => {
    const u = Unreads.fromRegister(register, emails)
    const muted = { mutedStreams: new Set([2]), mutedTopics: new Set([topicKey(1, 'noise')]) }
    expect(u.total(muted)).toBe(4)
    expect(u.inStream(1, muted)).toBe(2)
    expect(u.inStream(2, muted)).toBe(1)
  })
  it('forgets read messages', () => {
    const u = Unreads.fromRegister(register, emails)
    u.remove(10)
    u.remove(11)
    expect(u.inTopic(1, 'lunch')).toBe(0)
    expect(u.mentions()).toBe(1)
  })
  it('finds the next unread topic in message order, skipping muted ones', () => {
    const u = Unreads.fromRegister(register, emails)
    const muted = { mutedStreams: new Set<number>(), mutedTopics: new Set([topicKey(1, 'lunch')]) }
    expect(u.firstUnreadTopic(() => true, muted)).toEqual({ streamId: 1, topic: 'Noise' })
    expect(u.firstUnreadTopic((s) => s !== 1, muted)).toEqual({ streamId: 2, topic: 'x' })
  })
  it('puts the count and the view in the title', () => {
    expect(titleWithUnreads(0, 'Lanchat', 'Inbox')).toBe('Inbox - Lanchat')
    expect(titleWithUnreads(3, 'Lanchat', '#general › lunch')).toBe('(3) #general › lunch - Lanchat')
  })
})
