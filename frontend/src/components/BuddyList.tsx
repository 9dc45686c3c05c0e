import type { Chat } from '../state/chat'
import { narrowToHash } from '../state/narrow'

const order = { active: 0, idle: 1, offline: 2 }

export function BuddyList(p: { chat: Chat }) {
  const { chat } = p
  const people = [...chat.users.values()].filter((u) => !u.is_bot && u.is_active !== false)
    .map((u) => ({ u, presence: u.user_id === chat.me.user_id ? 'active' as const : chat.presenceOf(u.email) }))
    .sort((a, b) => order[a.presence] - order[b.presence] || a.u.full_name.localeCompare(b.u.full_name))
  return (
    <aside class="buddies">
      <h3>People</h3>
      <ul data-testid="buddy-list">
        {people.map(({ u, presence }) => (
          <li data-testid="buddy-row" data-email={u.email} data-presence={presence}>
            <a href={narrowToHash({ kind: 'pm', emails: [u.email] })} title={`${u.email} (${presence})`}>
              <span class={`dot ${presence}`} />{u.full_name}
            </a>
          </li>
        ))}
      </ul>
    </aside>
  )
}
