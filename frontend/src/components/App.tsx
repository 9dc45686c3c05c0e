import { useEffect, useMemo, useState } from 'preact/hooks'
import { api } from '../api/transport'
import { desktop } from '../api/desktop'
import { resume, setupNeeded, signOut, type Me } from '../api/session'
import { Chat } from '../state/chat'
import { hashToNarrow, narrowTitle, narrowToHash, type Narrow } from '../state/narrow'
import { titleWithUnreads } from '../state/unread'
import { BuddyList } from './BuddyList'
import { DraftStore } from '../state/drafts'
import { Compose, useComposeDraft } from './Compose'
import { Drafts } from './Drafts'
import { HostPanel } from './HostPanel'
import { Login, Setup } from './Login'
import { MessageList } from './MessageList'
import { Settings, type Theme } from './Settings'
import { Sidebar } from './Sidebar'

type Screen = { kind: 'loading' } | { kind: 'setup' } | { kind: 'login'; realm: string } | { kind: 'chat'; me: Me }

function useTheme(): [Theme, (t: Theme) => void] {
  const initial = (localStorage.getItem('lanchat.theme') as Theme | null) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
  const [theme, setTheme] = useState<Theme>(initial)
  useEffect(() => {
    document.documentElement.dataset.theme = theme
    localStorage.setItem('lanchat.theme', theme)
  }, [theme])
  return [theme, setTheme]
}

export function App() {
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' })
  const [theme, setTheme] = useTheme()
  useEffect(() => {
    (async () => {
      if (await setupNeeded().catch(() => false)) return setScreen({ kind: 'setup' })
      const me = await resume()
      if (me) return setScreen({ kind: 'chat', me })
      const settings = await api.get('/api/v1/server_settings').catch(() => ({ realm_name: 'Lanchat' }))
      setScreen({ kind: 'login', realm: settings.realm_name })
    })()
  }, [])
  switch (screen.kind) {
    case 'loading': return <div class="card-page"><p>Loading…</p></div>
    case 'setup': return <Setup onDone={(me) => setScreen({ kind: 'chat', me })} />
    case 'login': return <Login realm={screen.realm} onDone={(me) => setScreen({ kind: 'chat', me })} />
    case 'chat': return <ChatScreen theme={theme} setTheme={setTheme} onSignOut={async () => {
      await signOut()
      setScreen({ kind: 'login', realm: document.title.replace(/^\(\d+\) /, '') })
    }} />
  }
}

