// The server calls of Lanchat's Zulip workflows: topics (resolve, read,
// follow), sending with a local ID, scheduled messages, user status and
// read receipts. Components call these, not the transport.
import { api, type Json } from './transport'

export const resolvedPrefix = '✔ '

// Zulip's visibility policies of a topic (POST /user_topics).
export const TopicPolicy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const

// setTopicResolved renames the whole topic with or without the ✔ prefix,
// as Zulip's web app does; messageId is any message of the topic.
export function setTopicResolved(messageId: number, topic: string, resolved: boolean) {
  const bare = topic.startsWith(resolvedPrefix) ? topic.slice(resolvedPrefix.length) : topic
  return api.patch(`/api/v1/messages/${messageId}`, { topic: resolved ? resolvedPrefix + bare : bare, propagate_mode: 'change_all' })
}

export const markTopicAsRead = (streamId: number, topic: string) => api.post('/api/v1/mark_topic_as_read', { stream_id: streamId, topic_name: topic })
export const markStreamAsRead = (streamId: number) => api.post('/api/v1/mark_stream_as_read', { stream_id: streamId })

export const setTopicPolicy = (streamId: number, topic: string, policy: number) =>
  api.post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: policy })

// OutgoingMessage is a message as compose and the outbox hand it to the
// server: a stream name and topic, or recipients' emails.
export interface OutgoingMessage { kind: 'stream' | 'pm'; stream: string; topic: string; to: string[]; content: string }

// sendMessage sends with Zulip's queue_id and local_id: the server stores
// a send repeated with the same pair once, and answers with its ID.
export async function sendMessage(m: OutgoingMessage, queueId: string, localId: string): Promise<number> {
  const where = m.kind === 'stream' ? { type: 'stream', to: m.stream, topic: m.topic } : { type: 'private', to: m.to }
  const r = await api.post('/api/v1/messages', { ...where, content: m.content, queue_id: queueId, local_id: localId })
  return r.id
}

// messagesByID fetches the named messages in one request (newest of each
// conversation, for the rows of Recent conversations).
export async function messagesByID(ids: number[]): Promise<Json[]> {
  if (!ids.length) return []
  const r = await api.get('/api/v1/messages', { message_ids: ids, apply_markdown: true })
  return r.messages
}

export interface ScheduledMessage {
  scheduled_message_id: number; type: 'stream' | 'private'; to: number | number[]; topic?: string
  content: string; rendered_content: string; scheduled_delivery_timestamp: number; failed: boolean
}

export async function scheduleMessage(m: OutgoingMessage, streamId: number | undefined, userIds: number[], at: number): Promise<number> {
  const where = m.kind === 'stream' ? { type: 'stream', to: streamId ?? m.stream, topic: m.topic } : { type: 'direct', to: userIds }
  const r = await api.post('/api/v1/scheduled_messages', { ...where, content: m.content, scheduled_delivery_timestamp: at })
  return r.scheduled_message_id
}

export const cancelScheduledMessage = (id: number) => api.del(`/api/v1/scheduled_messages/${id}`)
export const rescheduleMessage = (id: number, at: number) => api.patch(`/api/v1/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at })

export interface StatusChange { status_text?: string; away?: boolean; emoji_name?: string }
export const setOwnStatus = (s: StatusChange) => api.post('/api/v1/users/me/status', s)

export async function readReceipts(messageId: number): Promise<number[]> {
  const r = await api.get(`/api/v1/messages/${messageId}/read_receipts`)
  return r.user_ids
}
