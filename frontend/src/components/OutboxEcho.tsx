import type { Chat } from '../state/chat'
import type { Narrow } from '../state/narrow'
import type { Outbox } from '../state/outbox'
import type { OutgoingMessage } from '../api/zulip'

// shownIn says whether a message being sent belongs to the conversation
// on screen.
export function shownIn(n: Narrow, i: OutgoingMessage): boolean {
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()
  switch (n.kind) {
    case 'all': return true
    case 'stream': return i.kind === 'stream' && same(i.stream, n.stream) && (n.topic === undefined || same(i.topic, n.topic))
    case 'pm': return i.kind === 'pm' && [...i.to].map((e) => e.toLowerCase()).sort().join(',') === [...n.emails].map((e) => e.toLowerCase()).sort().join(',')
    case 'private': return i.kind === 'pm'
  }
  return false
}

// OutboxEcho shows my messages the server has not confirmed yet below the
// conversation, as Zulip's local echo does: "sending…" while the server is
// away, or why it refused one, with Retry and Discard.
export function OutboxEcho(p: { chat: Chat; outbox: Outbox; narrow: Narrow }) {
  const items = p.outbox.items().filter((i) => shownIn(p.narrow, i))
  if (!items.length) return null
  return (
    <div class="outbox-echo" data-testid="outbox">
      {items.map((i) => (
        <div class={`message local-echo ${i.error ? 'failed' : ''}`} data-testid="outbox-message" data-local-id={i.localId}>
          <div class="gutter"><img class="avatar" src={p.chat.me.avatar_url ?? `/avatar/${p.chat.me.user_id}`} alt="" /></div>
          <div class="body">
            <div class="meta">
              <span class="sender">{p.chat.me.full_name}</span>
              {i.error ? <span class="form-error" data-testid="outbox-error">Not sent: {i.error}</span>
                : <span class="sending" data-testid="outbox-sending">{p.chat.connected ? 'sending…' : 'waiting for the server…'}</span>}
            </div>
            <div class="content local">{i.content}</div>
            {i.error && <div class="row">
              <button data-testid="outbox-retry" onClick={() => p.outbox.retry(i.localId)}>Retry</button>
              <button data-testid="outbox-discard" onClick={() => p.outbox.discard(i.localId)}>Discard</button>
            </div>}
          </div>
        </div>
      ))}
    </div>
  )
}
