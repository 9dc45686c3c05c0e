// One stream's settings: the subscriber's own (color, mute, pin,
// notifications) and, for administrators, the stream's name, description
// and privacy, subscribed to it or not.
import { useEffect, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { textOn, unsubscribedColor } from '../state/color'
import type { Subscription } from '../state/types'
import { subscribeTo, unsubscribeFrom, useEscape } from './StreamPreview'
import { limits } from '../state/limits'
import { SavedCheckbox } from './SavedCheckbox'

type Sub = Subscription & { push_notifications?: boolean | null }

// What an administrator sees of a stream they are not subscribed to.
type StreamDetails = Pick<Subscription, 'stream_id' | 'name' | 'description' | 'invite_only'>

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
  const sub = p.chat.subs.get(p.streamId) as Sub | undefined
  const [other, setOther] = useState<StreamDetails | null>(null)
  // A stream one is not subscribed to is known from the stream list (an
  // administrator's, reached from the stream browser).
  const lookUp = () => zulip.streams().then((all) => setOther(all.find((s) => s.stream_id === p.streamId) ?? null), () => {})
  useEffect(() => { if (!sub) lookUp() }, [!sub])
  const stream = sub ?? other
  return stream ? <StreamSettingsPanel chat={p.chat} stream={stream} sub={sub} onChanged={lookUp} onClose={p.onClose} /> : null
}

function StreamSettingsPanel(p: { chat: Chat; stream: StreamDetails; sub?: Sub; onChanged: () => void; onClose: () => void }) {
  const { chat, stream, sub } = p
  const [name, setName] = useState(stream.name)
  const [description, setDescription] = useState(stream.description)
  const [priv, setPriv] = useState(stream.invite_only)
  const [status, setStatus] = useState('')
  const [error, setError] = useState('')
  const [archiving, setArchiving] = useState(false)
  useEscape(p.onClose)
  const color = sub?.color ?? unsubscribedColor
  // act resolves to whether f succeeded.
  const act = (f: () => Promise<unknown>, done = '') => {
    setError(''); setStatus('')
    return f().then(() => { setStatus(done); return true }, (e) => { setError(explain(e)); return false })
  }
  const setProperty = (property: string, value: unknown) =>
    act(() => zulip.setSubscriptionProperty(stream.stream_id, property, value))
  const current = (k: keyof Sub) => {
    const v = sub?.[k]
    if (v === null || v === undefined) return !!(defaults[k] && chat.userSettings[defaults[k]!])
    return !!v
  }
  const save = (e: Event) => {
    e.preventDefault()
    const change: Record<string, unknown> = {}
    if (name.trim() !== stream.name) change.new_name = name.trim()
    if (description.trim() !== stream.description) change.description = description.trim()
    if (priv !== stream.invite_only) change.is_private = priv
    if (!Object.keys(change).length) return setStatus('Nothing to save.')
    // A subscriber hears of the change as an event; anyone else looks again.
    act(() => zulip.updateStream(stream.stream_id, change).then(() => { if (!sub) p.onChanged() }), 'Saved.')
  }
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" data-testid="stream-settings" role="dialog" aria-label={`Settings for #${stream.name}`} onClick={(e) => e.stopPropagation()}>
        <header>
          <h2><span class="swatch" style={{ background: color, color: textOn(color) }} aria-hidden="true">{stream.invite_only ? '🔒' : '#'}</span> {stream.name}</h2>
          <button class="icon" onClick={p.onClose} aria-label="Close" title="Close">✕</button>
        </header>
        <p class="hint">{stream.description || 'No description.'}</p>
        {sub ? <section>
          <h3>Personal settings</h3>
          <label class="check"><span>Stream color</span>
            <input type="color" data-testid="stream-color" value={color} onChange={(e) => setProperty('color', (e.target as HTMLInputElement).value)} />
          </label>
          {toggles.map(([k, label, hint]) => (
            <label class="check" key={k}>
              <SavedCheckbox testid={`stream-${k}`} checked={current(k)} save={(checked) => setProperty(k, checked)} />
              <span>{label}{hint && <span class="hint"> — {hint}</span>}</span>
            </label>
          ))}
        </section> : <section><p class="hint" data-testid="stream-not-subscribed">You are not subscribed to this stream.</p></section>}
        {chat.isAdmin && (
          <section>
            <h3>Stream details (administrators)</h3>
            <form class="stack" onSubmit={save}>
              <label class="field">Name<input data-testid="stream-name" maxLength={limits.streamName} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
              <label class="field">Description<input data-testid="stream-description" maxLength={limits.streamDescription} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} /></label>
              <label class="check"><input type="checkbox" data-testid="stream-private" checked={priv} onChange={(e) => setPriv((e.target as HTMLInputElement).checked)} /><span>Private: only subscribers can see it</span></label>
              <div><button class="primary" data-testid="stream-save">Save changes</button></div>
            </form>
          </section>
        )}
        <section class="row">
          {sub ? <button data-testid="stream-unsubscribe" onClick={() => act(() => unsubscribeFrom(stream.name).then(p.onClose))}>Unsubscribe</button>
            : <button class="primary" data-testid="stream-subscribe" onClick={() => act(() => subscribeTo(stream.name))}>Subscribe</button>}
          {chat.isAdmin && <span class="archive">
            {archiving ? <>
              <span>Archive #{stream.name} for everyone? Its messages are no longer shown.</span>
              <button class="danger" data-testid="stream-archive-confirm" onClick={() => act(() => zulip.archiveStream(stream.stream_id).then(p.onClose))}>Archive</button>
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
