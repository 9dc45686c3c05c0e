// Every call the UI makes to the server, typed with the shapes of Zulip's
// answers, so a component cannot get a path, a parameter or a field wrong:
// the organization, messages (sending with a local ID, scheduling, read
// receipts), topic workflows (resolve, read, follow), streams and people.
// Components call these; only this module (and session.ts, for signing in)
// speaks to transport.ts.
import { api, upload, uploadBody } from './transport'
import type { Message, NarrowTerm, ProfileField, Subscription, User, UserStatus } from '../state/types'
import type { Playground } from '../state/rendered'

// ---- shapes ----

export interface RealmEmoji { name: string; source_url: string; deactivated: boolean }
export interface UserGroup { id: number; name: string; members?: number[]; direct_subgroup_ids?: number[]; is_system_group?: boolean }
export interface UserTopic { stream_id: number; topic_name: string; visibility_policy: number }
export interface PresenceClient { status: 'active' | 'idle'; timestamp: number }
// PresenceClients is one person's presence: by client name, plus (in
// Zulip's answers) an "aggregated" entry.
export type PresenceClients = Record<string, PresenceClient>
export type Presences = Record<string, PresenceClients>
export interface UnreadMsgs {
  streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[]
  pms?: { other_user_id: number; unread_message_ids: number[] }[]
  huddles?: { user_ids_string: string; unread_message_ids: number[] }[]
  mentions?: number[]
}

// RegisterState is the part of register's answer the UI reads.
export interface RegisterState {
  queue_id: string; last_event_id: number
  user_id: number; email: string; full_name: string; is_admin?: boolean
  realm_name?: string
  realm_users: User[]; realm_non_active_users?: User[]
  subscriptions: Subscription[]
  user_topics?: UserTopic[]
  unread_msgs: UnreadMsgs
  recent_private_conversations?: { user_ids: number[]; max_message_id: number }[]
  realm_emoji?: Record<string, RealmEmoji>
  realm_playgrounds?: Playground[]
  realm_user_groups?: UserGroup[]
  custom_profile_fields?: ProfileField[]
  user_settings?: Record<string, unknown>
  presences?: Presences
  user_status?: Record<string, UserStatus>
  scheduled_messages?: ScheduledMessage[]
  realm_enable_read_receipts?: boolean
  realm_enable_guest_user_dm_warning?: boolean
  muted_users?: { id: number; timestamp: number }[]
  realm_can_create_public_channel_group?: GroupSettingValue
  realm_can_create_private_channel_group?: GroupSettingValue
  realm_create_multiuse_invite_group?: GroupSettingValue
  realm_direct_message_initiator_group?: GroupSettingValue
  realm_direct_message_permission_group?: GroupSettingValue
  realm_can_access_all_users_group?: GroupSettingValue
  realm_can_delete_any_message_group?: GroupSettingValue
  realm_can_delete_own_message_group?: GroupSettingValue
}

// GroupSettingValue is a group-based permission: a group's ID, or people and
// groups named directly (Zulip 9.0).
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] }

export interface MessagesPage { messages: Message[]; found_oldest: boolean; found_newest: boolean }
export interface Topic { name: string; max_id: number }
export interface Stream { stream_id: number; name: string; description: string; invite_only: boolean }
export interface Linkifier { id: number; pattern: string; url_template: string }
export interface Bot { user_id: number; full_name: string; email: string; api_key?: string; is_active?: boolean }
export interface ServerSettings { realm_name: string; realm_description?: string }
// ImportStatus is GET /api/v1/realm/import's "import" (domain.ImportStatus).
export interface ImportStatus {
  state: 'none' | 'running' | 'done' | 'failed'
  format?: string; phase?: string; records: number; bytes: number; total_bytes: number; remaining_seconds: number
  summary?: { users: number; streams: number; messages: number; reactions: number; files: number; emoji: number
    user_groups: number; linkifiers: number; skipped: { record: string; reason: string }[]
    changed: { record: string; change: string }[] }
  error?: string
}

// PageQuery asks for one page of a narrow's messages around an anchor.
export interface PageQuery { anchor: number | 'newest' | 'oldest' | 'first_unread'; num_before: number; num_after: number; include_anchor?: boolean; narrow: NarrowTerm[] }

// OutgoingMessage is a message as compose and the outbox hand it to the
// server: a stream name and topic, or recipients' emails.
export interface OutgoingMessage { kind: 'stream' | 'pm'; stream: string; topic: string; to: string[]; content: string }

export interface ScheduledMessage {
  scheduled_message_id: number; type: 'stream' | 'private'; to: number | number[]; topic?: string
  content: string; rendered_content: string; scheduled_delivery_timestamp: number; failed: boolean
}

// StatusChange is what POST /users/me/status sets (absent fields stay).
export interface StatusChange { status_text?: string; away?: boolean; emoji_name?: string }

export type TypingTarget = { type: 'stream'; stream_id: number; topic: string } | { type: 'direct'; to: number[] }
export type PropagateMode = 'change_one' | 'change_later' | 'change_all'

// ---- the organization and the session ----

