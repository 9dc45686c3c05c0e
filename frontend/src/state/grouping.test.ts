import { describe, expect, it } from 'vitest'
import { groupRows } from './grouping'
import type { Message } from './types'

const base = Date.UTC(2026, 10, 20, 12) / 1000
function msg(id: number, over: Partial<Message>): Message {
  return { id, sender_id: 1, sender_email: 'a@x', sender_full_name: 'A', content: '', subject: 't', type: 'stream',
    stream_id: 1, display_recipient: 's', timestamp: base + id * 60, reactions: [], flags: [], ...over }
}

describe('groupRows', () => {
  it('adds day dividers and recipient bars where they change', () => {
    const rows = groupRows([
      msg(1, {}),
      msg(2, {}),
      msg(3, { subject: 'other' }),
      msg(4, { timestamp: base + 86400 }),
    ], new Date((base + 86400) * 1000))
    expect(rows.map((r) => r.kind)).toEqual(['day', 'recipient', 'message', 'message', 'recipient', 'message', 'day', 'recipient', 'message'])
    expect((rows[6] as any).label).toBe('Today')
  })
  it('treats topics case-insensitively and continues a sender within five minutes', () => {
    const rows = groupRows([msg(1, {}), msg(2, { subject: 'T' }), msg(3, { sender_id: 2 }), msg(30, { sender_id: 2 })])
    const messages = rows.filter((r) => r.kind === 'message') as any[]
    expect(rows.filter((r) => r.kind === 'recipient')).toHaveLength(1)
    expect(messages.map((r) => r.continued)).toEqual([false, true, false, false])
  })
  it('groups private conversations by participants', () => {
    const a = [{ id: 1, email: 'a@x', full_name: 'A' }, { id: 2, email: 'b@x', full_name: 'B' }]
    const rows = groupRows([msg(1, { type: 'private', display_recipient: a }), msg(2, { type: 'private', display_recipient: [...a].reverse() })])
    expect(rows.filter((r) => r.kind === 'recipient')).toHaveLength(1)
  })
})
