import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import { messageLink } from '../state/narrow'
import type { Message } from '../state/types'
import { ReadReceipts } from './ReadReceipts'
import { limits } from '../state/limits'

// What a message's menu asks of the rest of the page.
export interface MessageActions {
  reply: (id: number) => void
  quote: (id: number, text: string) => void
  showImages: (urls: string[]) => void
}

// quoteOf is Zulip's quote-and-reply text: a silent mention, a link to the
// message, and its source in a quote block.
export function quoteOf(chat: Chat, m: Message, raw: string): string {
  const fence = raw.includes('```') ? '````' : '```'
  const link = messageLink(location.origin, chat.narrowOf(m), m.id)
  return `@_**${m.sender_full_name}|${m.sender_id}** [said](${link}):\n${fence}quote\n${raw}\n${fence}\n`
}

// copyText copies to the clipboard; on plain HTTP over the LAN, where the
// Clipboard API is unavailable, it falls back to a selected text field.
async function copyText(text: string) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
  const field = document.createElement('textarea')
  field.value = text
  document.body.append(field)
  field.select()
  document.execCommand('copy')
  field.remove()
}

type Dialog = { kind: 'source'; raw: string } | { kind: 'move' } | { kind: 'receipts' } | null

export function MessageMenu(p: { chat: Chat; m: Message; actions: MessageActions; onEdit: (() => void) | null; onDelete: () => void; onClose: () => void; setError: (e: string) => void }) {
  const { chat, m } = p
  const [dialog, setDialog] = useState<Dialog>(null)
  const [note, setNote] = useState('')
  const run = (f: () => Promise<unknown>) => f().catch((e) => p.setError(explain(e)))
  const mine = m.sender_id === chat.me.user_id
  const items: [string, string, () => void][] = [
    ['Quote and reply', 'menu-quote', () => run(async () => { p.actions.quote(m.id, quoteOf(chat, m, await zulip.rawContent(m.id))); p.onClose() })],
    ['Copy link to message', 'menu-copy-link', () => run(async () => { await copyText(messageLink(location.origin, chat.narrowOf(m), m.id)); setNote('Link copied') })],
    ['Mark as unread from here', 'menu-mark-unread', () => run(async () => { await chat.markUnreadFrom(m.id); p.onClose() })],
    ['View source', 'menu-view-source', () => run(async () => setDialog({ kind: 'source', raw: await zulip.rawContent(m.id) }))],
  ]
  if (chat.readReceiptsEnabled) items.push(['Read receipts', 'menu-read-receipts', () => setDialog({ kind: 'receipts' })])
  if (m.type === 'stream' && (mine || chat.isAdmin)) items.push(['Move or rename topic…', 'menu-move', () => setDialog({ kind: 'move' })])
  const edit = p.onEdit
  if (mine && edit) items.push(['Edit message', 'menu-edit', () => { edit(); p.onClose() }])
  if (chat.mayDelete(m)) items.push(['Delete message', 'menu-delete', () => { p.onDelete(); p.onClose() }])
  // As a menu does, it takes the focus (so the i key's menu is worked from
  // the keyboard), its items are walked with ↑ ↓, and Esc closes it
  // wherever the focus went, without also leaving the view.
  const menu = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus()
    const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); p.onClose() } }
    addEventListener('keydown', escape, true)
    return () => removeEventListener('keydown', escape, true)
  }, [])
  const walk = (e: KeyboardEvent) => {
    if ((e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || !(e.target as HTMLElement).matches('[role=menuitem]')) return
    e.preventDefault()
    e.stopPropagation()
    const all = [...menu.current!.querySelectorAll<HTMLElement>('[role=menuitem]')]
    const at = all.indexOf(document.activeElement as HTMLElement)
    all[(at + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus()
  }
  return (
    <div class="menu message-menu" data-testid="message-menu" role="menu" ref={menu} onClick={(e) => e.stopPropagation()} onKeyDown={walk}>
      {items.map(([label, testid, act]) => <button role="menuitem" data-testid={testid} onClick={act}>{label}</button>)}
      {note && <span class="hint" role="status">{note}</span>}
      {dialog?.kind === 'source' && (
        <div class="overlay" onClick={p.onClose}>
          <div class="panel" role="dialog" aria-label="Message source" data-testid="message-source" onClick={(e) => e.stopPropagation()}>
            <header><h2>Message source</h2><button class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
            <pre class="source">{dialog.raw}</pre>
          </div>
        </div>
      )}
      {dialog?.kind === 'move' && <MoveTopic chat={chat} m={m} onClose={p.onClose} />}
      {dialog?.kind === 'receipts' && <ReadReceipts chat={chat} messageId={m.id} onClose={p.onClose} />}
    </div>
  )
}

// MoveTopic renames a topic or moves messages to another stream, with
// Zulip's choice of which messages go: this one, this and later, or all.
function MoveTopic(p: { chat: Chat; m: Message; onClose: () => void }) {
  const { chat, m } = p
  const [topic, setTopic] = useState(m.subject)
  const [streamId, setStreamId] = useState(m.stream_id!)
  const [mode, setMode] = useState<zulip.PropagateMode>('change_all')
  const [error, setError] = useState('')
  const save = async (e: Event) => {
    e.preventDefault()
    try {
      await zulip.moveMessages(m.id, topic.trim(), mode, streamId !== m.stream_id ? streamId : undefined)
      p.onClose()
    } catch (err) {
      setError(explain(err))
    }
  }
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" role="dialog" aria-label="Move or rename topic" onClick={(e) => e.stopPropagation()}>
      <form class="move-topic" data-testid="move-topic" onSubmit={save}>
        <header><h2>Move or rename topic</h2><button type="button" class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
        <label>Stream
          <select data-testid="move-stream" value={streamId} onChange={(e) => setStreamId(Number((e.target as HTMLSelectElement).value))}>
            {[...chat.subs.values()].map((s) => <option value={s.stream_id}>#{s.name}</option>)}
          </select>
        </label>
        <label>Topic<input data-testid="move-topic-name" maxLength={limits.topic} value={topic} onInput={(e) => setTopic((e.target as HTMLInputElement).value)} /></label>
        <label>Which messages
          <select data-testid="move-mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value as zulip.PropagateMode)}>
            <option value="change_all">All messages in the topic</option>
            <option value="change_later">This message and the ones after it</option>
            <option value="change_one">Only this message</option>
          </select>
        </label>
        {error && <p class="form-error" role="alert">{error}</p>}
        <div class="row"><button class="primary" data-testid="move-save">Move</button><button type="button" onClick={p.onClose}>Cancel</button></div>
      </form>
      </div>
    </div>
  )
}