export const serverSettings = (): Promise<ServerSettings> => api.get('/api/v1/server_settings') as Promise<ServerSettings>
export const register = (): Promise<RegisterState> => api.post('/api/v1/register', {
  apply_markdown: true, client_gravatar: false, slim_presence: false,
  client_capabilities: { notification_settings_null: true },
}) as Promise<RegisterState>
export const reportPresence = (status: 'active' | 'idle'): Promise<{ presences?: Presences }> =>
  api.post('/api/v1/users/me/presence', { status, new_user_input: true })
// updateRealm is PATCH /realm: a name, a description or group settings
// (by ID, or as {new, old}).
export const updateRealm = (change: { name?: string; description?: string } & Record<string, unknown>) => api.patch('/api/v1/realm', change)

// ---- messages ----

export const fetchMessages = (q: PageQuery): Promise<MessagesPage> =>
  api.get('/api/v1/messages', { ...q, apply_markdown: true }) as Promise<MessagesPage>
// sendMessage sends with Zulip's queue_id and local_id: the server stores
// a send repeated with the same pair once, and answers with its ID.
export async function sendMessage(m: OutgoingMessage, queueId: string, localId: string): Promise<number> {
  const where = m.kind === 'stream' ? { type: 'stream', to: m.stream, topic: m.topic } : { type: 'private', to: m.to }
  const r = await api.post('/api/v1/messages', { ...where, content: m.content, queue_id: queueId, local_id: localId })
  return r.id
}
// messagesByID fetches the named messages in one request (newest of each
// conversation, for the rows of Recent conversations).
export async function messagesByID(ids: number[]): Promise<Message[]> {
  if (!ids.length) return []
  return (await api.get('/api/v1/messages', { message_ids: ids, apply_markdown: true }) as MessagesPage).messages
}
export const renderMessage = async (content: string): Promise<string> => (await api.post('/api/v1/messages/render', { content })).rendered
// rawContent is a message's markdown, for editing and quoting.
export const rawContent = async (id: number): Promise<string> => {
  const r = await api.get(`/api/v1/messages/${id}`, { apply_markdown: false })
  return r.raw_content ?? r.message?.content ?? ''
}
export const editMessage = (id: number, content: string) => api.patch(`/api/v1/messages/${id}`, { content })
export const moveMessages = (id: number, topic: string, mode: PropagateMode, streamId?: number) =>
  api.patch(`/api/v1/messages/${id}`, { topic, propagate_mode: mode, ...(streamId !== undefined ? { stream_id: streamId } : {}) })
export const deleteMessage = (id: number) => api.del(`/api/v1/messages/${id}`)
export const setFlag = (ids: number[], flag: 'read' | 'starred', on: boolean) =>
  api.post('/api/v1/messages/flags', { messages: ids, op: on ? 'add' : 'remove', flag })
export const setReaction = (id: number, emojiName: string, on: boolean) =>
  (on ? api.post : api.del)(`/api/v1/messages/${id}/reactions`, { emoji_name: emojiName })
