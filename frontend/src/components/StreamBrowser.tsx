// The stream browser (all streams one may see, subscribed or not, with
// subscribe and unsubscribe) and stream creation, as in Zulip.
import { useEffect, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { textOn, unsubscribedColor } from '../state/color'
import { narrowToHash } from '../state/narrow'
import { subscribeTo, unsubscribeFrom, useEscape } from './StreamPreview'
import { limits } from '../state/limits'


export function StreamBrowser(p: { chat: Chat; onClose: () => void; onSettings: (streamId: number) => void }) {
  const { chat } = p
  const [streams, setStreams] = useState<zulip.Stream[]>([])
  const [counts, setCounts] = useState<Map<number, number>>(new Map())
  const [filter, setFilter] = useState('')
  const [tab, setTab] = useState<'all' | 'subscribed' | 'create'>('all')
  const [error, setError] = useState('')
  useEscape(p.onClose)
  // The subscriber counts follow the list, one request per stream.
  const reload = () => zulip.streams().then((list) => {
    setStreams(list)
    Promise.all(list.map(async (s) => [s.stream_id, (await zulip.streamSubscribers(s.stream_id)).length] as const))
      .then((pairs) => setCounts(new Map(pairs)), (e) => setError(explain(e)))
  }, (e) => setError(explain(e)))
  useEffect(() => { reload() }, [chat.subs.size])
  const act = (f: () => Promise<unknown>) => { setError(''); f().catch((e) => setError(explain(e))) }
  const shown = streams
    .filter((s) => tab !== 'subscribed' || chat.subs.has(s.stream_id))
    .filter((s) => `${s.name} ${s.description}`.toLowerCase().includes(filter.trim().toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name))
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel wide" data-testid="stream-browser" role="dialog" aria-label="Streams" onClick={(e) => e.stopPropagation()}>
        <header><h2>Streams</h2><button class="icon" onClick={p.onClose} aria-label="Close" title="Close">✕</button></header>
        <div class="tabs" role="tablist">
          {([['all', 'All streams'], ['subscribed', 'Subscribed'], ['create', 'Create stream']] as const).map(([id, label]) => (
            <button role="tab" aria-selected={tab === id} class={tab === id ? 'on' : ''} data-testid={`streams-tab-${id}`} onClick={() => setTab(id)}>{label}</button>
          ))}
        </div>
        {error && <p class="form-error" role="alert" data-testid="streams-error">{error}</p>}
        {tab === 'create' ? <CreateStream chat={chat} onCreated={(id, name) => { reload(); p.onClose(); location.hash = narrowToHash({ kind: 'stream', streamId: id, stream: name }) }} /> : <>
          <input type="search" data-testid="browse-filter" aria-label="Filter streams" placeholder="Filter streams" value={filter}
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
          <ul class="stream-browser-list">
            {shown.map((s) => {
              const sub = chat.subs.get(s.stream_id)
              return (
                <li data-testid="browse-stream" data-stream={s.name} data-subscribed={sub ? 'true' : 'false'} key={s.stream_id}>
                  <span class="swatch" style={{ background: sub?.color ?? unsubscribedColor, color: textOn(sub?.color ?? unsubscribedColor) }} aria-hidden="true">{s.invite_only ? '🔒' : '#'}</span>
                  <span class="browse-name">
                    <a href={narrowToHash({ kind: 'stream', streamId: s.stream_id, stream: s.name })} onClick={p.onClose}>{s.name}</a>
                    <span class="hint">{s.description || 'No description.'}</span>
                  </span>
                  <span class="hint" data-testid="browse-count">{counts.get(s.stream_id) ?? ''} {counts.get(s.stream_id) === 1 ? 'subscriber' : 'subscribers'}</span>
                  {(sub || chat.isAdmin) && <button class="icon" data-testid="browse-settings" aria-label={`Settings for #${s.name}`} title="Stream settings" onClick={() => p.onSettings(s.stream_id)}>⚙</button>}
                  <button class={sub ? '' : 'primary'} data-testid="browse-toggle" aria-label={`${sub ? 'Unsubscribe from' : 'Subscribe to'} #${s.name}`}
                    onClick={() => act(() => (sub ? unsubscribeFrom(s.name) : subscribeTo(s.name)).then(reload))}>
                    {sub ? 'Unsubscribe' : 'Subscribe'}
                  </button>
                </li>
              )
            })}
            {!shown.length && <li class="hint">{filter ? 'No stream matches.' : 'No streams yet.'}</li>}
          </ul>
        </>}
      </div>
    </div>
  )
}

function CreateStream(p: { chat: Chat; onCreated: (id: number, name: string) => void }) {
  const { chat } = p
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [priv, setPriv] = useState(false)
  const [find, setFind] = useState('')
  const [members, setMembers] = useState<Set<number>>(new Set([chat.me.user_id]))
  const [error, setError] = useState('')
  const people = [...chat.users.values()].filter((u) => u.is_active !== false && !u.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name))
  const matching = people.filter((u) => `${u.full_name} ${u.email}`.toLowerCase().includes(find.trim().toLowerCase()))
  const toggle = (id: number) => { const next = new Set(members); if (next.has(id)) next.delete(id); else next.add(id); setMembers(next) }
  const submit = async (e: Event) => {
    e.preventDefault()
    setError('')
    if (!name.trim()) return setError('Give the stream a name.')
    try {
      const principals = [...members].map((id) => chat.users.get(id)?.email).filter((e): e is string => !!e)
      await zulip.subscribe([{ name: name.trim(), description: description.trim() }], { invite_only: priv, principals })
      p.onCreated(await zulip.streamId(name.trim()), name.trim())
    } catch (err) {
      setError(explain(err))
    }
  }
  return (
    <form class="create-stream" data-testid="create-stream" onSubmit={submit}>
      <label class="field">Stream name<input data-testid="create-stream-name" value={name} maxLength={limits.streamName} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
      <label class="field">Description<input data-testid="create-stream-description" maxLength={limits.streamDescription} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} /></label>
      <fieldset class="choices">
        <legend>Who can join</legend>
        <label><input type="radio" name="privacy" checked={!priv} onChange={() => setPriv(false)} /> Public: anyone in the organization can find and join it</label>
        <label><input type="radio" name="privacy" data-testid="create-stream-private" checked={priv} onChange={() => setPriv(true)} /> Private: only subscribers see it; members must be added</label>
      </fieldset>
      <fieldset class="choices">
        <legend>Members ({members.size})</legend>
        <input type="search" data-testid="create-stream-find" aria-label="Find people to add" placeholder="Find people by name" value={find} onInput={(e) => setFind((e.target as HTMLInputElement).value)} />
        <div class="member-picks">
          {matching.map((u) => (
            <label data-testid="create-stream-member" data-email={u.email}>
              <input type="checkbox" checked={members.has(u.user_id)} onChange={() => toggle(u.user_id)} /> {u.full_name} <span class="hint">{u.email}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {error && <p class="form-error" role="alert" data-testid="create-stream-error">{error}</p>}
      <div><button class="primary" data-testid="create-stream-submit">Create stream</button></div>
    </form>
  )
}
