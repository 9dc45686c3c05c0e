// Recent conversations, Zulip's home view: every topic and direct
// conversation with activity the page knows of (the newest messages and
// every unread one), unread ones first, then the most recently active.
import { pmEmails, topicKey, type MuteState } from './conversation'
import type { Narrow } from './narrow'
import type { Unreads } from './unread'
import type { Message } from './types'

export interface Conversation {
  key: string
  narrow: Narrow
  lastId: number
  timestamp?: number
  unread: number
  senders: number[] // newest first
  muted: boolean
}

export interface RecentFilter { unreadOnly: boolean; kind: 'all' | 'streams' | 'dms'; includeMuted: boolean; text: string }

export function recentConversations(messages: Iterable<Message>, unreads: Unreads, mute: MuteState, myEmail: string,
  streamName: (id: number) => string): Conversation[] {
  const rows = new Map<string, Conversation>()
  const row = (key: string, narrow: Narrow, muted: boolean) => {
    let r = rows.get(key)
    if (!r) rows.set(key, r = { key, narrow, lastId: 0, unread: 0, senders: [], muted })
    return r
  }
  const streamRow = (streamId: number, topic: string) =>
    row(`s:${topicKey(streamId, topic)}`, { kind: 'stream', streamId, stream: streamName(streamId), topic },
      mute.mutedStreams.has(streamId) || mute.mutedTopics.has(topicKey(streamId, topic)))
  const pmRow = (emails: string) => row(`p:${emails}`, { kind: 'pm', emails: emails.split(',') }, false)
  for (const m of [...messages].sort((a, b) => b.id - a.id)) {
    const r = m.type === 'stream' ? streamRow(m.stream_id!, m.subject) : pmRow(pmEmails(m, myEmail).join(','))
    if (m.id > r.lastId) { r.lastId = m.id; r.timestamp = m.timestamp }
    if (!r.senders.includes(m.sender_id)) r.senders.push(m.sender_id)
  }
  for (const [id, p] of unreads.places) {
    const r = p.streamId !== undefined ? streamRow(p.streamId, p.topic ?? '') : pmRow(p.pm ?? '')
    r.unread++
    if (id > r.lastId) { r.lastId = id; r.timestamp = undefined }
  }
  return [...rows.values()].sort((a, b) => Number(b.unread > 0) - Number(a.unread > 0) || b.lastId - a.lastId)
}

export function filterConversations(rows: Conversation[], f: RecentFilter, label: (c: Conversation) => string): Conversation[] {
  const text = f.text.trim().toLowerCase()
  return rows.filter((c) => (!f.unreadOnly || c.unread > 0) && (f.includeMuted || !c.muted) &&
    (f.kind === 'all' || (f.kind === 'streams') === (c.narrow.kind === 'stream')) &&
    (!text || label(c).toLowerCase().includes(text)))
}
