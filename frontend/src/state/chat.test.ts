import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, type Json } from '../api/transport'
import { Chat } from './chat'
import type { ServerEvent } from './events'
import type { Message } from './types'
import { widgetOf } from './widgets'

const me = { user_id: 1, email: 'me@x', full_name: 'Me', is_bot: false }
const bob = { user_id: 2, email: 'bob@x', full_name: 'Bob', is_bot: false }
const sub = { stream_id: 10, name: 'general', color: '#fff', is_muted: false, description: '', invite_only: false }

function streamMessage(id: number, over: Partial<Message> = {}): Message {
  return { id, sender_id: 2, sender_email: 'bob@x', sender_full_name: 'Bob', content: `<p>${id}</p>`, subject: 'lunch', type: 'stream',
    stream_id: 10, display_recipient: 'general', timestamp: 0, reactions: [], flags: [], ...over }
}
const dm = (id: number): Message => streamMessage(id, { type: 'private', stream_id: undefined, subject: '',
  display_recipient: [{ id: 1, email: 'me@x', full_name: 'Me' }, { id: 2, email: 'bob@x', full_name: 'Bob' }] })

let chat: Chat
const apply = (...events: ServerEvent[]) => { for (const e of events) chat.apply(e) }

beforeEach(() => {
  chat = new Chat()
  chat.me = me
  for (const u of [me, bob]) chat.putUser({ ...u })
  chat.subs.set(10, { ...sub })
  chat.view = { narrow: { kind: 'stream', streamId: 10, stream: 'general', topic: 'lunch' }, ids: [], foundOldest: true, foundNewest: true, loading: false, error: '' }
})

