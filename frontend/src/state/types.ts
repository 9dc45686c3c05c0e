// The server's objects, as the UI uses them (Zulip's wire shapes).

export interface Reaction { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }

// Submessage is data a widget attached to a message (Zulip's submessages).
export interface Submessage { id: number; message_id: number; sender_id: number; msg_type: string; content: string }

// NarrowTerm is one term of the API's `narrow` parameter.
export interface NarrowTerm { operator: string; operand: string | number; negated?: boolean }

export interface PmRecipient { id: number; email: string; full_name: string }

export interface Message {
  id: number
  sender_id: number
  sender_email: string
  sender_full_name: string
  avatar_url?: string
  content: string
  subject: string
  type: 'stream' | 'private'
  stream_id?: number
  display_recipient: string | PmRecipient[]
  timestamp: number
  reactions: Reaction[]
  submessages?: Submessage[]
  flags: string[]
  last_edit_timestamp?: number
  last_moved_timestamp?: number
  // edit_history: newest first; an entry without prev_content only moved it.
  edit_history?: { timestamp: number; prev_content?: string; prev_topic?: string; prev_stream?: number }[]
  is_me_message?: boolean
  match_content?: string
  match_subject?: string
}

export interface User {
  user_id: number; email: string; full_name: string; is_bot: boolean; is_active?: boolean; avatar_url?: string; role?: number
  // profile_data: the person's custom profile field values by field ID.
  profile_data?: Record<string, ProfileValue>
}

// ProfileField is one of the organization's custom profile fields (Zulip's
// types: 1 short text, 2 long text, 3 list of options, 4 date, 5 link,
// 6 person, 7 external account, 8 pronouns).
export interface ProfileField {
  id: number; type: number; order: number; name: string; hint: string; field_data: string
  display_in_profile_summary?: boolean; required: boolean
}
// ProfileValue is a person's value for a field; rendered_value is its HTML
// for the text types.
export interface ProfileValue { value: string; rendered_value?: string }

export interface Subscription {
  stream_id: number; name: string; color: string; is_muted: boolean; description: string; invite_only: boolean; pin_to_top?: boolean
  // Notification settings of this stream; null inherits the user's.
  desktop_notifications?: boolean | null; audible_notifications?: boolean | null; wildcard_mentions_notify?: boolean | null
}

// UserStatus is a person's status as register's user_status and the
// user_status event give it (absent fields: none set).
export interface UserStatus { status_text?: string; away?: boolean; emoji_name?: string; emoji_code?: string; reaction_type?: string }

export type Presence = 'active' | 'idle' | 'offline'
