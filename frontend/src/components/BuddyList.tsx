import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { narrowToHash } from '../state/narrow'
import { StatusEmoji, StatusLine } from './UserStatus'

const order = { active: 0, idle: 1, offline: 2 }

// onSetStatus opens the status editor: on a phone the top bar has no room
// for one's name, so one's status is set from here.
export function BuddyList(p: { chat: Chat; onSetStatus: () => void }) {
  const { chat } = p
  const [find, setFind] = useState('')
  const words = find.trim().toLowerCase()
  const people = [...chat.users.values()].filter((u) => !u.is_bot && u.is_active !== false)
    .filter((u) => !words || `${u.full_name} ${u.email}`.toLowerCase().includes(words))
    .map((u) => ({ u, presence: u.user_id === chat.me.user_id ? 'active' as const : chat.presenceOf(u.email) }))
    .sort((a, b) => order[a.presence] - order[b.presence] || a.u.full_name.localeCompare(b.u.full_name))
  return (
    <aside class="buddies">
      <h3>People</h3>
      <button class="set-status" data-testid="people-set-status" onClick={p.onSetStatus}>
        <StatusEmoji chat={chat} status={chat.statuses.get(chat.me.user_id)} />
        {chat.statuses.get(chat.me.user_id)?.status_text || 'Set status'}
      </button>
      <input type="search" class="people-search" data-testid="people-search" aria-label="Search people" placeholder="Search people" value={find}
        onInput={(e) => setFind((e.target as HTMLInputElement).value)} />
      <ul data-testid="buddy-list">
        {people.map(({ u, presence }) => (
          <li data-testid="buddy-row" data-email={u.email} data-presence={presence}>
            {/* As in Zulip: the name opens the direct messages with them, the ⋮ their card. */}
            <div class="buddy-line">
              <a class="buddy" data-testid="buddy-dm" href={narrowToHash({ kind: 'pm', emails: [u.email] })}
                title={`${u.email} (${presence})`} aria-label={`${u.full_name}, ${presence}: direct messages`}>
                <span class={`dot ${presence}`} aria-hidden="true" />{u.full_name}
              </a>
              <button class="buddy-profile" data-testid="buddy-profile" data-user-id={u.user_id} title="Profile" aria-label={`${u.full_name}: show profile`}>⋮</button>
            </div>
            <StatusLine chat={chat} userId={u.user_id} />
          </li>
        ))}
        {!people.length && <li class="hint">Nobody matches.</li>}
      </ul>
    </aside>
  )
}
