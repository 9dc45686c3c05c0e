import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import type { UserStatus } from '../state/types'
import { setOwnStatus } from '../api/zulip'
import { limits } from '../state/limits'

// Zulip's suggested statuses.
const suggestions: [string, string, string][] = [
  ['calendar', '1f4c6', 'In a meeting'], ['bus', '1f68c', 'Commuting'], ['sick', '1f912', 'Out sick'],
  ['palm_tree', '1f334', 'Vacationing'], ['house', '1f3e0', 'Working remotely'],
]

const emojiChar = (code: string) => String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)))

// StatusEmoji is a status's emoji: a character, or a custom emoji's image.
export function StatusEmoji(p: { chat: Chat; status?: UserStatus }) {
  const s = p.status
  if (!s?.emoji_code) return null
  if (s.reaction_type === 'unicode_emoji' || !s.reaction_type) return <span class="status-emoji" data-testid="status-emoji" title={`:${s.emoji_name}:`}>{emojiChar(s.emoji_code)}</span>
  const custom = p.chat.realmEmoji[s.emoji_code]
  return custom ? <img class="status-emoji emoji" data-testid="status-emoji" src={custom.source_url} alt={`:${s.emoji_name}:`} /> : null
}

// StatusLine is a person's status as the people list and user cards show
// it: emoji and text, and "away" when they set themselves away.
export function StatusLine(p: { chat: Chat; userId: number }) {
  const s = p.chat.statuses.get(p.userId)
  if (!s || (!s.emoji_code && !s.status_text && !s.away)) return null
  return (
    <span class="status-line" data-testid="user-status">
      <StatusEmoji chat={p.chat} status={s} />
      {s.status_text && <span class="status-text" data-testid="status-text">{s.status_text}</span>}
      {s.away && <span class="status-away" data-testid="status-away">away</span>}
    </span>
  )
}

// StatusEditor sets my status: one of Zulip's suggestions or my own text
// and emoji, and whether I am away.
export function StatusEditor(p: { chat: Chat; onClose: () => void }) {
  const { chat } = p
  const mine = chat.statuses.get(chat.me.user_id) ?? {}
  const [text, setText] = useState(mine.status_text ?? '')
  const [emoji, setEmoji] = useState(mine.emoji_name ?? '')
  const [away, setAway] = useState(!!mine.away)
  const [error, setError] = useState('')
  const save = (change: { status_text: string; emoji_name: string; away: boolean }) =>
    setOwnStatus(change).then(p.onClose, (e) => setError(explain(e)))
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel status-editor" role="dialog" aria-label="Set status" data-testid="status-editor" onClick={(e) => e.stopPropagation()}>
        <header><h2>Set status</h2><button class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
        <div class="row">
          <input data-testid="status-emoji-input" aria-label="Emoji name" placeholder="emoji name, e.g. coffee" value={emoji} onInput={(e) => setEmoji((e.target as HTMLInputElement).value.replace(/:/g, ''))} />
          <input data-testid="status-text-input" aria-label="Status text" placeholder="What's your status?" maxLength={limits.statusText} value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </div>
        <ul class="status-suggestions">
          {suggestions.map(([name, code, words]) => (
            <li><button data-testid="status-suggestion" onClick={() => { setEmoji(name); setText(words) }}>{emojiChar(code)} {words}</button></li>
          ))}
        </ul>
        <label><input type="checkbox" data-testid="status-away" checked={away} onChange={(e) => setAway((e.target as HTMLInputElement).checked)} /> Set yourself as away</label>
        {error && <p class="form-error">{error}</p>}
        <div class="row">
          <button class="primary" data-testid="status-save" onClick={() => save({ status_text: text.trim(), emoji_name: emoji.trim(), away })}>Save</button>
          <button data-testid="status-clear" onClick={() => save({ status_text: '', emoji_name: '', away: false })}>Clear status</button>
        </div>
      </div>
    </div>
  )
}
