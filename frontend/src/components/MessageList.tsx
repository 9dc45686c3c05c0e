import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import { Chat } from '../state/chat'
import { textOn } from '../state/color'
import { groupRows } from '../state/grouping'
import { pmEmails } from '../state/conversation'
import { narrowToHash, type Narrow } from '../state/narrow'
import type { Message } from '../state/types'
import type { MessageActions } from './MessageMenu'
import { MessageRow } from './MessageRow'

function RecipientBar(p: { chat: Chat; m: Message }) {
  const { m, chat } = p
  if (m.type === 'stream') {
    const sub = chat.subs.get(m.stream_id!)
    const name = typeof m.display_recipient === 'string' ? m.display_recipient : sub?.name ?? ''
    const stream: Narrow = { kind: 'stream', streamId: m.stream_id!, stream: name }
    return (
      <div class="recipient" data-testid="recipient-header" style={{ borderColor: sub?.color }}>
        <a href={narrowToHash(stream)} style={{ background: sub?.color, color: sub && textOn(sub.color) }} class="stream-name">#{name}</a>
        <span class="sep">›</span>
        <a href={narrowToHash({ ...stream, topic: m.subject })}>{m.subject || '(no topic)'}</a>
      </div>
    )
  }
  const emails = pmEmails(m, chat.me.email)
  return (
    <div class="recipient private" data-testid="recipient-header">
      <a href={narrowToHash({ kind: 'pm', emails })}>You and {chat.namesOf(emails)}</a>
    </div>
  )
}

// typingKey is the conversation whose typists the current narrow shows.
export function typingKey(n: Narrow): string | null {
  if (n.kind === 'stream' && n.topic !== undefined) return Chat.streamConversation(n.streamId, n.topic)
  if (n.kind === 'pm') return Chat.pmConversation(n.emails)
  return null
}

export function MessageList(p: { chat: Chat; selected: number; actions: MessageActions; onSelect: (id: number) => void }) {
  const { chat } = p
  const v = chat.view
  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const beforeOlder = useRef<{ height: number; top: number } | null>(null)
  const messages = chat.visibleMessages()
  const rows = groupRows(messages)
  const firstId = v.ids[0]
  const narrowKey = narrowToHash(v.narrow)

  // A narrow opens at the linked message, else at its first unread one, else at the bottom.
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el || v.loading) return
    const target = (v.near !== undefined ? el.querySelector(`[data-message-id="${v.near}"]`) : null) ?? el.querySelector('.message.unread')
    if (target) target.scrollIntoView({ block: 'center' })
    else el.scrollTop = el.scrollHeight
    stick.current = !target
  }, [narrowKey, v.near, v.loading && v.ids.length === 0])

  // Older history keeps the reader's place; new messages follow the bottom.
  // A new message of one's own brings the list to the bottom as well, as in
  // Zulip: a narrow opened at an unread message above left what one sent
  // below the view.
  const lastId = v.ids[v.ids.length - 1]
  const lastShown = useRef<{ narrow: string; id: number | undefined }>({ narrow: narrowKey, id: lastId })
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    const before = lastShown.current
    const sentByMe = before.narrow === narrowKey && before.id !== undefined && lastId !== undefined && lastId > before.id && chat.messages.get(lastId)?.sender_id === chat.me.user_id
    lastShown.current = { narrow: narrowKey, id: lastId }
    if (beforeOlder.current && !v.loading) {
      el.scrollTop = el.scrollHeight - beforeOlder.current.height + beforeOlder.current.top
      beforeOlder.current = null
    } else if (stick.current || sentByMe) {
      el.scrollTop = el.scrollHeight
      stick.current = true
    }
  }, [firstId, messages.length, v.loading])

  // Unread messages on screen are read while the page is visible. Checked
  // right after each render has placed the list, rather than by an
  // IntersectionObserver, whose first report comes a frame later and was lost
  // when the reader moved on within it; and a message taller than the view
  // counts once it fills most of the view.
  const readWhatShows = () => {
    const el = scroller.current
    if (!el || document.visibilityState !== 'visible') return
    const view = el.getBoundingClientRect()
    el.querySelectorAll<HTMLElement>('.message.unread').forEach((m) => {
      const r = m.getBoundingClientRect()
      const shown = Math.min(r.bottom, view.bottom) - Math.max(r.top, view.top)
      if (shown > 0 && shown >= 0.6 * Math.min(r.height, view.height)) chat.seen(Number(m.dataset.messageId))
    })
  }
  useLayoutEffect(readWhatShows)
  useEffect(() => {
    document.addEventListener('visibilitychange', readWhatShows)
    return () => document.removeEventListener('visibilitychange', readWhatShows)
  }, [])

  // A list that follows the bottom keeps following it as it shrinks: the
  // on-screen keyboard coming up, compose opening.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const resized = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight
      readWhatShows()
    })
    resized.observe(el)
    return () => resized.disconnect()
  }, [])

  const onScroll = () => {
    const el = scroller.current!
    readWhatShows()
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40
    if (el.scrollTop < 200 && !v.foundOldest && !v.loading) {
      beforeOlder.current = { height: el.scrollHeight, top: el.scrollTop }
      chat.loadOlder()
    }
    if (stick.current && !v.foundNewest) chat.loadNewer()
  }

  const key = typingKey(v.narrow)
  const typists = key ? chat.typists(key) : []
  return (<>
    <div class="message-scroller" ref={scroller} onScroll={onScroll}>
      <div class="message-list" data-testid="message-list">
        {v.foundOldest && messages.length > 0 && <div class="history-start">Start of conversation</div>}
        {v.loading && <div class="loading">Loading…</div>}
        {v.error && <div class="form-error">{v.error}</div>}
        {!v.loading && !messages.length && <div class="empty">{v.narrow.kind === 'search' ? 'No messages match your search.' : 'No messages here yet.'}</div>}
        {rows.map((r) => r.kind === 'day' ? <div class="date-divider" data-testid="date-divider" key={r.key}><span>{r.label}</span></div>
          : r.kind === 'recipient' ? <RecipientBar key={r.key} chat={chat} m={r.message} />
            : <MessageRow key={r.key} chat={chat} m={r.message} continued={r.continued} selected={p.selected === r.message.id} linked={v.near === r.message.id} actions={p.actions} onSelect={() => p.onSelect(r.message.id)} />)}
      </div>
    </div>
    {/* Outside the scrolling list, so it shows wherever the reader is. */}
    <div class="typing" data-testid={typists.length ? 'typing-indicator' : undefined} aria-live="polite">
      {typists.length > 0 && `${typists.map((u) => u.full_name).join(', ')} ${typists.length > 1 ? 'are' : 'is'} typing…`}
    </div>
  </>)
}
