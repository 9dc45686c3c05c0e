import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import { textOn } from '../state/color'
import { narrowToHash, type Narrow } from '../state/narrow'
import { topicKey } from '../state/conversation'
import type { Subscription } from '../state/types'

const collapsedTopics = 8
const collapsedDMs = 8

function Count(p: { n: number }) {
  return p.n > 0 ? <span class="count" data-testid="unread-count">{p.n}</span> : null
}

function RowMenu(p: { items: [string, string, () => void][] }) {
  const [open, setOpen] = useState(false)
  return (
    <span class="row-menu-wrap">
      <button class="icon" data-testid="row-menu" title="More" onClick={(e) => { e.preventDefault(); e.stopPropagation(); setOpen(!open) }}>⋮</button>
      {open && (
        <span class="menu" onMouseLeave={() => setOpen(false)}>
          {p.items.map(([label, testid, run]) => (
            <button data-testid={testid} onClick={(e) => { e.preventDefault(); e.stopPropagation(); setOpen(false); run() }}>{label}</button>
          ))}
        </span>
      )}
    </span>
  )
}

export function Sidebar(p: { chat: Chat; narrow: Narrow; home: 'inbox' | 'recent' | null; drafts: number; onDrafts: () => void; onStreams: (panel: 'browse' | number) => void
  onScheduled: () => void }) {
  const { chat, narrow } = p
  const mute = chat.mute
  const pinned = (s: Subscription) => (s.pin_to_top ? 0 : 1)
  const streams = [...chat.subs.values()].sort((a, b) => pinned(a) - pinned(b) || a.name.localeCompare(b.name))
  const current = narrow.kind === 'stream' ? narrow.streamId : -1
  const [streamFilter, setStreamFilter] = useState('')
  const [topicFilter, setTopicFilter] = useState('')
  const [expandedStream, setExpandedStream] = useState(-1)
  const allTopics = expandedStream === current
  const [allDMs, setAllDMs] = useState(false)
  // Direct conversations: the recent ones and any with unread messages, newest first.
  const dms = new Map(chat.recentDMs)
  for (const [id, place] of chat.unreads.places) if (place.pm !== undefined) dms.set(place.pm, Math.max(id, dms.get(place.pm) ?? 0))
  const conversations = [...dms].sort((a, b) => b[1] - a[1]).map(([emails]) => emails)
  const shownDMs = allDMs ? conversations : conversations.filter((c, i) => i < collapsedDMs || chat.unreads.inConversation(c) > 0)
  const active = (n: Narrow) => !p.home && narrowToHash(n) === narrowToHash(narrow) ? 'active' : ''
  const muteStream = (id: number, muted: boolean) =>
    zulip.setSubscriptionProperty(id, 'is_muted', muted)
  const muteTopic = (id: number, topic: string, muted: boolean) =>
    zulip.muteTopic(id, topic, muted)
  return (
    <nav class="sidebar">
      <a class={`nav ${p.home === 'inbox' ? 'active' : ''}`} data-testid="nav-inbox" href="#inbox">Inbox <Count n={chat.unreads.total(mute)} /></a>
      <a class={`nav ${p.home === 'recent' ? 'active' : ''}`} data-testid="nav-recent" href="#recent">Recent conversations</a>
      <a class={`nav ${active({ kind: 'all' })}`} data-testid="nav-all" href="#all">All messages <Count n={chat.unreads.total(mute)} /></a>
      <a class={`nav ${active({ kind: 'private' })}`} data-testid="nav-private" href="#narrow/is/private">All direct messages <Count n={chat.unreads.private()} /></a>
      <a class={`nav ${active({ kind: 'mentions' })}`} data-testid="nav-mentions" href="#narrow/is/mentioned">Mentions <Count n={chat.unreads.mentions()} /></a>
      <a class={`nav ${active({ kind: 'starred' })}`} data-testid="nav-starred" href="#narrow/is/starred">Starred</a>
      <button class="nav" data-testid="nav-drafts" onClick={p.onDrafts}>Drafts {p.drafts > 0 && <span class="count draft-count">{p.drafts}</span>}</button>
      {chat.scheduled.length > 0 && <button class="nav" data-testid="nav-scheduled" onClick={p.onScheduled}>Scheduled messages <span class="count draft-count">{chat.scheduled.length}</span></button>}
      {conversations.length > 0 && <h3>Direct messages</h3>}
      {shownDMs.map((emails) => (
        <a key={emails} class={`pm ${active({ kind: 'pm', emails: emails.split(',') })}`} data-testid="pm-row" data-emails={emails}
          href={narrowToHash({ kind: 'pm', emails: emails.split(',') })}>
          <span class="name">{chat.namesOf(emails.split(','))}</span> <Count n={chat.unreads.inConversation(emails)} />
        </a>
      ))}
      {conversations.length > shownDMs.length && <button class="more" data-testid="more-dms" onClick={() => setAllDMs(true)}>more conversations</button>}
      <h3 class="streams-head">Streams <button class="icon" data-testid="browse-streams" aria-label="Browse and create streams" title="Browse streams" onClick={() => p.onStreams('browse')}>+</button></h3>
      <input class="sidebar-filter" type="search" data-testid="stream-filter" aria-label="Filter streams" placeholder="Filter streams"
        value={streamFilter} onInput={(e) => setStreamFilter((e.target as HTMLInputElement).value)} />
      <div data-testid="stream-list">
        {streams.filter((s) => s.name.toLowerCase().includes(streamFilter.trim().toLowerCase())).map((s) => {
          const open = s.stream_id === current
          const unreadTopics = chat.unreads.topicsOf(s.stream_id)
          const known = chat.topics.get(s.stream_id) ?? []
          const every = [...new Set([...known.map((t) => t.name), ...unreadTopics.keys()])]
          const wanted = topicFilter.trim().toLowerCase()
          // Collapsed, a stream shows its newest topics and every unread one; "more topics" shows them all, searchable.
          const topics = !open ? [] : allTopics ? every.filter((t) => t.toLowerCase().includes(wanted))
            : every.filter((t, i) => i < collapsedTopics || unreadTopics.has(t) || (narrow.kind === 'stream' && narrow.topic === t))
          return (
            <div class={`stream ${s.is_muted ? 'muted' : ''}`} key={s.stream_id}>
              <a class={`stream-row ${active({ kind: 'stream', streamId: s.stream_id, stream: s.name })}`} data-testid="stream-row" data-stream={s.name}
                href={narrowToHash({ kind: 'stream', streamId: s.stream_id, stream: s.name })}>
                <span class="swatch" style={{ background: s.color, color: textOn(s.color) }}>{s.invite_only ? '🔒' : '#'}</span>
                <span class="name">{s.name}</span>
                <Count n={s.is_muted ? 0 : chat.unreads.inStream(s.stream_id, mute)} />
                <RowMenu items={[['Mark all as read', 'stream-mark-read', () => zulip.markStreamAsRead(s.stream_id)],
                  [s.is_muted ? 'Unmute stream' : 'Mute stream', 'mute-stream', () => muteStream(s.stream_id, !s.is_muted)],
                  ['Stream settings', 'stream-settings-open', () => p.onStreams(s.stream_id)]]} />
              </a>
              {open && allTopics && (
                <input class="sidebar-filter topic-filter" type="search" data-testid="topic-filter" aria-label="Filter topics" placeholder="Filter topics"
                  value={topicFilter} onInput={(e) => setTopicFilter((e.target as HTMLInputElement).value)} />
              )}
              {topics.map((t) => {
                const mutedTopic = mute.mutedTopics.has(topicKey(s.stream_id, t))
                const followed = chat.followedTopics.has(topicKey(s.stream_id, t))
                const n: Narrow = { kind: 'stream', streamId: s.stream_id, stream: s.name, topic: t }
                return (
                  <a key={t} class={`topic-row ${active(n)} ${mutedTopic ? 'muted' : ''}`} data-testid="topic-row" data-topic={t} href={narrowToHash(n)}>
                    <span class="name">{t || '(no topic)'}</span>
                    <Count n={chat.unreads.inTopic(s.stream_id, t)} />
                    <RowMenu items={[['Mark all as read', 'topic-mark-read', () => zulip.markTopicAsRead(s.stream_id, t)],
                      [followed ? 'Unfollow topic' : 'Follow topic', 'topic-follow', () => zulip.setTopicPolicy(s.stream_id, t, followed ? zulip.TopicPolicy.inherit : zulip.TopicPolicy.followed)],
                      [mutedTopic ? 'Unmute topic' : 'Mute topic', 'mute-topic', () => muteTopic(s.stream_id, t, !mutedTopic)]]} />
                  </a>
                )
              })}
              {open && !allTopics && every.length > topics.length && (
                <button class="more topic-more" data-testid="more-topics" onClick={() => { setExpandedStream(current); setTopicFilter('') }}>more topics ({every.length - topics.length})</button>
              )}
            </div>
          )
        })}
      </div>
    </nav>
  )
}
