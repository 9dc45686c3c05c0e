import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api/transport'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { applyCompletion, complete, tokenBefore, type Completion, type Token } from '../state/autocomplete'
import { composeTarget, conversationKey, emptyDraft, newDraftId, recipients, type Draft, type DraftStore, type SavedDraft } from '../state/drafts'
import { emojiChoices, showEmojiChars, type EmojiChoice } from '../state/emoji'
import { loadEmojiTable, type EmojiCategory } from '../state/emojiTable'
import { EmojiPicker } from './EmojiPicker'
import { phoneLayout, useMedia } from './useMedia'
import { showLocalTimes, toggleSpoiler } from '../state/rendered'
import { personResolver } from '../state/search'
import type { User } from '../state/types'
import type { Outbox } from '../state/outbox'
import { ScheduleButton } from './Scheduled'
import { limits } from '../state/limits'

export interface ComposeDraft {
  draft: Draft
  id: string
  // update edits the draft; changing its stream, topic or recipients keeps it the same draft.
  update: (f: (d: Draft) => Draft) => void
  // retarget points the compose box at another conversation: the current draft stays
  // saved where it was written, and that conversation's own draft, if any, comes back.
  retarget: (f: (d: Draft) => Draft) => void
  restore: (saved: SavedDraft) => void
  sent: (id: string) => void
}

export function useComposeDraft(store: DraftStore): ComposeDraft {
  const [state, setState] = useState({ id: newDraftId(), draft: emptyDraft() })
  useEffect(() => store.save(state.id, state.draft), [state])
  return {
    ...state,
    update: (f) => setState((s) => ({ ...s, draft: f(s.draft) })),
    retarget: (f) => setState((s) => {
      const target = { ...f(s.draft), content: '' }
      if (conversationKey(target) === conversationKey(s.draft)) return { ...s, draft: { ...target, content: s.draft.content } }
      const saved = store.forConversation(target)
      return saved ? { id: saved.id, draft: { ...target, content: saved.content } } : { id: newDraftId(), draft: target }
    }),
    restore: ({ id, kind, stream, topic, to, content }) => setState({ id, draft: { kind, stream, topic, to, content } }),
    sent: (id) => {
      store.remove(id)
      setState((s) => s.id === id ? { id: newDraftId(), draft: { ...s.draft, content: '' } } : s)
    },
  }
}

const typingEveryMs = 10000
const typingIdleMs = 5000

// Compose is the compose box. On a phone it stays a one-line button until
// used, as in Zulip's mobile web, so the messages keep the screen; it
// closes again when the conversation changes with nothing typed.
export function Compose(p: { chat: Chat; compose: ComposeDraft; focus: number; conversation: string; outbox: Outbox; onSent: (m: zulip.OutgoingMessage) => void }) {
  const phone = useMedia(phoneLayout)
  const [open, setOpen] = useState(false)
  const { compose } = p
  useEffect(() => { if (p.focus) setOpen(true) }, [p.focus])
  useEffect(() => { if (!compose.draft.content) setOpen(false) }, [p.conversation])
  if (phone && !open) {
    return (
      <div class="compose compose-collapsed">
        <button class="compose-open" data-testid="compose-open" onClick={() => setOpen(true)}>{composeTarget(compose.draft)}</button>
      </div>
    )
  }
  return <ComposeBox {...p} onClose={phone ? () => setOpen(false) : undefined} opened={open} />
}

