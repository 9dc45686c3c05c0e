// Grouping of the message list: a day divider where the day changes, and a
// recipient bar (stream › topic, or the private conversation) where the
// recipient changes, as Zulip draws it.
import { dayDate } from './clock'
import type { Message } from './types'

export type Row =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'recipient'; key: string; message: Message }
  | { kind: 'message'; key: string; message: Message; continued: boolean }

function recipientKey(m: Message): string {
  if (m.type === 'stream') return `s:${m.stream_id}:${m.subject.toLowerCase()}`
  return 'p:' + (typeof m.display_recipient === 'string' ? m.display_recipient : m.display_recipient.map((r) => r.id).sort().join(','))
}

export function dayLabel(ts: number, now = new Date()): string {
  const d = new Date(ts * 1000)
  const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString()
  if (sameDay(d, now)) return 'Today'
  const yesterday = new Date(now)
  yesterday.setDate(now.getDate() - 1)
  if (sameDay(d, yesterday)) return 'Yesterday'
  return dayDate(d)
}

// groupRows turns messages (ascending by ID) into rows. A message is
// "continued" when the same sender wrote the previous one in the same group
// within five minutes, so its name and avatar are left out.
export function groupRows(messages: Message[], now = new Date()): Row[] {
  const rows: Row[] = []
  let day = ''
  let recipient = ''
  let prev: Message | null = null
  for (const m of messages) {
    const d = new Date(m.timestamp * 1000).toDateString()
    const r = recipientKey(m)
    let newGroup = false
    if (d !== day) {
      rows.push({ kind: 'day', key: `day-${m.id}`, label: dayLabel(m.timestamp, now) })
      day = d
      newGroup = true
    }
    if (r !== recipient || newGroup) {
      rows.push({ kind: 'recipient', key: `rcp-${m.id}`, message: m })
      recipient = r
      newGroup = true
    }
    const continued = !newGroup && prev !== null && prev.sender_id === m.sender_id && m.timestamp - prev.timestamp < 300
    rows.push({ kind: 'message', key: `m-${m.id}`, message: m, continued })
    prev = m
  }
  return rows
}
