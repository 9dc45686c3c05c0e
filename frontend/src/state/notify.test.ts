import { describe, expect, it } from 'vitest'
import { defaultNotifySettings as s, notificationText, notifyFor } from './notify'
import type { Message } from './types'

const sub = { stream_id: 1, name: 'general', color: '', is_muted: false, description: '', invite_only: false }
const m = (over: Partial<Message>): Message => ({ id: 1, sender_id: 2, sender_email: 'b@x', sender_full_name: 'Bob', content: '<p>Hi <strong>all</strong> &amp; you</p>',
  subject: 'lunch', type: 'stream', stream_id: 1, display_recipient: 'general', timestamp: 0, reactions: [], flags: [], ...over })
const dm = m({ type: 'private', stream_id: undefined, subject: '' })

describe('notifyFor', () => {
  it.each([
    ['a direct message', dm, s, sub, false, false, { show: true, sound: true }],
    ['a mention', m({ flags: ['mentioned'] }), s, sub, false, false, { show: true, sound: true }],
    ['an alert word', m({ flags: ['has_alert_word'] }), s, sub, false, false, { show: true, sound: true }],
    ['a wildcard mention', m({ flags: ['wildcard_mentioned'] }), s, sub, false, false, { show: true, sound: true }],
    ['a wildcard mention, not wanted', m({ flags: ['wildcard_mentioned'] }), { ...s, wildcard_mentions_notify: false }, sub, false, false, { show: false, sound: false }],
    ['an ordinary stream message', m({}), s, sub, false, false, { show: false, sound: false }],
    ['a stream set to notify', m({}), s, { ...sub, desktop_notifications: true, audible_notifications: null }, false, false, { show: true, sound: false }],
    ['streams notify by default', m({}), { ...s, enable_stream_desktop_notifications: true }, sub, false, false, { show: true, sound: false }],
    ['one\'s own message', m({ sender_id: 7, flags: ['mentioned'] }), s, sub, false, false, { show: false, sound: false }],
    ['a muted topic', m({ flags: ['mentioned'] }), s, sub, true, false, { show: false, sound: false }],
    ['the conversation being read', dm, s, sub, false, true, { show: false, sound: false }],
    ['sounds off', dm, { ...s, enable_sounds: false }, sub, false, false, { show: true, sound: false }],
  ] as const)('%s', (_, msg, settings, subscription, muted, reading, want) => {
    expect(notifyFor(msg, 7, settings, subscription, muted, reading)).toEqual(want)
  })
})

describe('notificationText', () => {
  it('names the sender and the conversation, with the text of the message', () => {
    expect(notificationText(m({}), 'general')).toEqual({ title: 'Bob (#general › lunch)', body: 'Hi all & you' })
    expect(notificationText(m({ content: '<p>Hi <span class="user-mention">@Ann</span>?</p><p>Next</p>' }), 'g').body).toBe('Hi @Ann? Next')
    expect(notificationText(dm, '').title).toBe('Bob')
    expect(notificationText(m({ content: `<p>${'x'.repeat(300)}</p>` }), 'g').body).toHaveLength(150)
  })
})
