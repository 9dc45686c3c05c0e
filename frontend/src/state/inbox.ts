// Inbox, Zulip's default view: the unread messages gathered by
// conversation. Direct conversations come first (newest first), then each
// stream (pinned first, then by name) with its topics (newest first).
// Muted streams and topics stay out, as in Zulip.
import { topicKey, type MuteState } from './conversation'
import type { Unreads } from './unread'
import type { Subscription } from './types'

export interface InboxTopic { topic: string; count: number; newest: number; mentioned: boolean; followed: boolean }
export interface InboxStream { streamId: number; name: string; color: string; inviteOnly: boolean; count: number; topics: InboxTopic[] }
export interface InboxDM { emails: string; count: number; newest: number }

export function inboxGroups(unreads: Unreads, mute: MuteState & { followedTopics?: Set<string> }, filter: string,
  nameOf: (email: string) => string, sub: (id: number) => Subscription | undefined): { dms: InboxDM[]; streams: InboxStream[] } {
  const words = filter.trim().toLowerCase()
  const dms = new Map<string, InboxDM>()
  const streams = new Map<number, Map<string, InboxTopic>>()
  for (const [id, p] of unreads.places) {
    if (p.pm !== undefined) {
      const d = dms.get(p.pm) ?? { emails: p.pm, count: 0, newest: 0 }
      d.count++
      d.newest = Math.max(d.newest, id)
      dms.set(p.pm, d)
      continue
    }
    const streamId = p.streamId ?? 0
    const topic = p.topic ?? ''
    if (mute.mutedStreams.has(streamId) || mute.mutedTopics.has(topicKey(streamId, topic))) continue
    const topics = streams.get(streamId) ?? new Map<string, InboxTopic>()
    const key = topic.toLowerCase()
    const t = topics.get(key) ?? { topic, count: 0, newest: 0, mentioned: false, followed: !!mute.followedTopics?.has(topicKey(streamId, topic)) }
    t.count++
    t.newest = Math.max(t.newest, id)
    t.mentioned ||= p.mentioned
    topics.set(key, t)
    streams.set(streamId, topics)
  }
  const dmList = [...dms.values()].filter((d) => !words || d.emails.split(',').map(nameOf).join(', ').toLowerCase().includes(words))
    .sort((a, b) => b.newest - a.newest)
  const streamList: InboxStream[] = []
  for (const [streamId, topics] of streams) {
    const s = sub(streamId)
    const name = s?.name ?? String(streamId)
    const list = [...topics.values()].filter((t) => !words || `${name} ${t.topic}`.toLowerCase().includes(words)).sort((a, b) => b.newest - a.newest)
    if (!list.length) continue
    streamList.push({ streamId, name, color: s?.color ?? '#c2c2c2', inviteOnly: !!s?.invite_only, count: list.reduce((n, t) => n + t.count, 0), topics: list })
  }
  const pinned = (x: InboxStream) => (sub(x.streamId)?.pin_to_top ? 0 : 1)
  streamList.sort((a, b) => pinned(a) - pinned(b) || a.name.localeCompare(b.name))
  return { dms: dmList, streams: streamList }
}
