import { useState } from 'preact/hooks'
import { api } from '../api/transport'
import type { Chat } from '../state/chat'
import { narrowToHash, type Narrow } from '../state/narrow'
import { topicKey } from '../state/unread'

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

export function Sidebar(p: { chat: Chat; narrow: Narrow; drafts: number; onDrafts: () => void }) {
  const { chat, narrow } = p
  const mute = chat.mute
  const streams = [...chat.subs.values()].sort((a, b) => a.name.localeCompare(b.name))
  const current = narrow.kind === 'stream' ? narrow.streamId : -1
  const conversations = new Map<string, number>()
  for (const place of chat.unreads.places.values()) if (place.pm !== undefined) conversations.set(place.pm, (conversations.get(place.pm) ?? 0) + 1)
  const active = (n: Narrow) => narrowToHash(n) === narrowToHash(narrow) ? 'active' : ''
  const muteStream = (id: number, muted: boolean) =>
    api.post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: id, property: 'is_muted', value: muted }] })
  const muteTopic = (id: number, topic: string, muted: boolean) =>
    api.patch('/api/v1/users/me/subscriptions/muted_topics', { stream_id: id, topic, op: muted ? 'add' : 'remove' })
  return (
    <nav class="sidebar">
      <a class={`nav ${active({ kind: 'all' })}`} data-testid="nav-all" href="#all">All messages <Count n={chat.unreads.total(mute)} /></a>
      <a class={`nav ${active({ kind: 'private' })}`} data-testid="nav-private" href="#narrow/is/private">Private messages <Count n={chat.unreads.private()} /></a>
      <a class={`nav ${active({ kind: 'mentions' })}`} data-testid="nav-mentions" href="#narrow/is/mentioned">Mentions <Count n={chat.unreads.mentions()} /></a>
      <a class={`nav ${active({ kind: 'starred' })}`} data-testid="nav-starred" href="#narrow/is/starred">Starred</a>
      <button class="nav" data-testid="nav-drafts" onClick={p.onDrafts}>Drafts {p.drafts > 0 && <span class="count draft-count">{p.drafts}</span>}</button>
      {conversations.size > 0 && <h3>Conversations</h3>}
      {[...conversations].map(([emails, n]) => (
        <a key={emails} class={`pm ${active({ kind: 'pm', emails: emails.split(',') })}`} data-testid="pm-row" data-emails={emails}
          href={narrowToHash({ kind: 'pm', emails: emails.split(',') })}>
          {emails.split(',').map((e) => chat.byEmail.get(e)?.full_name ?? e).join(', ')} <Count n={n} />
        </a>
      ))}
      <h3>Streams</h3>
      <div data-testid="stream-list">
        {streams.map((s) => {
          const open = s.stream_id === current
          const unreadTopics = chat.unreads.topicsOf(s.stream_id)
          const known = chat.topics.get(s.stream_id) ?? []
          const topics = [...new Set([...known.map((t) => t.name), ...unreadTopics.keys()])].slice(0, open ? 12 : 0)
          return (
            <div class={`stream ${s.is_muted ? 'muted' : ''}`} key={s.stream_id}>
              <a class={`stream-row ${active({ kind: 'stream', streamId: s.stream_id, stream: s.name })}`} data-testid="stream-row" data-stream={s.name}
                href={narrowToHash({ kind: 'stream', streamId: s.stream_id, stream: s.name })}>
                <span class="swatch" style={{ background: s.color }}>{s.invite_only ? '🔒' : '#'}</span>
                <span class="name">{s.name}</span>
                <Count n={s.is_muted ? 0 : chat.unreads.inStream(s.stream_id, mute)} />
                <RowMenu items={[[s.is_muted ? 'Unmute stream' : 'Mute stream', 'mute-stream', () => muteStream(s.stream_id, !s.is_muted)]]} />
              </a>
              {topics.map((t) => {
                const mutedTopic = mute.mutedTopics.has(topicKey(s.stream_id, t))
                const n: Narrow = { kind: 'stream', streamId: s.stream_id, stream: s.name, topic: t }
                return (
                  <a key={t} class={`topic-row ${active(n)} ${mutedTopic ? 'muted' : ''}`} data-testid="topic-row" data-topic={t} href={narrowToHash(n)}>
                    <span class="name">{t || '(no topic)'}</span>
                    <Count n={chat.unreads.inTopic(s.stream_id, t)} />
                    <RowMenu items={[[mutedTopic ? 'Unmute topic' : 'Mute topic', 'mute-topic', () => muteTopic(s.stream_id, t, !mutedTopic)]]} />
                  </a>
                )
              })}
            </div>
          )
        })}
      </div>
    </nav>
  )
}
