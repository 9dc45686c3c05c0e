import { useEffect, useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { narrowToHash } from '../state/narrow'
import { filterConversations, recentConversations, type Conversation, type RecentFilter } from '../state/recent'

const kinds: [RecentFilter['kind'], string][] = [['all', 'All'], ['streams', 'Topics'], ['dms', 'Direct messages']]

function when(ts?: number): string {
  if (!ts) return ''
  const d = new Date(ts * 1000)
  return d.toDateString() === new Date().toDateString()
    ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString([], { month: 'short', day: 'numeric' })
}

// Recent conversations, the home view.
export function Recent(p: { chat: Chat }) {
  const { chat } = p
  const [filter, setFilter] = useState<RecentFilter>({ unreadOnly: false, kind: 'all', includeMuted: false, text: '' })
  const [error, setError] = useState('')
  useEffect(() => { chat.loadRecent().catch((e) => setError(String(e))) }, [])
  const label = (c: Conversation) => c.narrow.kind === 'stream' ? `#${c.narrow.stream} › ${c.narrow.topic || '(no topic)'}`
    : c.narrow.kind === 'pm' ? chat.namesOf(c.narrow.emails) : ''
  const rows = filterConversations(recentConversations(chat.messages.values(), chat.unreads, chat.mute, chat.me.email,
    (id) => chat.subs.get(id)?.name ?? String(id)), filter, label)
  const set = (f: Partial<RecentFilter>) => setFilter({ ...filter, ...f })
  return (
    <section class="recent" data-testid="recent-view" aria-label="Recent conversations">
      <h2 class="narrow-title">Recent conversations</h2>
      <div class="recent-filters row">
        <input type="search" data-testid="recent-filter" aria-label="Filter conversations" placeholder="Filter conversations"
          value={filter.text} onInput={(e) => set({ text: (e.target as HTMLInputElement).value })} />
        <label><input type="checkbox" data-testid="recent-unread-only" checked={filter.unreadOnly} onChange={(e) => set({ unreadOnly: (e.target as HTMLInputElement).checked })} /> Unread only</label>
        <span class="segmented" role="group" aria-label="Kind of conversation">
          {kinds.map(([k, text]) => <button aria-pressed={filter.kind === k} class={filter.kind === k ? 'on' : ''} data-testid={`recent-kind-${k}`} onClick={() => set({ kind: k })}>{text}</button>)}
        </span>
        <label><input type="checkbox" checked={filter.includeMuted} onChange={(e) => set({ includeMuted: (e.target as HTMLInputElement).checked })} /> Include muted</label>
      </div>
      {error && <p class="form-error">{error}</p>}
      <div class="recent-rows">
        {rows.length === 0 && <p class="empty">No conversations match.</p>}
        {rows.map((c) => (
          <a key={c.key} class={`recent-row ${c.unread ? 'has-unread' : ''}`} data-testid="recent-row" href={narrowToHash(c.narrow)}>
            <span class="where">{label(c)}</span>
            <span class="who">{c.senders.slice(0, 3).map((id) => chat.users.get(id)?.full_name ?? '').filter(Boolean).join(', ')}</span>
            <span class="unread">{c.unread > 0 && <span class="count" data-testid="recent-unread">{c.unread}</span>}</span>
            <time class="when">{when(c.timestamp)}</time>
          </a>
        ))}
      </div>
    </section>
  )
}
