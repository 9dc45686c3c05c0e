import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { textOn } from '../state/color'
import { explain } from '../state/errors'
import { inboxGroups } from '../state/inbox'
import { narrowToHash } from '../state/narrow'
import { markStreamAsRead, markTopicAsRead } from '../api/zulip'

const collapsedKey = 'lanchat.inbox.collapsed'

function useCollapsed(): [Set<string>, (key: string) => void] {
  const [collapsed, setCollapsed] = useState(() => {
    try { return new Set<string>(JSON.parse(localStorage.getItem(collapsedKey) ?? '[]')) } catch { return new Set<string>() }
  })
  const toggle = (key: string) => {
    const next = new Set(collapsed)
    if (!next.delete(key)) next.add(key)
    localStorage.setItem(collapsedKey, JSON.stringify([...next]))
    setCollapsed(next)
  }
  return [collapsed, toggle]
}

// Inbox, Zulip's home view: every conversation with unread messages,
// direct ones first, then by stream, each group collapsible, with counts.
export function Inbox(p: { chat: Chat }) {
  const { chat } = p
  const [collapsed, toggle] = useCollapsed()
  const [filter, setFilter] = useState('')
  const [error, setError] = useState('')
  const act = (f: () => Promise<unknown>) => f().catch((e) => setError(explain(e)))
  const { dms, streams } = inboxGroups(chat.unreads, { ...chat.mute, followedTopics: chat.followedTopics }, filter, (e) => chat.nameOf(e), (id) => chat.subs.get(id))
  const dmTotal = dms.reduce((n, d) => n + d.count, 0)
  const Head = (h: { id: string; label: ComponentChildren; count: number; testid: string; onRead?: () => void; style?: Record<string, string> }) => (
    <div class="inbox-head" data-testid={h.testid} role="button" tabIndex={0} aria-expanded={!collapsed.has(h.id)} style={h.style}
      onClick={() => toggle(h.id)} onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(h.id) } }}>
      <span class="chevron" aria-hidden="true">{collapsed.has(h.id) ? '▸' : '▾'}</span>
      {h.label}
      <span class="count" data-testid="inbox-count">{h.count}</span>
      {h.onRead && <button class="icon inbox-read" data-testid="inbox-mark-read" title="Mark as read" aria-label="Mark as read"
        onClick={(e) => { e.stopPropagation(); h.onRead!() }}>✓</button>}
    </div>
  )
  return (
    <section class="inbox" data-testid="inbox-view" aria-label="Inbox">
      <h2 class="narrow-title">Inbox</h2>
      <input type="search" class="inbox-filter" data-testid="inbox-filter" aria-label="Filter conversations" placeholder="Filter conversations"
        value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
      {error && <p class="form-error">{error}</p>}
      {!dms.length && !streams.length && <p class="empty" data-testid="inbox-empty">There are no unread messages in your inbox.</p>}
      {dms.length > 0 && (
        <div class="inbox-group" data-testid="inbox-dms">
          <Head id="dm" testid="inbox-dms-head" label={<span class="name">Direct messages</span>} count={dmTotal} />
          {!collapsed.has('dm') && dms.map((d) => (
            <a class="inbox-row" data-testid="inbox-row" data-emails={d.emails} href={narrowToHash({ kind: 'pm', emails: d.emails.split(',') })}>
              <span class="name">{chat.namesOf(d.emails.split(','))}</span>
              <span class="count" data-testid="inbox-count">{d.count}</span>
            </a>
          ))}
        </div>
      )}
      {streams.map((s) => (
        <div class="inbox-group" data-testid="inbox-stream" data-stream={s.name}>
          <Head id={`s:${s.streamId}`} testid="inbox-stream-head" count={s.count} style={{ boxShadow: `inset 4px 0 0 ${s.color}` }} onRead={() => act(() => markStreamAsRead(s.streamId))}
            label={<><span class="swatch" style={{ background: s.color, color: textOn(s.color) }}>{s.inviteOnly ? '🔒' : '#'}</span><span class="name">{s.name}</span></>} />
          {!collapsed.has(`s:${s.streamId}`) && s.topics.map((t) => (
            <a class="inbox-row topic" data-testid="inbox-row" data-topic={t.topic} href={narrowToHash({ kind: 'stream', streamId: s.streamId, stream: s.name, topic: t.topic })}>
              <span class="name">{t.topic || '(no topic)'}</span>
              {t.followed && <span class="followed" title="You follow this topic" aria-label="followed">👁</span>}
              {t.mentioned && <span class="mention" title="You were mentioned">@</span>}
              <span class="count" data-testid="inbox-count">{t.count}</span>
              <button class="icon inbox-read" data-testid="inbox-mark-read" title="Mark as read" aria-label="Mark as read"
                onClick={(e) => { e.preventDefault(); e.stopPropagation(); act(() => markTopicAsRead(s.streamId, t.topic)) }}>✓</button>
            </a>
          ))}
        </div>
      ))}
    </section>
  )
}
