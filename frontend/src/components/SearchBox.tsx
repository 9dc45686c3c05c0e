import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { suggest } from '../state/search'
import { phoneLayout, useMedia } from './useMedia'

// The search bar: Zulip's operators, suggested as one types (operators,
// then streams, people and flags for them); Enter searches.
export function SearchBox(p: { chat: Chat; value: string; setValue: (v: string) => void; onSearch: (q: string) => void }) {
  // A phone's field is narrow: its placeholder says only what it is.
  const phone = useMedia(phoneLayout)
  const [open, setOpen] = useState(false)
  const [choice, setChoice] = useState(-1)
  const people = [...p.chat.users.values()].filter((u) => u.is_active !== false)
  const suggestions = open ? suggest(p.value, { streams: [...p.chat.subs.values()].map((s) => s.name), people }) : []
  const pick = (q: string) => { p.setValue(q); setChoice(-1) }
  const onKeyDown = (e: KeyboardEvent) => {
    if (!suggestions.length) return
    if (e.key === 'ArrowDown') { e.preventDefault(); setChoice((choice + 1) % suggestions.length) }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setChoice((choice + suggestions.length - 1) % suggestions.length) }
    else if ((e.key === 'Enter' || e.key === 'Tab') && choice >= 0) { e.preventDefault(); pick(suggestions[choice].query) }
    else if (e.key === 'Escape') { setOpen(false) }
  }
  return (
    <form class="search" role="search" onSubmit={(e) => { e.preventDefault(); setOpen(false); if (p.value.trim()) p.onSearch(p.value.trim()) }}>
      <input data-testid="search-input" type="search" aria-label="Search messages" placeholder={phone ? 'Search' : 'Search messages (sender:, channel:, topic:, is:, has:…)'}
        value={p.value} autocomplete="off" aria-autocomplete="list" aria-controls={suggestions.length ? 'search-suggestions' : undefined}
        onInput={(e) => { p.setValue((e.target as HTMLInputElement).value); setOpen(true); setChoice(-1) }}
        onKeyDown={onKeyDown} onFocus={() => setOpen(true)} onBlur={() => setTimeout(() => setOpen(false), 150)} />
      {suggestions.length > 0 && (
        <ul class="autocomplete search-suggestions" id="search-suggestions" role="listbox" data-testid="search-suggestions">
          {suggestions.map((s, i) => (
            <li role="option" aria-selected={i === choice} data-testid="search-suggestion" class={i === choice ? 'chosen' : ''}
              onMouseDown={(e) => { e.preventDefault(); pick(s.query) }}>{s.label}</li>
          ))}
        </ul>
      )}
    </form>
  )
}
