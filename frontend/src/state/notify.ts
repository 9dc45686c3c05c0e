// Which new messages raise a notification, as Zulip decides: direct messages,
// mentions (wildcards if the user wants them), alert words, followed topics
// and streams set to notify; never one's own messages, muted streams or
// topics, or the conversation on screen in a focused window. The server
// applies the same rule to phones (backend/domain/notify_rule.go); both are
// tested against one table (backend/domain/testdata/notify_cases.json).
import type { Message, Subscription } from './types'

export interface NotifySettings {
  enable_desktop_notifications: boolean // direct messages and mentions
  enable_sounds: boolean
  enable_stream_desktop_notifications: boolean
  enable_stream_audible_notifications: boolean
  wildcard_mentions_notify: boolean
  enable_followed_topic_desktop_notifications: boolean
  enable_followed_topic_audible_notifications: boolean
  enable_followed_topic_wildcard_mentions_notify: boolean
  pm_content_in_desktop_notifications: boolean // the text of the message in the notification
}

export const defaultNotifySettings: NotifySettings = {
  enable_desktop_notifications: true, enable_sounds: true, enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false, wildcard_mentions_notify: true,
  enable_followed_topic_desktop_notifications: true, enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true, pm_content_in_desktop_notifications: true,
}

export interface Decision { show: boolean; sound: boolean }

// TopicState is the message's topic as the person set it: muted (or in a
// muted stream) or followed.
export interface TopicState { muted: boolean; followed: boolean }

const wildcardFlags = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned']

export function notifyFor(m: Message, myId: number, s: NotifySettings, sub: Subscription | undefined,
  topic: TopicState, senderMuted: boolean, reading: boolean): Decision {
  const none = { show: false, sound: false }
  if (m.sender_id === myId || senderMuted || reading) return none
  const personal = m.type === 'private' || m.flags.includes('mentioned') || m.flags.includes('has_alert_word')
  if (m.type === 'stream' && (topic.muted || !sub)) return none
  const wildcard = m.flags.some((f) => wildcardFlags.includes(f)) &&
    ((sub?.wildcard_mentions_notify ?? s.wildcard_mentions_notify) || (topic.followed && s.enable_followed_topic_wildcard_mentions_notify))
  if (personal || wildcard) return { show: s.enable_desktop_notifications, sound: s.enable_sounds }
  return {
    show: (sub?.desktop_notifications ?? s.enable_stream_desktop_notifications) || (topic.followed && s.enable_followed_topic_desktop_notifications),
    sound: (sub?.audible_notifications ?? s.enable_stream_audible_notifications) || (topic.followed && s.enable_followed_topic_audible_notifications),
  }
}

// notificationText is the notification's title and plain-text body (or
// only that there is a message, when the person hides the text).
export function notificationText(m: Message, streamName: string, showContent = true): { title: string; body: string } {
  const title = m.type === 'stream' ? `${m.sender_full_name} (#${streamName} › ${m.subject})` : m.sender_full_name
  if (!showContent) return { title, body: 'New message' }
  const body = m.content.replace(/<\/(p|div|li|h\d|pre|blockquote|tr|td|th)>|<br\s*\/?>/g, ' ').replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ').trim()
  return { title, body: body.length > 150 ? body.slice(0, 149) + '…' : body }
}
