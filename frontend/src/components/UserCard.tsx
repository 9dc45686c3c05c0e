// The user card: clicking (or pressing Enter on) any element carrying
// data-user-id (a sender's name or avatar, a row of the people list) opens
// a card with the person's name, email, role, presence and local time, and
// the ways to reach them, as in Zulip.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { narrowToHash } from '../state/narrow'
import '../streams-people.css'
import { StatusLine } from './UserStatus'
import { ProfileFacts } from './ProfileFields'

const roles: Record<number, string> = { 100: 'Organization owner', 200: 'Organization administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' }
const presenceWords = { active: 'Active now', idle: 'Idle', offline: 'Offline' }

export function localTime(timezone: string, now = new Date()): string {
  try {
    return now.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZone: timezone })
  } catch {
    return ''
  }
}

// showUserCard opens a person's card below an element: the u key's way to
// the selected message's sender, who may have no name on screen to click.
let showCard: ((id: number, anchor: HTMLElement) => void) | null = null
export const showUserCard = (id: number, anchor: HTMLElement) => showCard?.(id, anchor)

export function UserCards(p: { chat: Chat }) {
  const { chat } = p
  const [open, setOpen] = useState<{ id: number; x: number; y: number } | null>(null)
  const card = useRef<HTMLDivElement>(null)
  const opener = useRef<HTMLElement | null>(null) // gets the focus back when the card closes by Esc
  useEffect(() => {
    const show = (id: number, el: HTMLElement) => {
      const r = el.getBoundingClientRect()
      opener.current = el
      setOpen({ id, x: Math.min(r.left, innerWidth - 300), y: Math.min(r.bottom + 4, innerHeight - 280) })
    }
    showCard = show
    const openFrom = (e: Event) => {
      const el = (e.target as HTMLElement).closest?.('[data-user-id]') as HTMLElement | null
      if (!el || el.closest('.user-card')) return false
      e.preventDefault()
      show(Number(el.dataset.userId), el)
      return true
    }
    const onClick = (e: MouseEvent) => {
      if (openFrom(e)) return
      if (card.current && !card.current.contains(e.target as Node)) setOpen(null)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && card.current) { e.stopPropagation(); setOpen(null); opener.current?.focus() }
      if ((e.key === 'Enter' || e.key === ' ') && openFrom(e)) e.stopPropagation()
    }
    addEventListener('click', onClick, true)
    addEventListener('keydown', onKey, true)
    return () => { showCard = null; removeEventListener('click', onClick, true); removeEventListener('keydown', onKey, true) }
  }, [])
  useEffect(() => { (card.current?.querySelector('button, a') as HTMLElement | null)?.focus() }, [open?.id])
  const u = open && chat.users.get(open.id)
  if (!open || !u) return null
  const presence = u.user_id === chat.me.user_id ? 'active' : chat.presenceOf(u.email)
  const tz = (u as { timezone?: string }).timezone ?? ''
  const time = tz ? localTime(tz) : ''
  const go = (hash: string) => { setOpen(null); location.hash = hash }
  return (
    <div class="user-card" data-testid="user-card" role="dialog" aria-label={u.full_name} ref={card} style={{ left: `${open.x}px`, top: `${open.y}px` }}>
      <div class="user-card-head">
        <img class="avatar large" src={u.avatar_url ?? `/avatar/${u.user_id}`} alt="" />
        <div>
          <div class="user-card-name" data-testid="user-card-name">{u.full_name}</div>
          <div class="hint" data-testid="user-card-email">{u.email}</div>
          <StatusLine chat={chat} userId={u.user_id} />
        </div>
      </div>
      <dl class="user-card-facts">
        <dt>Role</dt><dd data-testid="user-card-role">{u.is_bot ? 'Bot' : roles[u.role ?? 400] ?? 'Member'}</dd>
        <dt>Status</dt><dd data-testid="user-card-presence"><span class={`dot ${presence}`} aria-hidden="true" /> {presenceWords[presence]}</dd>
        {time && <><dt>Local time</dt><dd data-testid="user-card-time">{time} ({tz})</dd></>}
        <ProfileFacts chat={chat} user={u} />
      </dl>
      <div class="user-card-actions">
        <button class="primary" data-testid="user-card-dm" onClick={() => go(narrowToHash({ kind: 'pm', emails: [u.email] }))}>Send a direct message</button>
        <button data-testid="user-card-messages" onClick={() => go(narrowToHash({ kind: 'search', query: `sender:${u.email}` }))}>View messages sent</button>
      </div>
    </div>
  )
}