describe('the event reducer', () => {
  it('keeps the custom profile fields and people\'s values current', () => {
    const desk = { id: 3, type: 1, order: 1, name: 'Desk', hint: '', field_data: '', required: true }
    apply({ type: 'custom_profile_fields', fields: [desk] })
    expect(chat.profileFields).toEqual([desk])
    apply({ type: 'realm_user', op: 'update', person: { user_id: 2, custom_profile_field: { id: 3, value: 'Room 12', rendered_value: '<p>Room 12</p>' } } })
    expect(chat.users.get(2)?.profile_data).toEqual({ 3: { value: 'Room 12', rendered_value: '<p>Room 12</p>' } })
    expect(chat.users.get(2)).not.toHaveProperty('custom_profile_field')
    apply({ type: 'realm_user', op: 'update', person: { user_id: 2, custom_profile_field: { id: 3, value: null } } })
    expect(chat.users.get(2)?.profile_data).toEqual({})
  })
  it('keeps followed topics, people\'s status and my scheduled messages current', () => {
    apply({ type: 'user_topic', stream_id: 10, topic_name: 'Lunch', visibility_policy: 3 })
    expect(chat.followedTopics.has('10:lunch')).toBe(true)
    apply({ type: 'user_topic', stream_id: 10, topic_name: 'lunch', visibility_policy: 0 })
    expect(chat.followedTopics.size).toBe(0)
    apply({ type: 'user_status', user_id: 2, status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' },
      { type: 'user_status', user_id: 2, away: true })
    expect(chat.statuses.get(2)).toEqual({ status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji', away: true })
    const later = (id: number, at: number) => ({ scheduled_message_id: id, type: 'stream' as const, to: 10, topic: 't', content: 'x', rendered_content: '<p>x</p>', scheduled_delivery_timestamp: at, failed: false })
    apply({ type: 'scheduled_messages', op: 'add', scheduled_messages: [later(1, 300), later(2, 200)] })
    expect(chat.scheduled.map((m) => m.scheduled_message_id)).toEqual([2, 1])
    apply({ type: 'scheduled_messages', op: 'update', scheduled_message: later(2, 400) })
    expect(chat.scheduled.map((m) => m.scheduled_message_id)).toEqual([1, 2])
    apply({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 })
    expect(chat.scheduled.map((m) => m.scheduled_message_id)).toEqual([2])
  })

  it('counts a new message where it lives and shows it in a matching view', () => {
    apply({ type: 'message', message: streamMessage(5), flags: [] }, { type: 'message', message: dm(6), flags: ['mentioned'] },
      { type: 'message', message: streamMessage(7, { subject: 'other' }), flags: ['read'] })
    expect(chat.unreads.inTopic(10, 'LUNCH')).toBe(1)
    expect(chat.unreads.inConversation('bob@x')).toBe(1)
    expect(chat.unreads.mentions()).toBe(1)
    expect(chat.unreads.has(7)).toBe(false)
    expect(chat.view.ids).toEqual([5])
    expect(chat.recentDMs.get('bob@x')).toBe(6)
  })
  it('counts a message marked unread again exactly as when it arrived (one rule for places)', () => {
    apply({ type: 'message', message: dm(6), flags: ['wildcard_mentioned'] })
    const arrived = chat.unreads.places.get(6)
    apply({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [6] })
    expect(chat.unreads.has(6)).toBe(false)
    apply({ type: 'update_message_flags', op: 'remove', flag: 'read', messages: [6] })
    expect(chat.unreads.places.get(6)).toEqual(arrived)
    expect(chat.unreads.mentions()).toBe(1)
  })
  it('moves unread counts and the view with a topic move', () => {
    apply({ type: 'message', message: streamMessage(5), flags: [] }, { type: 'message', message: streamMessage(8), flags: ['read'] })
    apply({ type: 'update_message', message_id: 5, message_ids: [5, 8], subject: 'dinner' })
    expect(chat.unreads.inTopic(10, 'dinner')).toBe(1)
    expect(chat.unreads.inTopic(10, 'lunch')).toBe(0)
    expect(chat.view.ids).toEqual([])
    expect(chat.messages.get(8)?.subject).toBe('dinner')
  })
  it('follows a topic moved whole out of the open view, and the sidebar\'s topics move with it', () => {
    const moved: unknown[] = []
    chat.onTopicMoved = (to) => moved.push(to)
    chat.topics.set(10, [{ name: 'lunch', max_id: 8 }, { name: 'older', max_id: 3 }])
    chat.topics.set(11, [{ name: 'plans', max_id: 4 }])
    chat.subs.set(11, { ...sub, stream_id: 11, name: 'random' })
    apply({ type: 'message', message: streamMessage(5), flags: [] }, { type: 'message', message: streamMessage(8), flags: [] })
    apply({ type: 'update_message', message_id: 5, message_ids: [5, 8], stream_id: 10, orig_subject: 'lunch', subject: 'dinner',
      new_stream_id: 11, propagate_mode: 'change_all' })
    expect(chat.topics.get(10)?.map((t) => t.name)).toEqual(['older'])
    expect(chat.topics.get(11)).toEqual([{ name: 'dinner', max_id: 8 }, { name: 'plans', max_id: 4 }])
    expect(moved).toEqual([{ kind: 'stream', streamId: 11, stream: 'random', topic: 'dinner' }])
  })
  it('stays on a topic that keeps messages after a move', () => {
    const moved: unknown[] = []
    chat.onTopicMoved = (to) => moved.push(to)
    chat.topics.set(10, [{ name: 'lunch', max_id: 8 }])
    apply({ type: 'message', message: streamMessage(5), flags: [] }, { type: 'message', message: streamMessage(8), flags: [] })
    apply({ type: 'update_message', message_id: 8, message_ids: [8], stream_id: 10, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_one' })
    expect(chat.view.ids).toEqual([5])
    expect(moved).toEqual([])
    expect(chat.topics.get(10)?.map((t) => t.name)).toEqual(['dinner', 'lunch'])
  })
  it('knows which user groups I am in as members come and go', () => {
    apply({ type: 'user_group', op: 'add', group: { id: 3, name: 'design', members: [2] } })
    expect(chat.inGroup(3)).toBe(false)
    apply({ type: 'user_group', op: 'update', group_id: 3, data: { name: 'designers' } })
    expect(chat.groups.get(3)?.name).toBe('designers')
    apply({ type: 'user_group', op: 'add_members', group_id: 3, user_ids: [1] })
    expect(chat.inGroup(3)).toBe(true)
    apply({ type: 'user_group', op: 'remove_members', group_id: 3, user_ids: [1] })
    expect(chat.inGroup(3)).toBe(false)
    apply({ type: 'user_group', op: 'add_members', group_id: 3, user_ids: [1] }, { type: 'user_group', op: 'remove', group_id: 3 })
    expect(chat.inGroup(3)).toBe(false)
  })
  it('is in a group through its subgroups at any depth', () => {
    apply({ type: 'user_group', op: 'add', group: { id: 4, name: 'a', members: [1] } }, { type: 'user_group', op: 'add', group: { id: 5, name: 'b', members: [], direct_subgroup_ids: [4] } },
      { type: 'user_group', op: 'add', group: { id: 6, name: 'c', members: [] } })
    expect(chat.inGroup(5)).toBe(true)
    apply({ type: 'user_group', op: 'add_subgroups', group_id: 6, direct_subgroup_ids: [5] })
    expect(chat.inGroup(6)).toBe(true)
    apply({ type: 'user_group', op: 'remove_subgroups', group_id: 6, direct_subgroup_ids: [5] })
    expect(chat.inGroup(6)).toBe(false)
  })
  it('edits, reacts, deletes', () => {
    apply({ type: 'message', message: streamMessage(5), flags: [] })
    apply({ type: 'update_message', message_id: 5, rendered_content: '<p>new</p>', edit_timestamp: 9 })
    expect(chat.messages.get(5)?.content).toBe('<p>new</p>')
    apply({ type: 'reaction', op: 'add', message_id: 5, user_id: 2, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' })
    expect(chat.messages.get(5)?.reactions).toHaveLength(1)
    apply({ type: 'reaction', op: 'remove', message_id: 5, user: { user_id: 2 }, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' })
    expect(chat.messages.get(5)?.reactions).toHaveLength(0)
    apply({ type: 'delete_message', message_ids: [5] })
    expect(chat.messages.has(5)).toBe(false)
    expect(chat.unreads.has(5)).toBe(false)
    expect(chat.view.ids).toEqual([])
  })
  it('adds each submessage once, to a poll that then counts the vote', () => {
    const def = { id: 1, message_id: 5, sender_id: 2, msg_type: 'widget', content: JSON.stringify({ widget_type: 'poll', extra_data: { question: 'Q', options: ['A'] } }) }
    apply({ type: 'message', message: streamMessage(5, { submessages: [def] }), flags: [] })
    const vote = { type: 'submessage', message_id: 5, submessage_id: 2, sender_id: 1, msg_type: 'widget', content: '{"type":"vote","key":"canned,0","vote":1}' } as const
    apply(vote, vote, { ...vote, message_id: 404 })
    expect(chat.messages.get(5)?.submessages?.map((s) => s.id)).toEqual([1, 2])
    expect(widgetOf(chat.messages.get(5)!)).toMatchObject({ kind: 'poll', options: [{ option: 'A', voters: [1] }] })
  })
  it('follows subscriptions, streams, people, muting and the realm', () => {
    apply({ type: 'subscription', op: 'add', subscriptions: [{ ...sub, stream_id: 11, name: 'random' }] },
      { type: 'subscription', op: 'update', stream_id: 11, property: 'is_muted', value: true },
      { type: 'stream', op: 'update', stream_id: 10, property: 'name', value: 'all-hands' })
    expect(chat.subs.get(11)?.is_muted).toBe(true)
    expect(chat.subs.get(10)?.name).toBe('all-hands')
    apply({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 11 }] }, { type: 'stream', op: 'delete', streams: [{ stream_id: 10 }] })
    expect([...chat.subs.keys()]).toEqual([])
    apply({ type: 'realm_user', op: 'add', person: { user_id: 3, email: 'ann@x', full_name: 'Ann', is_bot: false } },
      { type: 'realm_user', op: 'update', person: { user_id: 3, full_name: 'Ann B' } }, { type: 'realm_user', op: 'remove', person: { user_id: 2 } })
    expect(chat.byEmail.get('ann@x')?.full_name).toBe('Ann B')
    expect(chat.users.get(2)?.is_active).toBe(false)
    apply({ type: 'realm_user', op: 'update', person: { user_id: me.user_id, role: 200 } })
    expect([chat.isAdmin, chat.me.role]).toEqual([true, 200])
    apply({ type: 'realm_user', op: 'update', person: { user_id: me.user_id, role: 600 } })
    expect([chat.isAdmin, chat.me.role]).toEqual([false, 600])
    apply({ type: 'user_topic', stream_id: 10, topic_name: 'Lunch', visibility_policy: 1 })
    expect(chat.mutedTopics.has('10:lunch')).toBe(true)
    apply({ type: 'user_topic', stream_id: 10, topic_name: 'lunch', visibility_policy: 0 })
    expect(chat.mutedTopics.size).toBe(0)
    apply({ type: 'realm', op: 'update_dict', data: { name: 'Acme' } })
    expect(chat.realmName).toBe('Acme')
    expect(chat.guestDMWarning).toBe(true)
    apply({ type: 'realm', op: 'update', property: 'enable_guest_user_dm_warning', value: false })
    expect(chat.guestDMWarning).toBe(false)
  })
  it('marks a message moved by a move, not by resolving its topic (level 365)', () => {
    chat.messages.set(5, streamMessage(5))
    apply({ type: 'update_message', message_id: 5, message_ids: [5], stream_id: 10, orig_subject: 'lunch', subject: '✔ lunch', edit_timestamp: 7 } as ServerEvent)
    expect(chat.messages.get(5)!.last_moved_timestamp).toBeUndefined()
    apply({ type: 'update_message', message_id: 5, message_ids: [5], stream_id: 10, orig_subject: '✔ lunch', subject: 'dinner', edit_timestamp: 8 } as ServerEvent)
    expect(chat.messages.get(5)!.last_moved_timestamp).toBe(8)
  })
  it('keeps the account\'s settings and a stream\'s privacy current', () => {
    chat.userSettings = { color_scheme: 1, enable_sounds: true }
    apply({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 })
    expect(chat.userSettings).toEqual({ color_scheme: 2, enable_sounds: true })
    apply({ type: 'stream', op: 'update', stream_id: 10, property: 'invite_only', value: true })
    expect(chat.subs.get(10)?.invite_only).toBe(true)
    apply({ type: 'subscription', op: 'update', stream_id: 10, property: 'pin_to_top', value: true })
    expect(chat.subs.get(10)?.pin_to_top).toBe(true)
  })
  it('shows who is typing, until their message arrives', () => {
    apply({ type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: 2, email: 'bob@x' }, stream_id: 10, topic: 'lunch' })
    expect(chat.typists(Chat.streamConversation(10, 'lunch')).map((u) => u.email)).toEqual(['bob@x'])
    apply({ type: 'message', message: streamMessage(5), flags: [] })
    expect(chat.typists(Chat.streamConversation(10, 'lunch'))).toEqual([])
  })
})

describe('a queue the server forgot', () => {
  afterEach(() => { vi.useRealTimers() })
  // An import swaps the organization: the old queue is gone, and the
  // server answers 503 for a moment.
  const failing = (failures: number) => {
    let calls = 0
    chat.register = async () => { if (++calls <= failures) throw new Error('This organization is being replaced') }
    chat.load = async () => {}
    return () => calls
  }
  it('is registered again until the server answers', async () => {
    vi.useFakeTimers()
    const calls = failing(2)
    const done = chat.registerAgain()
    await vi.advanceTimersByTimeAsync(400)
    expect(calls()).toBe(1)
    expect(chat.connected).toBe(false)
    await vi.runAllTimersAsync()
    await done
    expect(calls()).toBe(3)
  })
  it('is not registered again once the page closed its chat', async () => {
    vi.useFakeTimers()
    const calls = failing(5)
    const done = chat.registerAgain()
    await vi.advanceTimersByTimeAsync(0)
    chat.close()
    await vi.runAllTimersAsync()
    await done
    expect(calls()).toBe(1)
  })
})

describe('marking unread', () => {
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks() })
  it('stays unread while the view that marked it shows it, and is read again in the next view', async () => {
    vi.useFakeTimers()
    const post = vi.spyOn(api, 'post').mockResolvedValue({})
    const readOps = () => post.mock.calls.filter(([, p]) => (p as Json).flag === 'read').map(([, p]) => (p as Json).op)
    apply({ type: 'message', message: streamMessage(5), flags: [] })
    chat.seen(5)
    await vi.advanceTimersByTimeAsync(400)
    apply({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [5] })
    await chat.markUnreadFrom(5)
    apply({ type: 'update_message_flags', op: 'remove', flag: 'read', messages: [5] })
    chat.seen(5) // still on screen
    await vi.advanceTimersByTimeAsync(400)
    expect(readOps()).toEqual(['add', 'remove'])
    expect(chat.unreads.has(5)).toBe(true)
    vi.spyOn(api, 'get').mockResolvedValue({ messages: [], found_oldest: true, found_newest: true })
    await chat.load({ kind: 'stream', streamId: 10, stream: 'general', topic: 'lunch' })
    chat.view.ids = [5]
    chat.seen(5)
    await vi.advanceTimersByTimeAsync(400)
    expect(readOps()).toEqual(['add', 'remove', 'add'])
  })
})
