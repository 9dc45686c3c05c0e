import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import { showEmojiChars } from '../state/emoji'
import { cancelScheduledMessage, scheduleMessage, type OutgoingMessage, type ScheduledMessage } from '../api/zulip'

// localInputValue is a time as a datetime-local field shows it.
function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

// tomorrowAtNine is Zulip's first suggestion for a scheduled message.
function tomorrowAtNine(): Date {
  const d = new Date()
  d.setDate(d.getDate() + 1)
  d.setHours(9, 0, 0, 0)
  return d
}

export const deliveryTime = (ts: number) => new Date(ts * 1000).toLocaleString([], { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })

// ScheduleButton schedules the compose box's message for a time chosen in
// a small popover (Zulip's "Schedule message" beside Send).
export function ScheduleButton(p: { chat: Chat; outgoing: () => OutgoingMessage | null; onScheduled: () => void }) {
  const { chat } = p
  const [open, setOpen] = useState(false)
  const [when, setWhen] = useState(() => localInputValue(tomorrowAtNine()))
  const [error, setError] = useState('')
  const schedule = async () => {
    const m = p.outgoing()
    if (!m) return
    const at = Math.floor(new Date(when).getTime() / 1000)
    if (!at) return setError('Choose a date and time.')
    try {
      const userIds = m.to.map((e) => chat.byEmail.get(e)?.user_id).filter((x): x is number => x !== undefined)
      await scheduleMessage(m, chat.subByName(m.stream)?.stream_id, userIds, at)
      setOpen(false)
      setError('')
      p.onScheduled()
    } catch (e) {
      setError(explain(e))
    }
  }
  return (
    <span class="schedule-wrap">
      <button data-testid="compose-schedule" title="Schedule message" aria-label="Schedule message" aria-expanded={open} onClick={() => setOpen(!open)}>⏰</button>
      {open && (
        <div class="menu schedule-popover" data-testid="schedule-popover" role="dialog" aria-label="Schedule message">
          <label>Send at <input type="datetime-local" step={1} data-testid="schedule-time" value={when} onInput={(e) => setWhen((e.target as HTMLInputElement).value)} /></label>
          <button class="primary" data-testid="schedule-confirm" onClick={schedule}>Schedule</button>
          {error && <span class="form-error" data-testid="schedule-error">{error}</span>}
        </div>
      )}
    </span>
  )
}

// ScheduledMessages lists my scheduled messages, soonest first, each with
// where and when it goes, and a button to cancel it.
export function ScheduledMessages(p: { chat: Chat; onClose: () => void }) {
  const { chat } = p
  const [error, setError] = useState('')
  const where = (m: ScheduledMessage) => m.type === 'stream'
    ? `#${chat.subs.get(m.to as number)?.name ?? m.to} › ${m.topic ?? ''}`
    : (m.to as number[]).map((id) => chat.users.get(id)?.full_name ?? id).join(', ')
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" role="dialog" aria-label="Scheduled messages" data-testid="scheduled-panel" onClick={(e) => e.stopPropagation()}>
        <header><h2>Scheduled messages</h2><button class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
        {error && <p class="form-error">{error}</p>}
        {!chat.scheduled.length && <p class="empty">No scheduled messages.</p>}
        <ul class="scheduled-list">
          {chat.scheduled.map((m) => (
            <li data-testid="scheduled-row" data-id={m.scheduled_message_id} class={m.failed ? 'failed' : ''}>
              <div class="scheduled-head"><strong>{where(m)}</strong> <span class="hint">{m.failed ? 'could not be sent' : deliveryTime(m.scheduled_delivery_timestamp)}</span></div>
              <div class="rendered" dangerouslySetInnerHTML={{ __html: showEmojiChars(m.rendered_content) }} />
              <button class="danger" data-testid="scheduled-cancel" onClick={() => cancelScheduledMessage(m.scheduled_message_id).catch((e) => setError(explain(e)))}>Cancel</button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
