import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { commonEmoji, emojiChoices, type EmojiChoice } from '../state/emoji'
import { loadEmojiTable, RecentEmoji, searchEmoji, type EmojiCategory } from '../state/emojiTable'

const recentEmoji = new RecentEmoji(localStorage)

// EmojiPicker: every emoji the server knows and the organization's own, by
// category or by name, recently used first; for reactions and for compose.
// Emoji in `mine` are marked: picking one of them again takes the reaction back.
export function EmojiPicker(p: { chat: Chat; mine: Set<string>; label?: string; onPick: (e: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [table, setTable] = useState<EmojiCategory[] | null>(null)
  const [tab, setTab] = useState('Recently used')
  const [above, setAbove] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const search = useRef<HTMLInputElement>(null)
  useEffect(() => { loadEmojiTable().then(setTable, () => setTable([])) }, [])
  // It opens below the message, or above it where there is no room below
  // in the list (on the last messages) and more room above.
  useLayoutEffect(() => {
    const el = root.current
    if (!el || getComputedStyle(el).position !== 'absolute') return // a phone's picker is fixed in place
    const box = el.getBoundingClientRect()
    const list = (el.closest('.message-scroller') ?? document.documentElement).getBoundingClientRect()
    const anchor = el.parentElement!.getBoundingClientRect()
    if (box.bottom > list.bottom && anchor.top - list.top > list.bottom - anchor.top) setAbove(true)
  }, [])
  // Esc and a click elsewhere close it, wherever the focus is (from the
  // first frame: a layout effect, so an early Esc is not missed).
  useLayoutEffect(() => {
    search.current?.focus()
    const outside = (e: MouseEvent) => { if (!root.current?.contains(e.target as Node)) p.onClose() }
    const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); p.onClose() } }
    document.addEventListener('mousedown', outside)
    window.addEventListener('keydown', escape, true)
    return () => { document.removeEventListener('mousedown', outside); window.removeEventListener('keydown', escape, true) }
  }, [])
  const custom = emojiChoices(p.chat.realmEmoji).filter((e) => e.url)
  const all = [...custom, ...(table?.flatMap((c) => c.emoji) ?? commonEmoji)]
  const byName = new Map(all.map((e) => [e.name, e]))
  const recent = recentEmoji.list().map((n) => byName.get(n)).filter((e): e is EmojiChoice => !!e)
  const categories: EmojiCategory[] = [
    { name: 'Recently used', emoji: [...recent, ...commonEmoji.filter((e) => !recent.some((r) => r.name === e.name))] },
    ...(custom.length ? [{ name: 'Custom', emoji: custom }] : []),
    ...(table ?? []),
  ]
  const shown = query.trim() ? searchEmoji(all, query) : categories.find((c) => c.name === tab)?.emoji ?? []
  const pick = (e: EmojiChoice) => { recentEmoji.use(e.name); p.onPick(e) }
  return (
    <div class={`emoji-picker ${above ? 'above' : ''}`} data-testid="emoji-picker" ref={root} role="dialog" aria-label={p.label ?? 'Add a reaction'} onClick={(e) => e.stopPropagation()}>
      <input type="search" data-testid="emoji-search" aria-label="Search emoji" placeholder="Search emoji" value={query} ref={search}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => { if (e.key === 'Enter' && shown.length) { e.preventDefault(); pick(shown[0]) } }} />
      {!query.trim() && (
        <div class="emoji-tabs" role="tablist" aria-label="Emoji categories">
          {categories.map((c) => (
            <button role="tab" aria-selected={c.name === tab} class={c.name === tab ? 'on' : ''} title={c.name} data-testid="emoji-category"
              onClick={() => setTab(c.name)}>{c.emoji[0]?.url ? <img src={c.emoji[0].url} alt={c.name} /> : c.emoji[0]?.char}</button>
          ))}
        </div>
      )}
      <div class="emoji-grid-scroll">
        {!query.trim() && <h4>{tab}</h4>}
        {query.trim() && !shown.length && <p class="hint">No emoji named “{query}”.</p>}
        {shown.map((e) => (
          <button class={`emoji-option ${p.mine.has(e.name) ? 'mine' : ''}`} data-testid="emoji-option" data-emoji-name={e.name} title={`:${e.name}:`}
            aria-label={`:${e.name}:`} aria-pressed={p.mine.has(e.name)} onClick={() => pick(e)}>
            {e.url ? <img src={e.url} alt="" /> : e.char}
          </button>
        ))}
      </div>
    </div>
  )
}