function ChatScreen(p: { theme: Theme; setTheme: (t: Theme) => void; onSignOut: () => void }) {
  const chat = useMemo(() => new Chat(), [])
  const [, setVersion] = useState(0)
  const [ready, setReady] = useState(false)
  const [failed, setFailed] = useState('')
  const [narrow, setNarrow] = useState<Narrow>(hashToNarrow(location.hash))
  const drafts = useMemo(() => new DraftStore(localStorage), [])
  const compose = useComposeDraft(drafts)
  const [focus, setFocus] = useState(0)
  const [selected, setSelected] = useState(0)
  const [panel, setPanel] = useState<'settings' | 'host' | 'drafts' | null>(null)
  const [search, setSearch] = useState(narrow.kind === 'search' ? narrow.query : '')

  useEffect(() => {
    const off = chat.onChange(() => setVersion((v) => v + 1))
    chat.register().then(() => setReady(true), (e) => setFailed((e as Error).message))
    const onHash = () => setNarrow(hashToNarrow(location.hash))
    addEventListener('hashchange', onHash)
    return () => { off(); chat.close(); removeEventListener('hashchange', onHash) }
  }, [])

  // Presence: active while the page is visible, idle when hidden.
  useEffect(() => {
    if (!ready) return
    const report = () => api.post('/api/v1/users/me/presence', { status: document.visibilityState === 'visible' ? 'active' : 'idle', new_user_input: true })
      .then((r) => { for (const [email, pr] of Object.entries(r.presences ?? {})) chat.apply({ type: 'presence', email, presence: pr }); chat.changed() }).catch(() => {})
    report()
    const timer = setInterval(report, 60000)
    document.addEventListener('visibilitychange', report)
    return () => { clearInterval(timer); document.removeEventListener('visibilitychange', report) }
  }, [ready])

  useEffect(() => {
    if (!ready) return
    chat.load(narrow)
    if (narrow.kind === 'stream') {
      chat.loadTopics(narrow.streamId).catch(() => {})
      compose.retarget((d) => ({ ...d, kind: 'stream', stream: narrow.stream, topic: narrow.topic ?? (d.stream === narrow.stream ? d.topic : '') }))
    }
    if (narrow.kind === 'pm') compose.retarget((d) => ({ ...d, kind: 'pm', to: narrow.emails.join(', ') }))
  }, [ready, narrowToHash(narrow)])

  const unread = ready ? chat.unreads.total(chat.mute) : 0
  useEffect(() => { document.title = titleWithUnreads(unread, chat.realmName) }, [unread, chat.realmName])

  const go = (n: Narrow) => { location.hash = narrowToHash(n) }
  const reply = (id: number) => {
    const m = chat.messages.get(id)
    if (!m) return
    if (m.type === 'stream') compose.retarget((d) => ({ ...d, kind: 'stream', stream: chat.subs.get(m.stream_id!)?.name ?? String(m.display_recipient), topic: m.subject }))
    else compose.retarget((d) => ({ ...d, kind: 'pm', to: (m.display_recipient as { email: string }[]).map((r) => r.email).filter((e) => e !== chat.me.email).join(', ') || chat.me.email }))
    setFocus(Date.now())
  }

  // Zulip's keys, ignored while typing in a field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typingInField = (e.target as HTMLElement).closest('input, textarea, select, [contenteditable]')
      if (e.key === 'Escape') {
        if (panel) return setPanel(null)
        if (typingInField) return (e.target as HTMLElement).blur()
        return
      }
      if (typingInField || e.ctrlKey || e.metaKey || e.altKey) return
      const ids = chat.view.ids
      const at = ids.indexOf(selected)
      switch (e.key) {
        case 'c': e.preventDefault(); compose.update((d) => ({ ...d, kind: 'stream' })); setFocus(Date.now()); break
        case 'x': e.preventDefault(); compose.update((d) => ({ ...d, kind: 'pm' })); setFocus(Date.now()); break
        case 'd': e.preventDefault(); setPanel('drafts'); break
        case 'r': if (selected) { e.preventDefault(); reply(selected) } break
        case '/': e.preventDefault(); (document.querySelector('[data-testid=search-input]') as HTMLInputElement)?.focus(); break
        case 'n': {
          const cur = narrow.kind === 'stream' ? narrow : null
          const next = chat.unreads.firstUnreadTopic((s, t) => !cur || s !== cur.streamId || t.toLowerCase() !== (cur.topic ?? '').toLowerCase(), chat.mute)
          if (next) go({ kind: 'stream', streamId: next.streamId, stream: chat.subs.get(next.streamId)?.name ?? '', topic: next.topic })
          break
        }
        case 'ArrowDown': case 'j': if (ids.length) { e.preventDefault(); setSelected(ids[Math.min(at + 1, ids.length - 1)] ?? ids[0]) } break
        case 'ArrowUp': case 'k': if (ids.length) { e.preventDefault(); setSelected(ids[at <= 0 ? 0 : at - 1] ?? ids[ids.length - 1]) } break
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  })
  useEffect(() => { document.querySelector(`[data-message-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' }) }, [selected])

  if (failed) return <div class="card-page"><p class="form-error">Could not load: {failed}</p></div>
  if (!ready) return <div class="card-page"><p>Loading…</p></div>
  return (
    <div class="app">
      <header class="topbar">
        <a class="brand" href="#all"><img src="/static/images/realm-icon.svg" alt="" />{chat.realmName}</a>
        <form class="search" onSubmit={(e) => { e.preventDefault(); if (search.trim()) go({ kind: 'search', query: search.trim() }) }}>
          <input data-testid="search-input" type="search" placeholder="Search messages" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </form>
        {!chat.connected && <span class="offline-note">Reconnecting…</span>}
        {desktop() && <button data-testid="host-button" onClick={() => setPanel('host')}>Host</button>}
        <button data-testid="settings-button" onClick={() => setPanel('settings')} title="Settings">⚙</button>
        <span class="me">{chat.me.full_name}</span>
        <button data-testid="logout" onClick={() => { chat.close(); p.onSignOut() }}>Sign out</button>
      </header>
      <Sidebar chat={chat} narrow={narrow} drafts={drafts.list().length} onDrafts={() => setPanel('drafts')} />
      <main class="center">
        <h2 class="narrow-title" data-testid="narrow-title">{narrowTitle(narrow)}</h2>
        <MessageList chat={chat} selected={selected} onSelect={setSelected} />
        <Compose chat={chat} compose={compose} focus={focus} />
      </main>
      <BuddyList chat={chat} />
      {panel === 'settings' && <Settings chat={chat} theme={p.theme} setTheme={p.setTheme} onClose={() => setPanel(null)} />}
      {panel === 'host' && <HostPanel onClose={() => setPanel(null)} />}
      {panel === 'drafts' && <Drafts chat={chat} store={drafts} onClose={() => setPanel(null)} onRestore={(saved) => {
        setPanel(null)
        compose.restore(saved)
        const stream = [...chat.subs.values()].find((s) => s.name.toLowerCase() === saved.stream.trim().toLowerCase())
        const emails = saved.to.split(',').map((e) => e.trim()).filter(Boolean).sort()
        if (saved.kind === 'stream' && stream) go({ kind: 'stream', streamId: stream.stream_id, stream: stream.name, topic: saved.topic })
        if (saved.kind === 'pm' && emails.length) go({ kind: 'pm', emails })
        setFocus(Date.now())
      }} />}
    </div>
  )
}
