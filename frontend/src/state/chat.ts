// The chat state of one signed-in user: the register snapshot, kept current
// by the event stream, plus the messages of the current narrow. Components
// read it directly and re-render on change().
import type { Json } from '../api/transport'
import * as zulip from '../api/zulip'
import { backoff, EventStream } from '../api/events'
import { pmEmails, topicKey, type MuteState } from './conversation'
import { explain } from './errors'
import { matchesLocally, narrowToApi, sameNarrow, type Narrow } from './narrow'
import { personResolver } from './search'
import type { ServerEvent } from './events'
import type { Playground } from './rendered'
import { defaultNotifySettings, notifyFor, type Decision, type NotifySettings, type TopicState } from './notify'
import { placeOf, Unreads } from './unread'
import type { Message, Presence, ProfileField, Subscription, User, UserStatus } from './types'

const pageSize = 50
const recentPageSize = 400
const offlineAfterSeconds = 140
const typingExpiryMs = 15000
const hourCycleKey = 'lanchat.hourCycle'

export interface View { narrow: Narrow; ids: number[]; foundOldest: boolean; foundNewest: boolean; loading: boolean; error: string; near?: number }

// realmGroupSettings are the organization's group-based permissions (Zulip 9.0).
export const realmGroupSettings = ['can_create_public_channel_group', 'can_create_private_channel_group', 'create_multiuse_invite_group',
  'direct_message_initiator_group', 'direct_message_permission_group', 'can_access_all_users_group',
  'can_delete_any_message_group', 'can_delete_own_message_group'] as const

export class Chat {
  me!: User
  isAdmin = false
  // Zulip's policy codes: 1 members, 2 administrators, 3 full members, 4 moderators, 5 everyone.
  realmName = 'Lanchat'
  users = new Map<number, User>()
  byEmail = new Map<string, User>()
  subs = new Map<number, Subscription>()
  mutedTopics = new Set<string>()
  statuses = new Map<number, UserStatus>() // people's status (emoji, text, away)
  scheduled: zulip.ScheduledMessage[] = [] // my scheduled messages, soonest first
  readReceiptsEnabled = false
  // guestDMWarning: the organization warns those writing to a guest (level 348).
  guestDMWarning = true
  // queueId is this page's event queue: sends name it (with a local ID) so
  // the server can tell a repeated send from a new one.
  queueId = ''
  // topicPolicies are the person's topic settings (Zulip's visibility
  // policies: 1 muted, 2 unmuted, 3 followed) by topicKey.
  topicPolicies = new Map<string, number>()
  mutedUsers = new Set<number>() // IDs of the people and bots I muted
  // followedTopics is the topicKey of each topic I follow.
  get followedTopics(): Set<string> {
    return new Set([...this.topicPolicies].filter(([, p]) => p === zulip.TopicPolicy.followed).map(([key]) => key))
  }
  unreads = new Unreads()
  presence = new Map<string, { status: Presence; ts: number }>()
  typing = new Map<string, Map<number, number>>() // conversation → user → expiry
  realmEmoji: Record<string, zulip.RealmEmoji> = {}
  playgrounds: Playground[] = []
  profileFields: ProfileField[] = [] // the organization's custom profile fields, in their order
  userSettings: Json = {} // the account's user_settings (theme, notification defaults)
  // Message times in 24 hours (Zulip's twenty_four_hour_time): as this
  // browser last heard it until register answers, so messages drawn before
  // that keep their times' form.
  twentyFourHour = globalThis.localStorage?.getItem(hourCycleKey) === '24'
  messages = new Map<number, Message>()
  topics = new Map<number, { name: string; max_id: number }[]>()
  // recentDMs: direct conversations (their other participants' emails, sorted
  // and joined) → their newest message ID, from register and live messages.
  recentDMs = new Map<string, number>()
  notifySettings: NotifySettings = { ...defaultNotifySettings }
  // onArrival hears each new message once it is in the state (notifications).
  onArrival: ((m: Message) => void) | null = null
  // onTopicMoved hears where the open topic went when a move emptied it, so
  // the page follows it there, as Zulip does.
  onTopicMoved: ((to: Narrow) => void) | null = null
  // groups: each user group's name, for mention completion, and its direct
  // members and subgroups, to know which group mentions are of me.
  groups = new Map<number, { name: string; members: number[]; subgroups: number[] }>()
  // systemGroups: Zulip's role-based groups by ID (role:members, ...).
  systemGroups = new Map<number, string>()
  // groupSettings: the organization's group-based permissions (register's
  // realm_<setting>), a group ID or {direct_members, direct_subgroups}.
  groupSettings: Record<string, unknown> = {}
  view: View = { narrow: { kind: 'all' }, ids: [], foundOldest: false, foundNewest: false, loading: false, error: '' }
  connected = true
  private stream: EventStream | null = null
  private closed = false // by close(): nothing registers again
  private listeners = new Set<() => void>()
  private pendingRead = new Set<number>()
  // Live messages for the view that arrive while a page of it is loading:
  // the page was asked for before they existed.
  private arrivedWhileLoading: number[] = []
  private readTimer: ReturnType<typeof setTimeout> | null = null
  // readingPaused: messages were marked unread in this view (markUnreadFrom).
  private readingPaused = false

