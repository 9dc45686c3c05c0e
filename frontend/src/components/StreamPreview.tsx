// The bar offering to subscribe while one previews a stream one is not in,
// and the subscription calls and Esc handling the stream panels share. Kept
// apart from the panels, which load on first use.
import { useEffect, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import type { Narrow } from '../state/narrow'

// useEscape closes an overlay on Esc (the app's own key handler closes only
// its panels).
export function useEscape(onClose: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose() }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [onClose])
}

export const subscribeTo = (name: string) => zulip.subscribe([{ name }])
export const unsubscribeFrom = (name: string) => zulip.unsubscribe(name)

// StreamPreview offers to subscribe while one reads a stream one is not in
// (Zulip lets people preview public streams).
export function StreamPreview(p: { chat: Chat; narrow: Narrow }) {
  const [error, setError] = useState('')
  const n = p.narrow
  if (n.kind !== 'stream' || p.chat.subs.has(n.streamId)) return null
  return (
    <div class="preview-bar" data-testid="stream-preview">
      <span>You are previewing <b>#{n.stream}</b>; you are not subscribed.</span>
      <button class="primary" data-testid="preview-subscribe" onClick={() => subscribeTo(n.stream).catch((e: unknown) => setError(explain(e)))}>Subscribe</button>
      {error && <span class="form-error" role="alert">{error}</span>}
    </div>
  )
}