export const sendSubmessage = (id: number, content: unknown) =>
  api.post('/api/v1/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(content) })
export const setTyping = (to: TypingTarget, op: 'start' | 'stop') => api.post('/api/v1/typing', { ...to, op })
export const readReceipts = async (messageId: number): Promise<number[]> => (await api.get(`/api/v1/messages/${messageId}/read_receipts`)).user_ids
export const uploadFile = async (file: File): Promise<string> => { const r = await upload('/api/v1/user_uploads', file); return r.url ?? r.uri }

// ---- scheduled messages ----

export async function scheduleMessage(m: OutgoingMessage, streamId: number | undefined, userIds: number[], at: number): Promise<number> {
  const where = m.kind === 'stream' ? { type: 'stream', to: streamId ?? m.stream, topic: m.topic } : { type: 'direct', to: userIds }
  const r = await api.post('/api/v1/scheduled_messages', { ...where, content: m.content, scheduled_delivery_timestamp: at })
  return r.scheduled_message_id
}
export const cancelScheduledMessage = (id: number) => api.del(`/api/v1/scheduled_messages/${id}`)
export const rescheduleMessage = (id: number, at: number) => api.patch(`/api/v1/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at })

// ---- topics: resolve, mark as read, follow or mute ----

export const resolvedPrefix = '✔ '

// Zulip's visibility policies of a topic (POST /user_topics).
export const TopicPolicy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const

// setTopicResolved renames the whole topic with or without the ✔ prefix,
// as Zulip's web app does; messageId is any message of the topic.
export function setTopicResolved(messageId: number, topic: string, resolved: boolean) {
  const bare = topic.startsWith(resolvedPrefix) ? topic.slice(resolvedPrefix.length) : topic
  return moveMessages(messageId, resolved ? resolvedPrefix + bare : bare, 'change_all')
}
export const markTopicAsRead = (streamId: number, topic: string) => api.post('/api/v1/mark_topic_as_read', { stream_id: streamId, topic_name: topic })
export const markStreamAsRead = (streamId: number) => api.post('/api/v1/mark_stream_as_read', { stream_id: streamId })
export const setTopicPolicy = (streamId: number, topic: string, policy: number) =>
  api.post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: policy })

// ---- streams and subscriptions ----

export const streams = async (): Promise<Stream[]> => (await api.get('/api/v1/streams')).streams
// streamSubscribers are a stream's subscribers' IDs (Zulip 9.0 has no
// subscriber_count in stream objects).
export const streamSubscribers = async (streamId: number): Promise<number[]> => (await api.get(`/api/v1/streams/${streamId}/members`)).subscribers
export const streamId = async (name: string): Promise<number> => (await api.get('/api/v1/get_stream_id', { stream: name })).stream_id
export const topics = async (streamId: number): Promise<Topic[]> => (await api.get(`/api/v1/users/me/${streamId}/topics`)).topics
export const subscribe = (subscriptions: { name: string; description?: string }[], options: { invite_only?: boolean; principals?: string[] } = {}) =>
  api.post('/api/v1/users/me/subscriptions', { subscriptions, ...options })
export const unsubscribe = (name: string) => api.del('/api/v1/users/me/subscriptions', { subscriptions: [name] })
export const setSubscriptionProperty = (streamId: number, property: string, value: unknown) =>
  api.post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] })
export const muteTopic = (streamId: number, topic: string, muted: boolean) =>
  api.patch('/api/v1/users/me/subscriptions/muted_topics', { stream_id: streamId, topic, op: muted ? 'add' : 'remove' })
export const updateStream = (streamId: number, change: Record<string, unknown>) => api.patch(`/api/v1/streams/${streamId}`, change)
export const archiveStream = (streamId: number) => api.del(`/api/v1/streams/${streamId}`)

// ---- people and settings ----

export const setOwnStatus = (s: StatusChange) => api.post('/api/v1/users/me/status', s)
export const updateSettings = (change: Record<string, unknown>) => api.patch('/api/v1/settings', change)
export const uploadAvatar = (file: File) => upload('/api/v1/users/me/avatar', file)
export const resetAvatar = () => api.del('/api/v1/users/me/avatar')
export const createUser = (form: { full_name: string; email: string; password: string }) => api.post('/api/v1/users', form)
export const setRole = (userId: number, role: number) => api.patch(`/api/v1/users/${userId}`, { role })
export const issuePassword = async (userId: number): Promise<string> => (await api.post(`/api/v1/users/${userId}/password`)).password
export const reactivateUser = (userId: number) => api.post(`/api/v1/users/${userId}/reactivate`)
export const deactivateUser = (userId: number) => api.del(`/api/v1/users/${userId}`)
export const bots = async (): Promise<Bot[]> => (await api.get('/api/v1/bots')).bots
export const createBot = (fullName: string, shortName: string) => api.post('/api/v1/bots', { full_name: fullName, short_name: shortName })
export const regenerateBotKey = (userId: number) => api.post(`/api/v1/bots/${userId}/api_key/regenerate`)
export const deactivateBot = (userId: number) => api.del(`/api/v1/bots/${userId}`)

// ---- the organization's emoji, linkifiers and imports ----

export const addRealmEmoji = (name: string, file: File) => upload(`/api/v1/realm/emoji/${encodeURIComponent(name)}`, file)
export const removeRealmEmoji = (name: string) => api.del(`/api/v1/realm/emoji/${encodeURIComponent(name)}`)
export const linkifiers = async (): Promise<Linkifier[]> => (await api.get('/api/v1/realm/linkifiers')).linkifiers
export const addLinkifier = (pattern: string, urlTemplate: string) => api.post('/api/v1/realm/filters', { pattern, url_template: urlTemplate })
export const removeLinkifier = (id: number) => api.del(`/api/v1/realm/filters/${id}`)
// ---- custom profile fields ----

// ProfileFieldForm is what POST and PATCH /realm/profile_fields take.
export type ProfileFieldForm = { name?: string; hint?: string; field_type?: number; field_data?: Record<string, unknown>; required?: boolean; display_in_profile_summary?: boolean; editable_by_user?: boolean }
export const addProfileField = (f: ProfileFieldForm) => api.post('/api/v1/realm/profile_fields', f)
export const updateProfileField = (id: number, f: ProfileFieldForm) => api.patch(`/api/v1/realm/profile_fields/${id}`, f)
export const removeProfileField = (id: number) => api.del(`/api/v1/realm/profile_fields/${id}`)
export const reorderProfileFields = (order: number[]) => api.patch('/api/v1/realm/profile_fields', { order })
// setProfileData saves one's values (a string, or user IDs for a person
// field); clearProfileData removes them.
export const setProfileData = (data: { id: number; value: string | number[] }[]) => api.patch('/api/v1/users/me/profile_data', { data })
export const clearProfileData = (ids: number[]) => api.del('/api/v1/users/me/profile_data', { data: ids })
export const importStatus = async (): Promise<ImportStatus> => (await api.get('/api/v1/realm/import')).import
export const startImport = async (format: string, file: File): Promise<ImportStatus> =>
  (await uploadBody(`/api/v1/realm/import?format=${format}`, file)).import
