import { describe, expect, it } from 'vitest'
import { defaultNotifySettings as s, notificationText, notifyFor } from './notify'
import type { Message, Subscription } from './types'
import notifyCases from '../../../backend/domain/testdata/notify_cases.json?raw'

const sub = { stream_id: 1, name: 'general', color: '', is_muted: false, description: '', invite_only: false }
const m = (over: Partial<Message>): Message => ({ id: 1, sender_id: 2, sender_email: 'b@x', sender_full_name: 'Bob', content: '<p>Hi <strong>all</strong> &amp; you</p>',
  subject: 'lunch', type: 'stream', stream_id: 1, display_recipient: 'general', timestamp: 0, reactions: [], flags: [], ...over })
const dm = m({ type: 'private', stream_id: undefined, subject: '' })

// One table for this rule and the server's (backend/domain/notify_rule_test.go).
interface RuleCase {
  name: string; own?: boolean; private?: boolean; unsubscribed?: boolean; flags?: string[]
  sub?: Partial<Subscription>; settings?: Partial<typeof s>; muted?: boolean; followed?: boolean; sender_muted?: boolean; reading?: boolean
  want: { show: boolean; sound: boolean }
}
const cases: RuleCase[] = JSON.parse(notifyCases)

describe('notifyFor', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const msg = c.private ? { ...dm, flags: c.flags ?? [] } : m({ flags: c.flags ?? [] })
    const own = c.own ? { ...msg, sender_id: 7 } : msg
    const subscription = c.private || c.unsubscribed ? undefined : { ...sub, ...c.sub }
    expect(notifyFor(own, 7, { ...s, ...c.settings }, subscription, { muted: !!c.muted, followed: !!c.followed }, !!c.sender_muted, !!c.reading)).toEqual(c.want)
  })
})

describe('notificationText', () => {
  it('names the sender and the conversation, with the text of the message', () => {
    expect(notificationText(m({}), 'general')).toEqual({ title: 'Bob (#general › lunch)', body: 'Hi all & you' })
    expect(notificationText(m({ content: '<p>Hi <span class="user-mention">@Ann</span>?</p><p>Next</p>' }), 'g').body).toBe('Hi @Ann? Next')
    expect(notificationText(dm, '').title).toBe('Bob')
    expect(notificationText(m({ content: `<p>${'x'.repeat(300)}</p>` }), 'g').body).toHaveLength(150)
    expect(notificationText(dm, '', false)).toEqual({ title: 'Bob', body: 'New message' })
  })
})
