// One stream's settings: the subscriber's own (color, mute, pin,
// notifications) and, for administrators, the stream's name, description
// and privacy.
import { useState } from 'preact/hooks'
import { api } from '../api/transport'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { textOn } from '../state/color'
import type { Subscription } from '../state/types'
import { unsubscribeFrom, useEscape } from './StreamPreview'

type Sub = Subscription & { push_notifications?: boolean | null }

const toggles: [keyof Sub, string, string][] = [
  ['is_muted', 'Mute the stream', 'Its messages leave All messages and unread counts'],
  ['pin_to_top', 'Pin to the top of the stream list', ''],
  ['desktop_notifications', 'Desktop notifications', 'A notification for each new message'],
  ['audible_notifications', 'Audible notifications', 'A sound for each new message'],
  ['push_notifications', 'Mobile push notifications', ''],
]

// A notification setting left unset follows the account's default.
const defaults: Partial<Record<keyof Sub, string>> = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_online_push_notifications',
}

export function StreamSettings(p: { chat: Chat; streamId: number; onClose: () => void }) {
  const { chat } = p
  const sub = chat.subs.get(p.streamId) as Sub | undefined
  const [name, setName] = useState(sub?.name ?? '')
  const [description, setDescription] = useState(sub?.description ?? '')
  const [priv, setPriv] = useState(sub?.invite_only ?? false)
  const [status, setStatus] = useState('')
  const [error, setError] = useState('')
  const [archiving, setArchiving] = useState(false)
  useEscape(p.onClose)
  if (!sub) return null
  const act = (f: () => Promise<unknown>, done = '') => { setError(''); setStatus(''); f().then(() => setStatus(done), (e) => setError(explain(e))) }
  const setProperty = (property: string, value: unknown) =>
    act(() => api.post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: sub.stream_id, property, value }] }))
  const current = (k: keyof Sub) => {
    const v = sub[k]
    if (v === null || v === undefined) return !!(defaults[k] && chat.userSettings[defaults[k]!])
    return !!v
  }
  const save = (e: Event) => {
    e.preventDefault()
    const change: Record<string, unknown> = {}
    if (name.trim() !== sub.name) change.new_name = name.trim()
    if (description.trim() !== sub.description) change.description = description.trim()
    if (priv !== sub.invite_only) change.is_private = priv
    if (!Object.keys(change).length) return setStatus('Nothing to save.')
    act(() => api.patch(`/api/v1/streams/${sub.stream_id}`, change), 'Saved.')
  }
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" data-testid="stream-settings" role="dialog" aria-label={`Settings for #${sub.name}`} onClick={(e) => e.stopPropagation()}>
        <header>
          <h2><span class="swatch" style={{ background: sub.color, color: textOn(sub.color) }} aria-hidden="true">{sub.invite_only ? '🔒' : '#'}</span> {sub.name}</h2>
          <button class="icon" onClick={p.onClose} aria-label="Close" title="Close">✕</button>
        </header>
        <p class="hint">{sub.description || 'No description.'}</p>
        <section>
          <h3>Personal settings</h3>
          <label class="check"><span>Stream color</span>
            <input type="color" data-testid="stream-color" value={sub.color} onChange={(e) => setProperty('color', (e.target as HTMLInputElement).value)} />
          </label>
          {toggles.map(([k, label, hint]) => (
            <label class="check" key={k}>
              <input type="checkbox" data-testid={`stream-${k}`} checked={current(k)} onChange={(e) => setProperty(k, (e.target as HTMLInputElement).checked)} />
              <span>{label}{hint && <span class="hint"> — {hint}</span>}</span>
            </label>
          ))}
        </section>
        {chat.isAdmin && (
          <section>
            <h3>Stream details (administrators)</h3>
            <form class="stack" onSubmit={save}>
              <label class="field">Name<input data-testid="stream-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
              <label class="field">Description<input data-testid="stream-description" value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} /></label>
              <label class="check"><input type="checkbox" data-testid="stream-private" checked={priv} onChange={(e) => setPriv((e.target as HTMLInputElement).checked)} /><span>Private: only subscribers can see it</span></label>
              <div><button class="primary" data-testid="stream-save">Save changes</button></div>
            </form>
          </section>
        )}
        <section class="row">
          <button data-testid="stream-unsubscribe" onClick={() => act(() => unsubscribeFrom(sub.name).then(p.onClose))}>Unsubscribe</button>
          {chat.isAdmin && <span class="archive">
            {archiving ? <>
              <span>Archive #{sub.name} for everyone? Its messages are no longer shown.</span>
              <button class="danger" data-testid="stream-archive-confirm" onClick={() => act(() => api.del(`/api/v1/streams/${sub.stream_id}`).then(p.onClose))}>Archive</button>
              <button onClick={() => setArchiving(false)}>Cancel</button>
            </> : <button data-testid="stream-archive" onClick={() => setArchiving(true)}>Archive stream</button>}
          </span>}
        </section>
        {status && <p class="hint" role="status" data-testid="stream-settings-status">{status}</p>}
        {error && <p class="form-error" role="alert" data-testid="stream-settings-error">{error}</p>}
      </div>
    </div>
  )
}