function ComposeBox(p: { chat: Chat; compose: ComposeDraft; focus: number; outbox: Outbox; opened: boolean; onSent: (m: zulip.OutgoingMessage) => void; onClose?: () => void }) {
  const { chat, compose } = p
  const { draft, update } = compose
  const area = useRef<HTMLTextAreaElement>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [error, setError] = useState('')
  const [token, setToken] = useState<Token | null>(null)
  const [choice, setChoice] = useState(0)
  const typing = useRef({ sentAt: 0, idle: 0 as any, target: '' })

  // A layout effect: focus moves in the frame that asked for it, never a
  // frame later, when it could take the caret from a field already clicked.
  // As in Zulip, it goes to the first of stream, topic or recipients still
  // empty (c on Inbox asks for a stream, c in a stream for a topic, x for
  // people), else to the message.
  useLayoutEffect(() => {
    if (!p.focus && !p.opened) return
    const empty = [...(area.current?.closest('.compose')?.querySelectorAll<HTMLInputElement>('.compose-head input') ?? [])].find((f) => !f.value.trim())
    ;(empty ?? area.current)?.focus()
  }, [p.focus])
  // An error belongs to the message it was about.
  useEffect(() => setError(''), [conversationKey(draft)])

  const streamId = chat.subByName(draft.stream)?.stream_id
  const people = [...chat.users.values()].filter((u) => u.is_active !== false)
  // Recipients may be typed as names or emails; the server takes emails.
  const recipientEmails = () => {
    const person = personResolver(chat.me.email, people)
    return recipients(draft.to).map((e) => person(e) ?? e)
  }
  // The organization may ask for a warning when writing to guests (level 348).
  const guests = draft.kind === 'pm' && chat.guestDMWarning
    ? recipientEmails().map((e) => chat.byEmail.get(e)).filter((u) => u?.role === 600).map((u) => u!.full_name) : []
  const recipientIds = () => recipientEmails().map((e) => chat.byEmail.get(e)?.user_id).filter((x): x is number => x !== undefined)
  const typingParams = (): zulip.TypingTarget | null => draft.kind === 'stream'
    ? (streamId && draft.topic.trim() ? { type: 'stream', stream_id: streamId, topic: draft.topic.trim() } : null)
    : (recipientIds().length ? { type: 'direct', to: recipientIds() } : null)

  const notifyTyping = () => {
    const params = typingParams()
    if (!params) return
    const t = typing.current
    const target = JSON.stringify(params)
    if (Date.now() - t.sentAt > typingEveryMs || t.target !== target) {
      t.sentAt = Date.now()
      t.target = target
      zulip.setTyping(params, 'start').catch(() => {})
    }
    clearTimeout(t.idle)
    t.idle = setTimeout(stopTyping, typingIdleMs)
  }
  const stopTyping = () => {
    const t = typing.current
    clearTimeout(t.idle)
    if (!t.sentAt) return
    t.sentAt = 0
    zulip.setTyping(JSON.parse(t.target), 'stop').catch(() => {})
  }

  // The full emoji table loads when an emoji is first typed or picked.
  const [emojiTable, setEmojiTable] = useState<EmojiCategory[] | null>(null)
  const [picking, setPicking] = useState(false)
  useEffect(() => { if (token?.trigger === ':' && !emojiTable) loadEmojiTable().then(setEmojiTable, () => {}) }, [token?.trigger])
  // A stream's topics load when one of them is first being completed.
  const topicStream = token?.stream !== undefined ? chat.subByName(token.stream)?.stream_id : undefined
  useEffect(() => { if (topicStream !== undefined && !chat.topics.has(topicStream)) chat.loadTopics(topicStream).catch(() => {}) }, [topicStream])
  const completions: Completion[] = token ? complete(token, {
    people: [...chat.users.values()].filter((u) => u.is_active !== false && !u.is_bot),
    groups: [...chat.groups.values()].map((g) => g.name),
    streams: [...chat.subs.values()].map((s) => s.name),
    topics: (stream) => { const id = chat.subByName(stream)?.stream_id; return id === undefined ? [] : (chat.topics.get(id) ?? []).map((t) => t.name) },
    emoji: [...new Set([...emojiChoices(chat.realmEmoji), ...(emojiTable?.flatMap((c) => c.emoji) ?? [])].map((e) => e.name))],
  }) : []

  const onInput = (e: Event) => {
    const el = e.target as HTMLTextAreaElement
    update((d) => ({ ...d, content: el.value }))
    setToken(tokenBefore(el.value, el.selectionStart))
    setChoice(0)
    notifyTyping()
  }

  const accept = (c: Completion) => {
    const el = area.current!
    const r = applyCompletion(draft.content, token!, el.selectionStart, c)
    update((d) => ({ ...d, content: r.text }))
    setToken(null)
    requestAnimationFrame(() => { el.focus(); el.setSelectionRange(r.caret, r.caret) })
  }

  // outgoing is the draft as a message to send, or null (and the reason
  // shown) when it cannot be sent as it is.
  // onward puts the caret in another field of the compose box.
  const onward = (testid: string) => document.querySelector<HTMLElement>(`.compose [data-testid=${testid}]`)?.focus()
  const outgoing = (): zulip.OutgoingMessage | null => {
    if (!draft.content.trim()) return null
    const missingTo = () => { setError(explain(new ApiError(400, 'REQUEST_VARIABLE_MISSING', '', { var_name: 'to' }))); return null }
    if (draft.kind === 'pm') return recipientEmails().length ? { kind: 'pm', stream: '', topic: '', to: recipientEmails(), content: draft.content } : missingTo()
    if (!draft.stream.trim()) return missingTo()
    // The server refuses an empty topic: say so here, as Zulip's compose
    // box does, and keep the text, rather than send it to fail.
    if (!draft.topic.trim()) {
      setError('Topics are required in this organization.')
      onward('compose-topic')
      return null
    }
    return { kind: 'stream', stream: draft.stream.trim(), topic: draft.topic.trim(), to: [], content: draft.content }
  }
  const done = (id: string) => {
    stopTyping()
    compose.sent(id)
    setPreview(null)
  }

  // send hands the message to the outbox, which shows it at once as
  // "sending…" and keeps it until the server has it; the compose box is
  // free for the next one.
  const send = () => {
    const m = outgoing()
    if (!m) return
    setError('')
    p.outbox.add(m, chat.queueId)
    done(compose.id)
    p.onSent(m)
  }

  const onKeyDown = (e: KeyboardEvent) => {
    if (completions.length) {
      if (e.key === 'ArrowDown') { e.preventDefault(); setChoice((choice + 1) % completions.length); return }
      if (e.key === 'ArrowUp') { e.preventDefault(); setChoice((choice + completions.length - 1) % completions.length); return }
      if (e.key === 'Enter' || e.key === 'Tab') { e.preventDefault(); accept(completions[choice]); return }
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); setToken(null); return }
    }
    if (sendsOnEnter(e, chat.enterSends)) { e.preventDefault(); send() }
    if (e.key === 'ArrowUp' && !draft.content && !e.shiftKey && editLastMessage(chat)) e.preventDefault()
  }

  // insertEmoji puts a picked emoji at the caret, as Zulip's compose picker does.
  const insertEmoji = (e: EmojiChoice) => {
    setPicking(false)
    const el = area.current
    const at = el ? el.selectionStart : draft.content.length
    const before = draft.content.slice(0, at)
    const text = `${before && !/\s$/.test(before) ? ' ' : ''}:${e.name}: `
    update((d) => ({ ...d, content: d.content.slice(0, at) + text + d.content.slice(at) }))
    requestAnimationFrame(() => { el?.focus(); el?.setSelectionRange(at + text.length, at + text.length) })
  }

  const attach = async (files: FileList | File[]) => {
    for (const f of Array.from(files)) {
      try {
        const link = `[${f.name}](${await zulip.uploadFile(f)})`
        // Functional update: each upload adds to the text as it is by then.
        update((d) => ({ ...d, content: (d.content ? d.content + '\n' : '') + link }))
      } catch (err) {
        setError(`${f.name}: ${explain(err)}`)
      }
    }
  }

  const togglePreview = async () => {
    if (preview !== null) { setPreview(null); return }
    try {
      setPreview(await zulip.renderMessage(draft.content))
    } catch (err) {
      setError(explain(err))
    }
  }

  // Enter in an address field moves on to the next one, as in Zulip's
  // compose box: stream, topic, then the message.
  const field = (key: keyof Draft, testid: string, placeholder: string, maxLength: number, next: string, list?: string) => (
    <input data-testid={testid} aria-label={placeholder} placeholder={placeholder} value={draft[key]} list={list} maxLength={maxLength}
      onInput={(e) => { const v = (e.target as HTMLInputElement).value; update((d) => ({ ...d, [key]: v })) }}
      onKeyDown={(e) => { if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); onward(next) } }} />
  )

  return (
    <div class="compose" onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); if (e.dataTransfer?.files.length) attach(e.dataTransfer.files) }}>
      <div class="compose-head">
        <select aria-label="Message kind" value={draft.kind} onChange={(e) => { const kind = (e.target as HTMLSelectElement).value as Draft['kind']; update((d) => ({ ...d, kind })) }}>
          <option value="stream">Stream</option>
          <option value="pm">Direct</option>
        </select>
        {draft.kind === 'stream' ? <>
          {field('stream', 'compose-stream', 'Stream', limits.streamName, 'compose-topic', 'compose-streams')}
          <datalist id="compose-streams">{[...chat.subs.values()].map((s) => <option value={s.name} />)}</datalist>
          <span class="sep">›</span>
          {field('topic', 'compose-topic', 'Topic', limits.topic, 'compose-content')}
        </> : <RecipientInput value={draft.to} people={people} onChange={(to) => update((d) => ({ ...d, to }))} onDone={() => onward('compose-content')} />}
      </div>
      {guests.length > 0 && <div class="compose-warning" data-testid="compose-guest-warning">{guests.join(', ')} {guests.length === 1 ? 'is a guest' : 'are guests'} in this organization.</div>}
      <div class="compose-body">
        {preview === null ? (
          <textarea ref={area} data-testid="compose-content" aria-label="Message" placeholder={`Message (${chat.enterSends ? 'Enter sends, Shift+Enter' : 'Ctrl+Enter sends, Enter'} for a new line; paste or drop files)`}
            value={draft.content} onInput={onInput} onKeyDown={onKeyDown} onBlur={() => setTimeout(() => setToken(null), 150)}
            onPaste={(e) => { const files = e.clipboardData?.files; if (files?.length) { e.preventDefault(); attach(files) } }} />
        ) : (
          <div class="preview rendered" data-testid="compose-preview" onClick={(e) => toggleSpoiler(e.target as Element)}
            dangerouslySetInnerHTML={{ __html: showLocalTimes(showEmojiChars(preview || '<p><em>Nothing to preview</em></p>')) }} />
        )}
        {completions.length > 0 && (
          <ul class="autocomplete" data-testid="autocomplete">
            {completions.map((c, i) => (
              <li data-testid="autocomplete-item" class={i === choice ? 'chosen' : ''} onMouseDown={(e) => { e.preventDefault(); accept(c) }}>
                {c.label} {c.detail && <span class="detail">{c.detail}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      {p.outbox.items().filter((i) => i.error).map((i) => (
        <div class="compose-unsent" data-testid="compose-unsent" role="alert">
          <span>Not sent: “{i.content.length > 40 ? i.content.slice(0, 40) + '…' : i.content}” — {i.error}</span>
          <button data-testid="unsent-edit" onClick={() => {
            update(() => ({ kind: i.kind, stream: i.stream, topic: i.topic, to: i.to.join(', '), content: i.content }))
            p.outbox.discard(i.localId)
          }}>Edit</button>
          <button data-testid="unsent-retry" onClick={() => p.outbox.retry(i.localId)}>Retry</button>
          <button data-testid="unsent-discard" onClick={() => p.outbox.discard(i.localId)}>Discard</button>
        </div>
      ))}
      <div class="compose-foot">
        <label class="upload" title="Attach files">📎<input type="file" data-testid="compose-upload" multiple onChange={(e) => { const f = (e.target as HTMLInputElement).files; if (f) attach(f) }} /></label>
        <span class="compose-emoji">
          <button class="icon" data-testid="compose-emoji" title="Add emoji" aria-label="Add emoji" aria-expanded={picking} onClick={() => setPicking(!picking)}>☺</button>
          {picking && <EmojiPicker chat={chat} mine={new Set()} label="Add emoji" onPick={insertEmoji} onClose={() => setPicking(false)} />}
        </span>
        <button data-testid="compose-preview-toggle" onClick={togglePreview}>{preview === null ? 'Preview' : 'Edit'}</button>
        {error && <span class="form-error">{error}</span>}
        {p.onClose && <button class="icon compose-close" data-testid="compose-close" title="Close" aria-label="Close compose" onClick={p.onClose}>✕</button>}
        <ScheduleButton chat={chat} outgoing={outgoing} onScheduled={() => done(compose.id)} />
        <button class="primary" data-testid="compose-send" onClick={send}>Send</button>
      </div>
    </div>
  )
}

// sendsOnEnter says whether a key sends the message being written (or
// saves the one being edited). As the account's enter_sends says, as in
// Zulip: Enter sends and Shift+Enter starts a new line, or Enter starts a
// new line and Ctrl+Enter sends; Ctrl (⌘) + Enter sends either way.
export function sendsOnEnter(e: KeyboardEvent, enterSends: boolean): boolean {
  if (e.key !== 'Enter' || e.isComposing) return false
  return e.ctrlKey || e.metaKey || (enterSends && !e.shiftKey && !e.altKey)
}

// editLastMessage opens my newest message on screen for editing, as ↑ in
// an empty compose box and ← in the message list do in Zulip; it says
// whether there was one.
export function editLastMessage(chat: Chat): boolean {
  const mine = chat.visibleMessages().filter((m) => m.sender_id === chat.me.user_id)
  const last = mine[mine.length - 1]
  const button = last && document.querySelector<HTMLElement>(`[data-message-id="${last.id}"] [data-testid=edit-button]`)
  button?.click()
  return !!button
}

// RecipientInput takes people by name or email, suggesting matches for the
// name being typed after the last comma.
function RecipientInput(p: { value: string; people: User[]; onChange: (to: string) => void; onDone: () => void }) {
  const [open, setOpen] = useState(false)
  const [choice, setChoice] = useState(0)
  const done = p.value.slice(0, p.value.lastIndexOf(',') + 1)
  const typed = p.value.slice(done.length).trim().toLowerCase()
  const chosen = new Set(done.split(',').map((e) => e.trim().toLowerCase()))
  const matches = open && typed ? p.people.filter((u) => !chosen.has(u.email.toLowerCase()) &&
    (u.full_name.toLowerCase().includes(typed) || u.email.toLowerCase().startsWith(typed))).slice(0, 8) : []
  const pick = (u: User) => { p.onChange(`${done}${done ? ' ' : ''}${u.email}, `); setChoice(0) }
  const onKeyDown = (e: KeyboardEvent) => {
    // With no one suggested, Enter moves on to the message.
    if (!matches.length) { if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); p.onDone() } return }
    if (e.key === 'ArrowDown') { e.preventDefault(); setChoice((choice + 1) % matches.length) }
    if (e.key === 'ArrowUp') { e.preventDefault(); setChoice((choice + matches.length - 1) % matches.length) }
    if (e.key === 'Enter' || e.key === 'Tab') { e.preventDefault(); pick(matches[choice]) }
    if (e.key === 'Escape') { e.stopPropagation(); setOpen(false) }
  }
  return (
    <span class="recipient-input">
      <input data-testid="compose-to" aria-label="Recipients" placeholder="Names or emails, comma-separated" value={p.value} autocomplete="off"
        onInput={(e) => { p.onChange((e.target as HTMLInputElement).value); setOpen(true); setChoice(0) }} onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)} />
      {matches.length > 0 && (
        <ul class="autocomplete recipient-suggestions" role="listbox" data-testid="recipient-suggestions">
          {matches.map((u, i) => (
            <li role="option" aria-selected={i === choice} class={i === choice ? 'chosen' : ''} data-testid="recipient-suggestion"
              onMouseDown={(e) => { e.preventDefault(); pick(u) }}>{u.full_name} <span class="detail">{u.email}</span></li>
          ))}
        </ul>
      )}
    </span>
  )
}