  // version counts changes, so a view can tell whether one came since it drew.
  version = 0
  onChange(f: () => void) { this.listeners.add(f); return () => this.listeners.delete(f) }
  changed() { this.version++; for (const f of this.listeners) f() }

  get mute(): MuteState {
    const mutedStreams = new Set<number>()
    for (const s of this.subs.values()) if (s.is_muted) mutedStreams.add(s.stream_id)
    return { mutedStreams, mutedTopics: this.mutedTopics }
  }

  emailsOf = (ids: number[]) => ids.filter((id) => id !== this.me?.user_id).map((id) => this.users.get(id)?.email ?? String(id)).sort().join(',')

  async register() {
    const s = await zulip.register()
    this.users.clear()
    this.byEmail.clear()
    for (const u of [...s.realm_users, ...(s.realm_non_active_users ?? [])]) this.putUser(u)
    this.me = this.users.get(s.user_id) ?? { user_id: s.user_id, email: s.email, full_name: s.full_name, is_bot: false }
    this.isAdmin = !!s.is_admin
    this.realmName = s.realm_name ?? 'Lanchat'
    this.subs = new Map(s.subscriptions.map((x: Subscription) => [x.stream_id, x]))
    this.mutedTopics = new Set((s.user_topics ?? []).filter((t) => t.visibility_policy === zulip.TopicPolicy.muted).map((t) => topicKey(t.stream_id, t.topic_name)))
    this.statuses = new Map(Object.entries(s.user_status ?? {}).map(([id, st]) => [Number(id), st as UserStatus]))
    this.scheduled = s.scheduled_messages ?? []
    this.readReceiptsEnabled = !!s.realm_enable_read_receipts
    this.guestDMWarning = s.realm_enable_guest_user_dm_warning ?? true
    this.queueId = s.queue_id
    this.mutedUsers = new Set((s.muted_users ?? []).map((u) => u.id))
    this.topicPolicies = new Map((s.user_topics ?? []).map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy]))
    this.unreads = Unreads.fromRegister(s.unread_msgs, this.emailsOf)
    this.recentDMs = new Map((s.recent_private_conversations ?? []).map((c) => [this.emailsOf(c.user_ids) || this.me.email, c.max_message_id]))
    this.realmEmoji = s.realm_emoji ?? {}
    this.playgrounds = s.realm_playgrounds ?? []
    this.profileFields = s.custom_profile_fields ?? []
    this.groups = new Map((s.realm_user_groups ?? []).map((g) => [g.id, { name: g.name, members: g.members ?? [], subgroups: g.direct_subgroup_ids ?? [] }]))
    this.systemGroups = new Map((s.realm_user_groups ?? []).filter((g) => g.is_system_group).map((g) => [g.id, g.name]))
    this.groupSettings = Object.fromEntries(realmGroupSettings.map((name) => [name, s[`realm_${name}`]]))
    for (const key of Object.keys(defaultNotifySettings) as (keyof NotifySettings)[]) {
      if (typeof s.user_settings?.[key] === 'boolean') this.notifySettings[key] = s.user_settings[key]
    }
    this.userSettings = s.user_settings ?? {}
    this.setTwentyFourHour(this.userSettings.twenty_four_hour_time === true)
    this.presence.clear()
    for (const [email, p] of Object.entries(s.presences ?? {})) this.setPresence(email, p)
    this.stream?.stop()
    this.stream = new EventStream(s.queue_id, s.last_event_id, {
      onEvents: (evs) => { for (const e of evs) this.apply(e as ServerEvent); this.changed() },
      onQueueLost: () => this.registerAgain(),
      onConnection: (up) => {
        if (up === this.connected) return
        this.connected = up
        // A view whose first page failed while the server was away loads
        // again once it is back: its new messages draw only on a loaded view.
        if (up && this.view.error && !this.view.ids.length) this.load(this.view.narrow, this.view.near)
        this.changed()
      },
    })
    this.stream.start()
    this.changed()
  }

  private setTwentyFourHour(on: boolean) {
    this.twentyFourHour = on
    globalThis.localStorage?.setItem(hourCycleKey, on ? '24' : '12')
  }

  close() { this.closed = true; this.stream?.stop(); this.stream = null }

  // registerAgain replaces a queue the server forgot (a restart, an import
  // swapping the organization), trying again while the server cannot
  // answer: one failed register used to leave the page without live events.
  async registerAgain(attempt = 0): Promise<void> {
    if (this.closed) return
    try {
      await this.register()
    } catch {
      if (this.connected) { this.connected = false; this.changed() }
      await backoff(attempt)
      return this.registerAgain(attempt + 1)
    }
    await this.load(this.view.narrow)
  }

  putUser(u: User) {
    this.users.set(u.user_id, u)
    this.byEmail.set(u.email, u)
  }

  private setPresence(email: string, clients: zulip.PresenceClients) {
    let newest = { status: 'offline' as Presence, ts: 0 }
    for (const [name, c] of Object.entries(clients)) {
      if (name === 'aggregated') continue
      if (c.timestamp > newest.ts || (c.timestamp === newest.ts && c.status === 'active')) newest = { status: c.status, ts: c.timestamp }
    }
    const prev = this.presence.get(email)
    if (!prev || newest.ts >= prev.ts) this.presence.set(email, newest)
  }

  presenceOf(email: string): Presence {
    const p = this.presence.get(email)
    if (!p || Date.now() / 1000 - p.ts > offlineAfterSeconds) return 'offline'
    return p.status
  }

  // ---- the message list ----

  // loadRecent fetches the newest messages everywhere, for Recent
  // conversations, then in one more request the newest message of each
  // conversation known only by its unread IDs or register's recent direct
  // conversations, so that every row has its time and a participant.
  async loadRecent() {
    const r = await zulip.fetchMessages({ anchor: 'newest', num_before: recentPageSize, num_after: 0, narrow: [] })
    this.remember(r.messages)
    const newest = new Map<string, number>()
    for (const [id, p] of this.unreads.places) {
      const key = p.pm ?? topicKey(p.streamId ?? 0, p.topic ?? '')
      newest.set(key, Math.max(id, newest.get(key) ?? 0))
    }
    for (const [emails, id] of this.recentDMs) newest.set(emails, Math.max(id, newest.get(emails) ?? 0))
    const missing = [...newest.values()].filter((id) => !this.messages.has(id))
    this.remember(await zulip.messagesByID(missing))
    this.changed()
  }

  // apiNarrow is the narrow as the API takes it; a search's typed names become emails.
  apiNarrow(narrow: Narrow) {
    if (narrow.kind !== 'search') return narrowToApi(narrow) // only a search names people
    return narrowToApi(narrow, personResolver(this.me.email, [...this.users.values()].filter((u) => u.is_active !== false)))
  }

  // load opens a narrow at a message (a link's `near`), else at the first
  // unread message, else at the newest.
  async load(narrow: Narrow, near?: number) {
    const anchor = near ?? (narrow.kind === 'search' || narrow.kind === 'starred' ? 'newest' : 'first_unread')
    this.view = { narrow, ids: [], foundOldest: false, foundNewest: false, loading: true, error: '', near }
    this.readingPaused = false
    this.arrivedWhileLoading = []
    this.changed()
    await this.page(narrow, { anchor, num_before: pageSize, num_after: pageSize },
      (ids, r) => ({ ids, foundOldest: r.found_oldest, foundNewest: r.found_newest }))
  }

  async loadOlder() {
    const v = this.view
    if (v.loading || v.foundOldest || !v.ids.length) return
    this.view = { ...v, loading: true }
    this.changed()
    await this.page(v.narrow, { anchor: v.ids[0], num_before: pageSize, num_after: 0, include_anchor: false },
      (ids, r) => ({ ids: [...ids, ...this.view.ids], foundOldest: r.found_oldest }))
  }

  async loadNewer() {
    const v = this.view
    if (v.loading || v.foundNewest || !v.ids.length) return
    this.view = { ...v, loading: true }
    await this.page(v.narrow, { anchor: v.ids[v.ids.length - 1], num_before: 0, num_after: pageSize, include_anchor: false },
      (ids, r) => ({ ids: [...this.view.ids, ...ids.filter((id) => !this.view.ids.includes(id))], foundNewest: r.found_newest }))
  }

  // page fetches one page of the narrow and merges it into the view, unless
  // the reader has moved to another narrow meanwhile.
  private async page(narrow: Narrow, params: Omit<zulip.PageQuery, 'narrow'>, merge: (ids: number[], r: zulip.MessagesPage) => Partial<View>) {
    try {
      const r = await zulip.fetchMessages({ ...params, narrow: this.apiNarrow(narrow) })
      if (!sameNarrow(this.view.narrow, narrow)) return
      this.view = { ...this.view, ...merge(this.remember(r.messages), r), loading: false }
      const late = this.arrivedWhileLoading.filter((id) => !this.view.ids.includes(id))
      this.arrivedWhileLoading = []
      if (this.view.foundNewest && late.length) this.view = { ...this.view, ids: [...this.view.ids, ...late].sort((a, b) => a - b) }
    } catch (e) {
      if (!sameNarrow(this.view.narrow, narrow)) return
      this.view = { ...this.view, loading: false, error: explain(e) }
    }
    this.changed()
  }

  private remember(list: Message[]): number[] {
    for (const m of list) this.messages.set(m.id, m)
    return list.map((m) => m.id)
  }

  // subByName finds a subscribed stream by name, ignoring case and spaces around it, as the server does.
  subByName(name: string): Subscription | undefined {
    const wanted = name.trim().toLowerCase()
    return [...this.subs.values()].find((s) => s.name.toLowerCase() === wanted)
  }

  // mayDelete says whether the organization's group settings let me delete m.
  mayDelete(m: Message): boolean {
    return this.holds('can_delete_any_message_group') || (m.sender_id === this.me.user_id && this.holds('can_delete_own_message_group'))
  }

  // holds: does an organization group setting include me?
  holds(name: (typeof realmGroupSettings)[number]): boolean {
    const v = this.groupSettings[name] as zulip.GroupSettingValue | undefined
    if (typeof v === 'number') return this.inGroup(v)
    return !!v && (v.direct_members.includes(this.me.user_id) || v.direct_subgroups.some((id) => this.inGroup(id)))
  }

  // enterSends: whether Enter sends in the compose box (the account's
  // enter_sends; on unless turned off).
  get enterSends(): boolean {
    return this.userSettings.enter_sends !== false
  }

  // nameOf is a person's name, their address standing for someone not (or
  // no longer) known; namesOf names the people of a direct message
  // conversation.
  nameOf(email: string): string {
    return this.byEmail.get(email)?.full_name ?? email
  }

  namesOf(emails: string[]): string {
    return emails.map((e) => this.nameOf(e)).join(', ')
  }

  // narrowOf is the conversation a message belongs to.
  narrowOf(m: Message): Narrow {
    if (m.type === 'stream') {
      const name = this.subs.get(m.stream_id!)?.name ?? String(m.display_recipient)
      return { kind: 'stream', streamId: m.stream_id!, stream: name, topic: m.subject }
    }
    return { kind: 'pm', emails: pmEmails(m, this.me.email) }
  }

  visibleMessages(): Message[] {
    return this.view.ids.map((id) => this.messages.get(id)).filter((m): m is Message => !!m)
  }

  async loadTopics(streamId: number) {
    this.topics.set(streamId, await zulip.topics(streamId))
    this.changed()
  }

  // ---- reading ----

  // seen queues a visible unread message to be marked read, in batches.
  // Search results do not count as reading, as in Zulip.
  seen(id: number) {
    if (this.view.narrow.kind === 'search' || this.readingPaused) return
    if (!this.unreads.has(id) || this.pendingRead.has(id)) return
    this.pendingRead.add(id)
    this.readTimer ??= setTimeout(() => this.flushRead(), 300)
  }

  // markUnreadFrom marks unread the others' messages of the view from id on.
  // As in Zulip, the view then stops marking what it shows as read until
  // another view opens: the messages are still on screen, and marking them
  // read again at once undid the person's choice.
  async markUnreadFrom(id: number) {
    const ids = this.view.ids.filter((m) => m >= id && this.messages.get(m)?.sender_id !== this.me.user_id)
    if (!ids.length) return
    this.readingPaused = true
    for (const m of ids) this.pendingRead.delete(m)
    await zulip.setFlag(ids, 'read', false)
  }

  private async flushRead() {
    this.readTimer = null
    const ids = [...this.pendingRead]
    this.pendingRead.clear()
    if (!ids.length) return
    for (const id of ids) this.unreads.remove(id)
    this.changed()
    await zulip.setFlag(ids, 'read', true).catch(() => {})
  }

  // ---- events ----

  // apply is the one reducer of server events into this state.
  apply(e: ServerEvent) {
    switch (e.type) {
      case 'message': return this.onMessage({ ...e.message, flags: e.flags ?? [] })
      case 'update_message': return this.onUpdate(e)
      case 'delete_message': {
        const ids = e.message_ids ?? (e.message_id !== undefined ? [e.message_id] : [])
        for (const id of ids) { this.messages.delete(id); this.unreads.remove(id) }
        this.view = { ...this.view, ids: this.view.ids.filter((id) => !ids.includes(id)) }
        return
      }
      case 'reaction': {
        const m = this.messages.get(e.message_id)
        if (!m) return
        const userId = e.user_id ?? e.user?.user_id ?? 0
        if (e.op === 'add') m.reactions = [...m.reactions, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: userId }]
        else m.reactions = m.reactions.filter((r) => !(r.emoji_code === e.emoji_code && r.user_id === userId))
        return
      }
      case 'submessage': {
        const m = this.messages.get(e.message_id)
        // An event may come twice (a queue replayed): each submessage counts once.
        if (!m || m.submessages?.some((s) => s.id === e.submessage_id)) return
        m.submessages = [...(m.submessages ?? []), { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content }]
        return
      }
      case 'update_message_flags': return this.onFlags(e)
      case 'typing': return this.onTyping(e)
      case 'presence': return this.setPresence(e.email, e.presence)
      case 'subscription':
        if (e.op === 'add') for (const s of e.subscriptions) this.subs.set(s.stream_id, s)
        if (e.op === 'remove') for (const s of e.subscriptions) this.subs.delete(s.stream_id)
        if (e.op === 'update') {
          const sub = this.subs.get(e.stream_id)
          if (sub) (sub as unknown as Record<string, unknown>)[e.property] = e.value
        }
        return
      case 'stream':
        if (e.op === 'delete') for (const s of e.streams) this.subs.delete(s.stream_id)
        if (e.op === 'update') {
          const sub = this.subs.get(e.stream_id)
          if (sub && (e.property === 'name' || e.property === 'description')) sub[e.property] = String(e.value)
          if (sub && e.property === 'invite_only') sub.invite_only = Boolean(e.value)
        }
        return
      case 'realm_user': {
        const known = this.users.get(e.person.user_id)
        if (e.op === 'add') this.putUser(e.person as User)
        const { custom_profile_field: field, ...person } = e.person
        if (e.op === 'update' && known) this.putUser({ ...known, ...person, profile_data: withProfileValue(known.profile_data, field) })
        // The server keeps a queue across a role change and says so here.
        if (e.op === 'update' && e.person.user_id === this.me.user_id) {
          this.me = { ...this.me, ...person }
          if (e.person.role !== undefined) this.isAdmin = e.person.role === 100 || e.person.role === 200
        }
        if (e.op === 'remove' && known) known.is_active = false
        return
      }
      case 'realm_emoji': this.realmEmoji = e.realm_emoji; return
      case 'realm_playgrounds': this.playgrounds = e.realm_playgrounds; return
      case 'custom_profile_fields': this.profileFields = e.fields; return
      case 'user_group': return this.onGroup(e)
      case 'realm':
        if (e.op === 'update' && e.property === 'name') this.realmName = String(e.value)
        if (e.op === 'update' && e.property === 'enable_read_receipts') this.readReceiptsEnabled = Boolean(e.value)
        if (e.op === 'update' && e.property === 'enable_guest_user_dm_warning') this.guestDMWarning = Boolean(e.value)
        if (e.op === 'update_dict' && e.data.name) this.realmName = e.data.name
        if (e.op === 'update_dict') for (const name of realmGroupSettings) if (name in e.data) this.groupSettings[name] = (e.data as Json)[name]
        return
      case 'muted_users':
        this.mutedUsers = new Set(e.muted_users.map((u) => u.id))
        return
      case 'user_topic': {
        const key = topicKey(e.stream_id, e.topic_name)
        if (e.visibility_policy === zulip.TopicPolicy.muted) this.mutedTopics.add(key)
        else this.mutedTopics.delete(key)
        if (e.visibility_policy) this.topicPolicies.set(key, e.visibility_policy)
        else this.topicPolicies.delete(key)
        return
      }
      case 'user_status': {
        const { type: _type, id: _id, user_id, ...change } = e
        this.statuses.set(user_id, { ...this.statuses.get(user_id), ...change })
        return
      }
      case 'scheduled_messages': {
        const without = (id: number) => this.scheduled.filter((m) => m.scheduled_message_id !== id)
        if (e.op === 'add') this.scheduled = [...this.scheduled, ...e.scheduled_messages]
        if (e.op === 'update') this.scheduled = [...without(e.scheduled_message.scheduled_message_id), e.scheduled_message]
        if (e.op === 'remove') this.scheduled = without(e.scheduled_message_id)
        this.scheduled.sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
        return
      }
      case 'user_settings':
        this.userSettings = { ...this.userSettings, [e.property]: e.value }
        if (e.property in this.notifySettings && typeof e.value === 'boolean') this.notifySettings[e.property as keyof NotifySettings] = e.value
        if (e.property === 'twenty_four_hour_time') this.setTwentyFourHour(e.value === true)
        return
      case 'heartbeat': return
    }
  }

  private onMessage(m: Message) {
    this.messages.set(m.id, m)
    if (!m.flags.includes('read')) this.unreads.add(m.id, placeOf(m, this.me.email))
    this.stopTyping(m.sender_id)
    if (m.type === 'private') {
      const key = pmEmails(m, this.me.email).join(',')
      this.recentDMs.set(key, Math.max(m.id, this.recentDMs.get(key) ?? 0))
    }
    const v = this.view
    if (matchesLocally(v.narrow, m, this.me.email, this.mute)) {
      if (v.loading) this.arrivedWhileLoading.push(m.id)
      else if (v.foundNewest && !v.ids.includes(m.id)) this.view = { ...v, ids: [...v.ids, m.id] }
    }
    if (m.type === 'stream' && m.stream_id !== undefined) {
      const list = (this.topics.get(m.stream_id) ?? []).filter((t) => t.name.toLowerCase() !== m.subject.toLowerCase())
      this.topics.set(m.stream_id, [{ name: m.subject, max_id: m.id }, ...list])
    }
    this.onArrival?.(m)
  }

  // notification decides whether m raises a notification; onScreen is the
  // conversation on screen in a focused window (null: none, as on the
  // landing page or with the window in the background).
  notification(m: Message, onScreen: Narrow | null): Decision {
    const reading = onScreen !== null && matchesLocally(onScreen, m, this.me.email, this.mute)
    return notifyFor(m, this.me.user_id, this.notifySettings, m.stream_id !== undefined ? this.subs.get(m.stream_id) : undefined, this.topicState(m), this.mutedUsers.has(m.sender_id), reading)
  }

  // topicState is a stream message's topic as the person set it: a topic
  // unmuted or followed in a muted stream is not muted.
  private topicState(m: Message): TopicState {
    if (m.type !== 'stream') return { muted: false, followed: false }
    const policy = this.topicPolicies.get(topicKey(m.stream_id!, m.subject)) ?? 0
    return { muted: policy === 1 || (policy === 0 && this.mute.mutedStreams.has(m.stream_id!)), followed: policy === 3 }
  }

  private onUpdate(e: Extract<ServerEvent, { type: 'update_message' }>) {
    const ids = e.message_ids ?? [e.message_id]
    const topic = e.subject ?? e.topic
    for (const id of ids) {
      const m = this.messages.get(id)
      if (m) {
        if (id === e.message_id && e.rendered_content !== undefined) {
          m.content = e.rendered_content
          m.last_edit_timestamp = e.edit_timestamp
          m.edit_history = [{ timestamp: e.edit_timestamp ?? 0, prev_content: e.orig_content ?? '' }, ...(m.edit_history ?? [])]
        }
        const resolving = topic !== undefined && (topic === '✔ ' + m.subject || m.subject === '✔ ' + topic)
        if ((topic !== undefined && !resolving) || e.new_stream_id !== undefined) m.last_moved_timestamp = e.edit_timestamp
        if (topic !== undefined) m.subject = topic
        if (e.new_stream_id !== undefined) { m.stream_id = e.new_stream_id; m.display_recipient = this.subs.get(e.new_stream_id)?.name ?? m.display_recipient }
      }
      const place = this.unreads.places.get(id)
      if (place && place.streamId !== undefined) {
        if (topic !== undefined) place.topic = topic
        if (e.new_stream_id !== undefined) place.streamId = e.new_stream_id
      }
    }
    // Messages moved out of the topic or stream on screen leave it.
    const v = this.view
    if (v.narrow.kind === 'stream') {
      this.view = { ...v, ids: v.ids.filter((id) => { const m = this.messages.get(id); return !m || matchesLocally(v.narrow, m, this.me.email, this.mute) }) }
    }
    if (e.stream_id !== undefined && e.orig_subject !== undefined && (topic !== undefined || e.new_stream_id !== undefined)) {
      this.onMoved(e.stream_id, e.orig_subject, e.new_stream_id ?? e.stream_id, topic ?? e.orig_subject, ids, e.propagate_mode === 'change_all')
    }
  }

  // onMoved keeps the sidebar's topics and the open topic with messages
  // moved from one topic to another: a topic moved whole leaves its
  // stream's list, the new one joins its stream's, and a view the move
  // emptied follows the messages (as Zulip does, for the mover and anyone
  // else reading there).
  private onMoved(fromStream: number, fromTopic: string, toStream: number, toTopic: string, ids: number[], whole: boolean) {
    const same = (t: string, name: string) => t.toLowerCase() === name.toLowerCase()
    const from = this.topics.get(fromStream)
    if (from && whole) this.topics.set(fromStream, from.filter((t) => !same(t.name, fromTopic)))
    const to = this.topics.get(toStream)
    if (to) {
      let maxId = to.find((t) => same(t.name, toTopic))?.max_id ?? 0
      for (const id of ids) maxId = Math.max(maxId, id) // a loop: a topic's ids can outnumber a call's arguments
      this.topics.set(toStream, [{ name: toTopic, max_id: maxId }, ...to.filter((t) => !same(t.name, toTopic))].sort((a, b) => b.max_id - a.max_id))
    }
    const v = this.view
    if (v.narrow.kind === 'stream' && v.narrow.streamId === fromStream && v.narrow.topic !== undefined && same(v.narrow.topic, fromTopic)
      && !v.loading && !v.ids.length) {
      this.onTopicMoved?.({ kind: 'stream', streamId: toStream, stream: this.subs.get(toStream)?.name ?? String(toStream), topic: toTopic })
    }
  }

  private onGroup(e: Extract<ServerEvent, { type: 'user_group' }>) {
    if (e.op === 'add') { this.groups.set(e.group.id, { name: e.group.name, members: e.group.members ?? [], subgroups: e.group.direct_subgroup_ids ?? [] }); return }
    if (e.op === 'remove') { this.groups.delete(e.group_id); return }
    const g = this.groups.get(e.group_id)
    if (!g) return
    if (e.op === 'update') this.groups.set(e.group_id, { ...g, name: e.data.name ?? g.name })
    if (e.op === 'add_members') this.groups.set(e.group_id, { ...g, members: [...new Set([...g.members, ...e.user_ids])] })
    if (e.op === 'remove_members') this.groups.set(e.group_id, { ...g, members: g.members.filter((id) => !e.user_ids.includes(id)) })
    if (e.op === 'add_subgroups') this.groups.set(e.group_id, { ...g, subgroups: [...new Set([...g.subgroups, ...e.direct_subgroup_ids])] })
    if (e.op === 'remove_subgroups') this.groups.set(e.group_id, { ...g, subgroups: g.subgroups.filter((id) => !e.direct_subgroup_ids.includes(id)) })
  }

  // inGroup: am I in the group, directly or through its subgroups?
  inGroup = (groupId: number, seen = new Set<number>()): boolean => {
    const g = this.groups.get(groupId)
    if (!g || seen.has(groupId)) return false
    seen.add(groupId)
    return g.members.includes(this.me.user_id) || g.subgroups.some((id) => this.inGroup(id, seen))
  }

  private onFlags(e: Extract<ServerEvent, { type: 'update_message_flags' }>) {
    for (const id of e.messages) {
      const m = this.messages.get(id)
      if (m) m.flags = e.op === 'add' ? [...new Set([...m.flags, e.flag])] : m.flags.filter((f) => f !== e.flag)
      if (e.flag === 'read') {
        if (e.op === 'add') this.unreads.remove(id)
        else if (m) this.unreads.add(id, placeOf(m, this.me.email))
      }
    }
    if (e.flag === 'read' && e.op === 'add' && e.all) this.unreads = new Unreads()
    if (e.flag === 'starred' && this.view.narrow.kind === 'starred' && e.op === 'remove') this.view = { ...this.view, ids: this.view.ids.filter((id) => !e.messages.includes(id)) }
  }

  // ---- typing ----

  static streamConversation = (streamId: number, topic: string) => `s:${topicKey(streamId, topic)}`
  static pmConversation = (emails: string[]) => `p:${[...emails].sort().join(',')}`

  private onTyping(e: Extract<ServerEvent, { type: 'typing' }>) {
    const key = e.message_type === 'stream'
      ? Chat.streamConversation(e.stream_id ?? 0, e.topic ?? '')
      : Chat.pmConversation((e.recipients ?? []).map((r) => r.email).filter((x) => x !== this.me.email))
    const who = this.typing.get(key) ?? new Map<number, number>()
    if (e.op === 'start') who.set(e.sender.user_id, Date.now() + typingExpiryMs)
    else who.delete(e.sender.user_id)
    this.typing.set(key, who)
    if (e.op === 'start') setTimeout(() => this.changed(), typingExpiryMs + 50)
  }

  private stopTyping(userId: number) {
    for (const who of this.typing.values()) who.delete(userId)
  }

  typists(key: string): User[] {
    const now = Date.now()
    const out: User[] = []
    for (const [id, until] of this.typing.get(key) ?? []) if (until > now && id !== this.me.user_id) { const u = this.users.get(id); if (u) out.push(u) }
    return out
  }
}

// withProfileValue is profile data with one field's new value (null: cleared).
function withProfileValue(data: User['profile_data'], field?: { id: number; value: string | null; rendered_value?: string }): User['profile_data'] {
  if (!field) return data
  const out = { ...data }
  if (field.value === null) delete out[field.id]
  else out[field.id] = { value: field.value, rendered_value: field.rendered_value }
  return out
}
