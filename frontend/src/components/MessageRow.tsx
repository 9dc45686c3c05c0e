import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { clockTime, fullTime } from '../state/clock'
import { showEmojiChars } from '../state/emoji'
import { markMentionsOfMe, mentionsMe } from '../state/mentions'
import { followPlaygroundLink, showLocalTimes, showMeMessage, showPlaygroundLinks, toggleSpoiler } from '../state/rendered'
import type { Message } from '../state/types'
import { widgetOf } from '../state/widgets'
import { sendsOnEnter } from './Compose'
import { EmojiPicker } from './EmojiPicker'
import { MessageMenu, type MessageActions } from './MessageMenu'
import { Widget } from './Widget'

function Reactions(p: { chat: Chat; m: Message }) {
  const groups = new Map<string, { name: string; code: string; type: string; users: number[] }>()
  for (const r of p.m.reactions) {
    const g = groups.get(r.emoji_code) ?? { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [] }
    g.users.push(r.user_id)
    groups.set(r.emoji_code, g)
  }
  if (!groups.size) return null
  const me = p.chat.me.user_id
  return (
    <div class="reactions">
      {[...groups.values()].map((g) => {
        const mine = g.users.includes(me)
        const custom = p.chat.realmEmoji[g.code]
        const toggle = () => zulip.setReaction(p.m.id, g.name, !mine)
        return (
          <button class={`reaction ${mine ? 'mine' : ''}`} data-testid="reaction" data-emoji-name={g.name} onClick={toggle}
            title={g.users.map((u) => p.chat.users.get(u)?.full_name).join(', ') + ` (:${g.name}:)`}>
            {g.type === 'unicode_emoji' ? String.fromCodePoint(...g.code.split('-').map((h) => parseInt(h, 16))) : custom ? <img src={custom.source_url} alt={g.name} /> : `:${g.name}:`} {g.users.length}
          </button>
        )
      })}
    </div>
  )
}

// The full date and time, as the time's tooltip, is written when the
// pointer first comes over it: not needed to draw the list.
const showFullTime = (e: MouseEvent, ts: number) => {
  const el = e.currentTarget as HTMLElement
  if (!el.title) el.title = fullTime(ts)
}

// focusAtEnd puts the cursor at the end of the edit box as it opens, as
// Zulip's does: one edits without first clicking into it.
const focusAtEnd = (area: HTMLTextAreaElement | null) => {
  if (!area || document.activeElement === area) return
  area.focus()
  area.setSelectionRange(area.value.length, area.value.length)
}

// contentHTML is a message's HTML as shown: emoji drawn, my mentions
// marked, times in my zone, a /me message led by its sender.
function contentHTML(chat: Chat, m: Message): string {
  const html = showPlaygroundLinks(showLocalTimes(markMentionsOfMe(showEmojiChars(m.match_content ?? m.content), m.flags, chat.me.user_id, chat.inGroup)), chat.playgrounds)
  return m.is_me_message ? showMeMessage(html, m.sender_full_name) : html
}

