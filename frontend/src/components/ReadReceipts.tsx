import { useEffect, useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import { readReceipts } from '../api/zulip'

// ReadReceipts is Zulip's "Read receipts" dialog: who has read a message.
export function ReadReceipts(p: { chat: Chat; messageId: number; onClose: () => void }) {
  const [readers, setReaders] = useState<number[] | null>(null)
  const [error, setError] = useState('')
  useEffect(() => { readReceipts(p.messageId).then(setReaders, (e) => setError(explain(e))) }, [p.messageId])
  const names = (readers ?? []).map((id) => p.chat.users.get(id)?.full_name ?? `User ${id}`).sort((a, b) => a.localeCompare(b))
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" role="dialog" aria-label="Read receipts" data-testid="read-receipts" onClick={(e) => e.stopPropagation()}>
        <header><h2>Read receipts</h2><button class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
        {error && <p class="form-error">{error}</p>}
        {readers === null && !error && <p class="hint">Loading…</p>}
        {readers !== null && <p class="hint" data-testid="read-receipts-count">{readers.length === 1 ? 'This message has been read by 1 person:' : `This message has been read by ${readers.length} people${readers.length ? ':' : '.'}`}</p>}
        <ul class="read-receipts-list">{names.map((n) => <li data-testid="read-receipt">{n}</li>)}</ul>
      </div>
    </div>
  )
}
