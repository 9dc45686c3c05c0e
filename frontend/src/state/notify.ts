// Which new messages raise a notification, as Zulip decides: direct messages,
// mentions (wildcards if the user wants them), alert words, and streams set
// to notify; never one's own messages, muted streams or topics, or a
// conversation the user is reading right now.
import type { Message, Subscription } from './types'

export interface NotifySettings {
  enable_desktop_notifications: boolean // direct messages and mentions
  enable_sounds: boolean
  enable_stream_desktop_notifications: boolean
  enable_stream_audible_notifications: boolean
  wildcard_mentions_notify: boolean
}

export const defaultNotifySettings: NotifySettings = {
  enable_desktop_notifications: true, enable_sounds: true, enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false, wildcard_mentions_notify: true,
}

export interface Decision { show: boolean; sound: boolean }

export function notifyFor(m: Message, myId: number, s: NotifySettings, sub: Subscription | undefined,
  muted: boolean, reading: boolean): Decision {
  const none = { show: false, sound: false }
  if (m.sender_id === myId || reading) return none
  const personal = m.type === 'private' || m.flags.includes('mentioned') || m.flags.includes('has_alert_word')
  if (m.type === 'stream' && (muted || !sub)) return none
  const wildcard = m.flags.includes('wildcard_mentioned') && (sub?.wildcard_mentions_notify ?? s.wildcard_mentions_notify)
  if (personal || wildcard) return { show: s.enable_desktop_notifications, sound: s.enable_sounds }
  return { show: sub?.desktop_notifications ?? s.enable_stream_desktop_notifications, sound: sub?.audible_notifications ?? s.enable_stream_audible_notifications }
}

// notificationText is the notification's title and plain-text body.
export function notificationText(m: Message, streamName: string): { title: string; body: string } {
  const title = m.type === 'stream' ? `${m.sender_full_name} (#${streamName} › ${m.subject})` : m.sender_full_name
  const body = m.content.replace(/<\/(p|div|li|h\d|pre|blockquote|tr|td|th)>|<br\s*\/?>/g, ' ').replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ').trim()
  return { title, body: body.length > 150 ? body.slice(0, 149) + '…' : body }
}