export function MessageRow(p: { chat: Chat; m: Message; continued: boolean; selected: boolean; linked: boolean; actions: MessageActions; onSelect: () => void }) {
  const { chat, m } = p
  const [picking, setPicking] = useState(false)
  const [editing, setEditing] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [menu, setMenu] = useState(false)
  const [error, setError] = useState('')
  const mine = m.sender_id === chat.me.user_id
  // A poll or todo list shows in place of its text, which cannot be edited.
  const widget = widgetOf(m)
  const myReactions = new Set(m.reactions.filter((r) => r.user_id === chat.me.user_id).map((r) => r.emoji_name))
  const starred = m.flags.includes('starred')
  const sender = chat.users.get(m.sender_id)
  const time = clockTime(m.timestamp, chat.twentyFourHour)
  const act = (f: () => Promise<unknown>) => f().catch((e) => setError(explain(e)))
  const startEdit = async () => setEditing(await zulip.rawContent(m.id))
  const saveEdit = () => act(async () => { await zulip.editMessage(m.id, editing!); setEditing(null) })
  // As in Zulip, a message only moved to another topic or stream says so,
  // not "edited" (level 365: last_edit_timestamp is for content edits).
  const mark = m.last_edit_timestamp ? '(edited)' : m.last_moved_timestamp ? '(moved)' : null
  const edited = mark ? <span class="edited" data-testid="message-edited">{mark}</span> : null
  // A click on a spoiler's header opens it; one on an image preview opens
  // the lightbox, not the file.
  const onContentClick = (e: MouseEvent) => {
    if (toggleSpoiler(e.target as Element) || followPlaygroundLink(e.target as Element, chat.playgrounds)) return
    const img = (e.target as HTMLElement).closest('.message_inline_image img') as HTMLImageElement | null
    if (!img) return
    e.preventDefault()
    p.actions.showImages([img.closest('a')?.getAttribute('href') ?? img.src])
  }
  return (
    <div class={`message ${p.continued ? 'continued' : ''} ${chat.unreads.has(m.id) ? 'unread' : ''} ${p.linked ? 'linked' : ''} ${mentionsMe(m.flags) ? 'mentioned' : ''}`}
      data-testid="message" data-message-id={m.id} data-sender-email={m.sender_email} data-selected={p.selected ? 'true' : 'false'} onClick={p.onSelect}>
      <div class="gutter">
        {!p.continued && <img class="avatar" src={sender?.avatar_url ?? m.avatar_url ?? `/avatar/${m.sender_id}`} alt="" loading="lazy" data-user-id={m.sender_id} />}
        {/* Without a name line, the edit notice sits where the avatar would, as in Zulip. */}
        {p.continued && edited}
      </div>
      <div class="body">
        {!p.continued && (
          <div class="meta">
            <span class="sender" data-testid="message-sender" data-user-id={m.sender_id} role="button" tabIndex={0} aria-label={`${m.sender_full_name}: show profile`}>{m.sender_full_name}</span>
            <span class="time" onMouseEnter={(e) => showFullTime(e, m.timestamp)}>{time}</span>
            {edited}
          </div>
        )}
        {widget ? (
          <Widget chat={chat} m={m} widget={widget} />
        ) : editing === null ? (
          <div class={`content rendered ${m.is_me_message ? 'me-message' : ''}`} data-testid="message-content" onClick={onContentClick}
            dangerouslySetInnerHTML={{ __html: contentHTML(chat, m) }} />
        ) : (
          <div class="edit">
            <textarea data-testid="edit-content" value={editing} ref={focusAtEnd} onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => { if (sendsOnEnter(e, chat.enterSends)) { e.preventDefault(); saveEdit() } if (e.key === 'Escape') setEditing(null) }} />
            <button class="primary" data-testid="edit-save" onClick={saveEdit}>Save</button>
            <button onClick={() => setEditing(null)}>Cancel</button>
          </div>
        )}
        <Reactions chat={chat} m={m} />
        {error && <p class="form-error">{error}</p>}
      </div>
      <div class="actions" data-testid="message-actions">
        <button class={`icon ${starred ? 'on' : ''}`} data-testid="star-button" title={starred ? 'Unstar' : 'Star'} aria-label={starred ? 'Unstar' : 'Star'}
          onClick={(e) => { e.stopPropagation(); act(() => zulip.setFlag([m.id], 'starred', !starred)) }}>
          {starred ? '★' : '☆'}
        </button>
        <button class="icon" data-testid="react-button" title="Add reaction" aria-label="Add reaction" onClick={(e) => { e.stopPropagation(); setPicking(!picking) }}>☺</button>
        {mine && !widget && <button class="icon" data-testid="edit-button" title="Edit" aria-label="Edit" onClick={(e) => { e.stopPropagation(); act(startEdit) }}>✎</button>}
        {chat.mayDelete(m) && <button class="icon" data-testid="delete-button" title="Delete" aria-label="Delete" onClick={(e) => { e.stopPropagation(); setConfirming(true) }}>🗑</button>}
        <span class="menu-wrap">
          <button class="icon" data-testid="message-menu-button" title="More actions" aria-label="More actions" aria-haspopup="menu" aria-expanded={menu}
            onClick={(e) => { e.stopPropagation(); setMenu(!menu) }}>⋯</button>
          {menu && <MessageMenu chat={chat} m={m} actions={p.actions} onEdit={widget ? null : () => act(startEdit)} onDelete={() => setConfirming(true)} onClose={() => setMenu(false)} setError={setError} />}
        </span>
      </div>
      {picking && <EmojiPicker chat={chat} mine={myReactions} onClose={() => setPicking(false)} onPick={(e) => {
        setPicking(false)
        // Picking an emoji one has already reacted with takes it back, as in Zulip.
        act(() => zulip.setReaction(m.id, e.name, !myReactions.has(e.name)))
      }} />}
      {confirming && (
        <div class="confirm">
          Delete this message?
          <button class="danger" data-testid="confirm-delete" onClick={() => act(() => zulip.deleteMessage(m.id))}>Delete</button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      )}
    </div>
  )
}
