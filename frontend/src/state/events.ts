// The server's events as the UI reads them (Zulip's shapes), one type per
// event, so the reducer (Chat.apply) is checked against what it handles.
import type { PresenceClients, RealmEmoji, ScheduledMessage } from '../api/zulip'
import type { Message, ProfileField, Reaction, Subscription, User, UserStatus } from './types'
import type { Playground } from './rendered'

export type ServerEvent =
  | { type: 'heartbeat'; id?: number }
  | { type: 'message'; id?: number; message: Message; flags?: string[] }
  | { type: 'update_message'; id?: number; message_id: number; message_ids?: number[]; rendered_content?: string; orig_content?: string; edit_timestamp?: number;
      subject?: string; topic?: string; new_stream_id?: number; stream_id?: number; orig_subject?: string; propagate_mode?: string }
  | { type: 'delete_message'; id?: number; message_id?: number; message_ids?: number[] }
  | ({ type: 'reaction'; id?: number; op: 'add' | 'remove'; message_id: number; user?: { user_id: number } } & Omit<Reaction, 'user_id'> & { user_id?: number })
  | { type: 'submessage'; id?: number; message_id: number; submessage_id: number; sender_id: number; msg_type: string; content: string }
  | { type: 'update_message_flags'; id?: number; op: 'add' | 'remove'; flag: string; messages: number[]; all?: boolean }
  | { type: 'typing'; id?: number; op: 'start' | 'stop'; message_type: 'stream' | 'private' | 'direct'; sender: { user_id: number; email: string };
      stream_id?: number; topic?: string; recipients?: { user_id: number; email: string }[] }
  | { type: 'presence'; id?: number; email: string; presence: PresenceClients }
  | { type: 'subscription'; id?: number; op: 'add'; subscriptions: Subscription[] }
  | { type: 'subscription'; id?: number; op: 'remove'; subscriptions: { stream_id: number }[] }
  | { type: 'subscription'; id?: number; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; id?: number; op: 'peer_add' | 'peer_remove' }
  | { type: 'stream'; id?: number; op: 'delete'; streams: { stream_id: number }[] }
  | { type: 'stream'; id?: number; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'stream'; id?: number; op: 'create' }
  | { type: 'realm_user'; id?: number; op: 'add' | 'update' | 'remove'
      person: Partial<User> & { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } } }
  | { type: 'user_group'; id?: number; op: 'add'; group: { id: number; name: string; members?: number[]; direct_subgroup_ids?: number[] } }
  | { type: 'user_group'; id?: number; op: 'remove'; group_id: number }
  | { type: 'user_group'; id?: number; op: 'update'; group_id: number; data: { name?: string } }
  | { type: 'user_group'; id?: number; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; id?: number; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] }
  | { type: 'realm_emoji'; id?: number; realm_emoji: Record<string, RealmEmoji> }
  | { type: 'realm_playgrounds'; id?: number; realm_playgrounds: Playground[] }
  | { type: 'custom_profile_fields'; id?: number; fields: ProfileField[] }
  | { type: 'realm'; id?: number; op: 'update'; property: string; value: unknown }
  | { type: 'realm'; id?: number; op: 'update_dict'; data: { name?: string } }
  | { type: 'user_topic'; id?: number; stream_id: number; topic_name: string; visibility_policy: number }
  | { type: 'muted_users'; id?: number; muted_users: { id: number; timestamp: number }[] }
  | { type: 'user_settings'; id?: number; op: 'update'; property: string; value: unknown }
  | ({ type: 'user_status'; id?: number; user_id: number } & UserStatus)
  | { type: 'scheduled_messages'; id?: number; op: 'add'; scheduled_messages: ScheduledMessage[] }
  | { type: 'scheduled_messages'; id?: number; op: 'update'; scheduled_message: ScheduledMessage }
  | { type: 'scheduled_messages'; id?: number; op: 'remove'; scheduled_message_id: number }
