import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { desktop } from '../api/desktop'
import { chime, notify } from '../api/notifier'
import { notificationText } from '../state/notify'
import { invitation, inviteKey, signOut, type Invitation, type Me } from '../api/session'
import { homeHashes, takeEarlyChat, takeSession } from '../state/startup'
import { explain } from '../state/errors'
import { Chat } from '../state/chat'
import { hashToPlace, narrowTitle, narrowToHash, sameNarrow, type Narrow, type Place } from '../state/narrow'
import { titleWithUnreads } from '../state/unread'
import { topicKey } from '../state/conversation'
import { BuddyList } from './BuddyList'
import { DraftStore, recipients } from '../state/drafts'
import { Compose, editLastMessage, useComposeDraft } from './Compose'
import { Drafts } from './Drafts'
import { Join, Login, Setup } from './Login'
import { MessageList } from './MessageList'
import { NotificationBanner } from './NotificationBanner'
import { Recent } from './Recent'
import { SearchBox } from './SearchBox'
import { Lightbox, ShortcutsHelp } from './Shortcuts'
import { Sidebar } from './Sidebar'
import { Lazy } from './Lazy'
import { StreamPreview } from './StreamPreview'
import { showUserCard, UserCards } from './UserCard'
import { useAccountTheme, type Theme } from './AccountTheme'
import { Inbox } from './Inbox'
import { TopicActions } from './TopicActions'
import { OutboxEcho, shownIn } from './OutboxEcho'
import { ScheduledMessages } from './Scheduled'
import { StatusEditor, StatusEmoji } from './UserStatus'
import { Outbox } from '../state/outbox'
import '../workflows.css'

// Inbox is the home view, as in Zulip (since 8.0); Recent conversations the other.
const homeView = (hash: string) => !homeHashes.includes(hash) ? null : hash === '#recent' ? 'recent' as const : 'inbox' as const

type Screen = { kind: 'loading' } | { kind: 'setup' } | { kind: 'login'; realm: string } | { kind: 'join'; key: string; invitation: Invitation }
  | { kind: 'chat'; me: Me }

function useTheme(): [Theme, (t: Theme) => void] {
  // Read once, not at every render of the app.
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('lanchat.theme') as Theme | null) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'))
  useEffect(() => {
    document.documentElement.dataset.theme = theme
    localStorage.setItem('lanchat.theme', theme)
  }, [theme])
  return [theme, setTheme]
}

export function App() {
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' })
  const [theme, setTheme] = useTheme()
  // A layout effect, which runs as the first render ends: an effect would
  // wait for the next frame, and the answers are often already here.
  useLayoutEffect(() => {
    (async () => {
      // Both at once, started as the script ran (startup.ts).
      const session = takeSession()
      const [setup, me] = await Promise.all([session.setup, session.me])
      if (setup) return setScreen({ kind: 'setup' })
      if (me) return setScreen({ kind: 'chat', me })
      // An invitation link's page offers its sign-up; a link that no
      // longer works falls back to signing in.
      const key = inviteKey()
      const offered = key ? await invitation(key).catch(() => null) : null
      if (offered) return setScreen({ kind: 'join', key, invitation: offered })
      if (key) history.replaceState(null, '', '/')
      const settings = await zulip.serverSettings().catch(() => ({ realm_name: 'Lanchat' }))
      setScreen({ kind: 'login', realm: settings.realm_name })
    })()
  }, [])
  switch (screen.kind) {
    case 'loading': return <div class="card-page"><p>Loading…</p></div>
    case 'setup': return <Setup onDone={(me) => setScreen({ kind: 'chat', me })} />
    case 'login': return <Login realm={screen.realm} onDone={(me) => setScreen({ kind: 'chat', me })} />
    case 'join': return <Join inviteKey={screen.key} invitation={screen.invitation} onDone={(me) => setScreen({ kind: 'chat', me })} />
    case 'chat': return <ChatScreen me={screen.me} theme={theme} setTheme={setTheme} onSignOut={async (realm) => {
      await signOut()
      setScreen({ kind: 'login', realm })
    }} />
  }
}

function ChatScreen(p: { me: Me; theme: Theme; setTheme: (t: Theme) => void; onSignOut: (realm: string) => void }) {
  // The chat started loading as the script ran (startup.ts), unless this is a later sign-in.
  const [{ chat, registered, loaded }] = useState(() => takeEarlyChat() ?? { chat: new Chat(), registered: null, loaded: false })
  const [, setVersion] = useState(0)
  // The chat's version as the first render saw it.
  const drawn = useRef(chat.version)
  // Each account's outbox is its own: a message is sent only as who wrote it.
  const outbox = useMemo(() => new Outbox(localStorage, `lanchat.outbox.${p.me.user_id}`,
    (i) => zulip.sendMessage(i, i.queueId || chat.queueId, i.localId), explain, () => setVersion((v) => v + 1)), [])
  const [ready, setReady] = useState(false)
  const [failed, setFailed] = useState('')
  // In a member's window (an app that joined a team hosted elsewhere) the
  // panel is the team's, not a host's.
  const [member, setMember] = useState(false)
  useEffect(() => { desktop()?.HostInfo().then((i) => setMember(!i.running && !!i.joined), () => {}) }, [])
  const [hash, setHash] = useState(location.hash)
  const place = useMemo(() => readPlace(chat, hash), [hash, ready])
  const narrow = place.narrow
  const home = homeView(hash)
  const drafts = useMemo(() => new DraftStore(localStorage), [])
  const compose = useComposeDraft(drafts)
  const [focus, setFocus] = useState(0)
  const [selected, setSelected] = useState(0)
  const [panel, setPanel] = useState<'settings' | 'host' | 'drafts' | 'shortcuts' | 'status' | 'scheduled' | null>(null)
  const [lightbox, setLightbox] = useState<string[] | null>(null)
  const onKeyRef = useRef((_: KeyboardEvent) => {})
  // On a phone the stream list and the people are drawers over the messages.
  const [drawer, setDrawer] = useState<'streams' | 'people' | null>(null)
  const toggleDrawer = (d: 'streams' | 'people') => setDrawer(drawer === d ? null : d)
  // The field shows the search on screen: left for another view it empties,
  // as Zulip's does, rather than stand over messages it did not find.
  const searchOnScreen = !home && narrow.kind === 'search' ? narrow.query : ''
  const [search, setSearch] = useState(searchOnScreen)
  useEffect(() => setSearch(searchOnScreen), [hash])
  const [streamPanel, setStreamPanel] = useState<'browse' | number | null>(null) // the stream browser, or one stream's settings
  useAccountTheme(chat, ready, p.setTheme)

  // A layout effect, so the first messages' arrival is heard at once, not
  // after the next frame.
  useLayoutEffect(() => {
    // The outbox sends what waits in it once the server is back.
    let wasConnected = chat.connected
    const off = chat.onChange(() => {
      setVersion((v) => v + 1)
      if (chat.connected && !wasConnected) outbox.flush()
      wasConnected = chat.connected
    })
    // The early chat may have changed (its messages arrived) between the
    // first render and this subscription; if not, a second render of the
    // whole screen before the first frame would be wasted.
    if (chat.version !== drawn.current) setVersion((v) => v + 1)
    // The first page of messages is fetched beside register, not after it
    // (the early chat's, as the script ran).
    if (!loaded && !homeHashes.includes(location.hash) && place.narrow.kind !== 'search') chat.load(place.narrow, place.near)
    chat.onArrival = (m) => {
      // Only the conversation on screen, in a focused window, is being read:
      // not the last one opened when the landing page shows.
      const focused = document.visibilityState === 'visible' && document.hasFocus()
      const d = chat.notification(m, focused && !homeHashes.includes(location.hash) ? chat.view.narrow : null)
      if (d.show) {
        const { title, body } = notificationText(m, chat.subs.get(m.stream_id ?? -1)?.name ?? '', chat.notifySettings.pm_content_in_desktop_notifications)
        notify(title, body, `${narrowToHash(chat.narrowOf(m))}/near/${m.id}`, `lanchat-${m.id}`)
      }
      if (d.sound) chime()
    }
    // replace: going back should not land on the emptied topic.
    chat.onTopicMoved = (to) => location.replace(narrowToHash(to))
    ;(registered ?? chat.register()).then(() => { setReady(true); outbox.flush() }, (e) => setFailed(explain(e)))
    const onHash = () => { setHash(location.hash); setDrawer(null) }
    addEventListener('hashchange', onHash)
    return () => { off(); chat.close(); outbox.stop(); removeEventListener('hashchange', onHash) }
  }, [])

  // Presence: active while the page is visible, idle when hidden.
  useEffect(() => {
    if (!ready) return
    const report = () => zulip.reportPresence(document.visibilityState === 'visible' ? 'active' : 'idle')
      .then((r) => { for (const [email, pr] of Object.entries(r.presences ?? {})) chat.apply({ type: 'presence', email, presence: pr }); chat.changed() }).catch(() => {})
    report()
    const timer = setInterval(report, 60000)
    document.addEventListener('visibilitychange', report)
    return () => { clearInterval(timer); document.removeEventListener('visibilitychange', report) }
  }, [ready])

  // retargetTo points the compose box at a conversation (a stream without a
  // topic keeps the topic typed for that stream).
  function retargetTo(n: Narrow) {
    if (n.kind === 'stream') compose.retarget((d) => ({ ...d, kind: 'stream', stream: n.stream, topic: n.topic ?? (d.stream === n.stream ? d.topic : '') }))
    if (n.kind === 'pm') compose.retarget((d) => ({ ...d, kind: 'pm', to: n.emails.join(', ') }))
  }

  // A layout effect: the compose box is pointed at the new conversation in
  // the same frame that shows it, so no key typed in between lands in the
  // old one's draft.
  useLayoutEffect(() => {
    if (!ready) return
    // Inbox and Recent conversations are no one conversation: there the
    // compose box is addressed to none, not to the last one read, now out
    // of sight (its draft is kept for the way back).
    if (home) return compose.retarget((d) => ({ ...d, stream: '', topic: '', to: '' }))
    const v = chat.view
    if (!(sameNarrow(v.narrow, narrow) && v.near === place.near && (v.loading || v.ids.length))) chat.load(narrow, place.near)
    if (narrow.kind === 'stream') chat.loadTopics(narrow.streamId).catch(() => {})
    retargetTo(narrow)
  }, [ready, home, narrowToHash(narrow), place.near])

  // Selection starts where one is reading: the linked message, else the
  // first unread one, else the newest.
  const v = chat.view
  useEffect(() => {
    if (v.loading || !v.ids.length) return
    if (v.near !== undefined && v.ids.includes(v.near)) return setSelected(v.near)
    if (!v.ids.includes(selected)) setSelected(v.ids.find((id) => chat.unreads.has(id)) ?? v.ids[v.ids.length - 1])
  }, [v.loading, v.ids.length, narrowToHash(v.narrow), v.near])

  const unread = ready ? chat.unreads.total(chat.mute) : 0
  const viewTitle = home === 'recent' ? 'Recent conversations' : home === 'inbox' ? 'Inbox' : narrowTitle(narrow, (emails) => chat.namesOf(emails))
  useEffect(() => { document.title = titleWithUnreads(unread, chat.realmName, viewTitle) }, [unread, chat.realmName, viewTitle])

  const go = (n: Narrow) => { location.hash = narrowToHash(n) }
  const reply = (id: number) => {
    const m = chat.messages.get(id)
    if (!m) return
    retargetTo(chat.narrowOf(m))
    setFocus(Date.now())
  }

  // A click on a message in a view of many conversations (All messages, a
  // stream, a search) points an empty compose box at that message's
  // conversation, as a click starts a reply in Zulip: what one types next
  // goes there, not to no stream at all.
  const pick = (id: number) => {
    setSelected(id)
    const m = chat.messages.get(id)
    const single = (narrow.kind === 'stream' && narrow.topic !== undefined) || narrow.kind === 'pm'
    if (m && !single && !compose.draft.content.trim()) retargetTo(chat.narrowOf(m))
  }

  // A message sent to a conversation not on screen (from Inbox, say)
  // takes one there, as Zulip's web_navigate_to_sent_message (on by
  // default) does: one sees it arrive.
  const goToSent = (m: zulip.OutgoingMessage) => {
    if (chat.userSettings.web_navigate_to_sent_message === false || (!home && shownIn(narrow, m))) return
    const stream = m.kind === 'stream' && chat.subByName(m.stream)
    if (stream) return go({ kind: 'stream', streamId: stream.stream_id, stream: stream.name, topic: m.topic })
    const others = m.to.filter((e) => e !== chat.me.email).sort()
    if (m.kind === 'pm') go({ kind: 'pm', emails: others.length ? others : [chat.me.email] })
  }

  // Zulip's keys, ignored while typing in a field (but Ctrl+k and Esc).
  // The handler is renewed at each render and read through a ref by one
  // listener, so a key pressed right after a change (a new selection, a
  // panel opened) already sees it, not the state of the render before.
  const field = (testid: string) => (document.querySelector(`[data-testid=${testid}]`) as HTMLElement | null)?.focus()
  // press clicks one of a message's own controls (its menu, edit, react buttons).
  const press = (id: number, testid: string) => document.querySelector<HTMLElement>(`[data-message-id="${id}"] [data-testid=${testid}]`)?.click()
  onKeyRef.current = (e: KeyboardEvent) => {
    const typingInField = (e.target as HTMLElement).closest('input, textarea, select, [contenteditable]')
    if (e.key === 'Escape') {
      if (lightbox) return setLightbox(null)
      if (panel) return setPanel(null)
      if (typingInField) return (e.target as HTMLElement).blur()
      // With nothing left to close, Esc goes back to the home view, as
      // Zulip's does unless the account's web_escape_navigates_to_home_view is off.
      if (!home && !streamPanel && chat.userSettings.web_escape_navigates_to_home_view !== false &&
        !document.querySelector('[role=dialog], [role=menu], .confirm')) location.hash = '#inbox'
      return
    }
    if (e.key === 'k' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); return field('search-input') }
    if (typingInField || e.ctrlKey || e.metaKey || e.altKey || panel) return
    if ((e.key === 'Enter' || e.key === ' ') && (e.target as HTMLElement).closest('a, button')) return // the control's own action
    // Inbox and Recent conversations show no messages: the keys for the
    // selected message are not for one left selected in another view.
    const ids = home ? [] : chat.view.ids
    const at = ids.indexOf(selected)
    const m = home ? undefined : chat.messages.get(selected)
    const handled = () => e.preventDefault()
    // There, as in Zulip, ↑ ↓ (k j) walk the conversations, and Enter opens the one in focus.
    const step = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 }[e.key]
    if (home && step) {
      handled()
      const rows = [...document.querySelectorAll<HTMLElement>('.inbox-head, .inbox-row, .recent-row')]
      const from = rows.indexOf(document.activeElement as HTMLElement)
      rows[from < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, from + step))]?.focus()
      return
    }
    switch (e.key) {
      case 'c': handled(); compose.update((d) => ({ ...d, kind: 'stream' })); setFocus(Date.now()); break
      case 'x': handled(); compose.update((d) => ({ ...d, kind: 'pm' })); setFocus(Date.now()); break
      case 'd': handled(); setPanel('drafts'); break
      case '?': handled(); setPanel('shortcuts'); break
      case 't': handled(); location.hash = '#recent'; break
      case 'I': handled(); location.hash = '#inbox'; break
      case 'q': handled(); field('stream-filter'); break
      case 'w': handled(); field('people-search'); break
      case '/': handled(); field('search-input'); break
      case 'Enter': case 'r': if (m) { handled(); reply(m.id) } break
      case 'R': if (m) { handled(); compose.retarget((d) => ({ ...d, kind: 'pm', to: m.sender_email })); setFocus(Date.now()) } break
      case '@': if (m) {
        handled()
        reply(m.id)
        compose.update((d) => ({ ...d, content: `${d.content}${d.content && !d.content.endsWith(' ') ? ' ' : ''}@**${m.sender_full_name}** ` }))
      } break
      // The selected message's sender's card, its menu, and (one's own) its edit box.
      case 'u': if (m) {
        handled()
        const row = document.querySelector<HTMLElement>(`[data-message-id="${m.id}"]`)
        if (row) showUserCard(m.sender_id, row.querySelector<HTMLElement>('[data-testid=message-sender]') ?? row)
      } break
      case 'i': if (m) { handled(); press(m.id, 'message-menu-button') } break
      case 'e': if (m) { handled(); press(m.id, 'edit-button') } break
      // ← edits one's last message in the view, as in Zulip.
      case 'ArrowLeft': if (ids.length && editLastMessage(chat)) handled(); break
      // Reactions: + toggles 👍, : opens the picker.
      case '+': if (m) {
        handled()
        const mine = m.reactions.some((r) => r.user_id === chat.me.user_id && r.emoji_code === '1f44d')
        zulip.setReaction(m.id, '+1', !mine).catch(() => {})
      } break
      case ':': if (m) { handled(); press(m.id, 'react-button') } break
      // M mutes (or unmutes) the selected message's topic; U marks it unread and all after it; P is all direct messages.
      case 'M': if (m?.type === 'stream') {
        handled()
        zulip.muteTopic(m.stream_id!, m.subject, !chat.mute.mutedTopics.has(topicKey(m.stream_id!, m.subject))).catch(() => {})
      } break
      case 'U': if (m) { handled(); chat.markUnreadFrom(m.id).catch(() => {}) } break
      case 'P': handled(); go({ kind: 'private' }); break
      case '*': if (m) { handled(); zulip.setFlag([m.id], 'starred', !m.flags.includes('starred')).catch(() => {}) } break
      case 's': case 'S': if (m) {
        handled()
        const n = chat.narrowOf(m)
        const inStream = narrow.kind === 'stream' && n.kind === 'stream' && narrow.streamId === n.streamId && narrow.topic === undefined
        go(n.kind === 'stream' && e.key === 's' && !inStream ? { kind: 'stream', streamId: n.streamId, stream: n.stream } : n)
      } break
      case 'v': if (m) {
        const images = [...document.querySelectorAll(`[data-message-id="${m.id}"] [data-testid=message-content] img:not(.emoji)`)].map((i) => (i.closest('a')?.getAttribute('href') ?? (i as HTMLImageElement).src))
        if (images.length) { handled(); setLightbox(images) }
      } break
      case 'n': {
        handled()
        const cur = narrow.kind === 'stream' ? narrow : null
        const next = chat.unreads.firstUnreadTopic((s, t) => !cur || s !== cur.streamId || t.toLowerCase() !== (cur.topic ?? '').toLowerCase(), chat.mute)
        if (next) go({ kind: 'stream', streamId: next.streamId, stream: chat.subs.get(next.streamId)?.name ?? '', topic: next.topic })
        break
      }
      case 'p': {
        handled()
        const cur = narrow.kind === 'pm' ? narrow.emails.join(',') : ''
        const next = [...chat.unreads.places.values()].find((pl) => pl.pm !== undefined && pl.pm !== cur)
        if (next?.pm) go({ kind: 'pm', emails: next.pm.split(',') })
        break
      }
      case 'ArrowDown': case 'j': if (ids.length) { handled(); setSelected(ids[Math.min(at + 1, ids.length - 1)] ?? ids[0]) } break
      case 'ArrowUp': case 'k': if (ids.length) { handled(); setSelected(ids[at <= 0 ? 0 : at - 1] ?? ids[ids.length - 1]) } break
      case 'Home': if (ids.length) { handled(); setSelected(ids[0]) } break
      case 'End': case 'G': if (ids.length) { handled(); setSelected(ids[ids.length - 1]) } break
      case 'PageDown': case 'PageUp': {
        const scroller = document.querySelector('.message-scroller') as HTMLElement | null
        if (!scroller) break
        handled()
        scroller.scrollBy({ top: (e.key === 'PageDown' ? 1 : -1) * scroller.clientHeight * 0.9 })
        // Selection follows the page: the first message now in view.
        const top = scroller.getBoundingClientRect().top
        const first = [...scroller.querySelectorAll<HTMLElement>('[data-testid=message]')].find((r) => r.getBoundingClientRect().bottom > top + 8)
        if (first) setSelected(Number(first.dataset.messageId))
        break
      }
    }
  }
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => onKeyRef.current(e)
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => { document.querySelector(`[data-message-id="${selected}"]`)?.scrollIntoView({ block: 'nearest' }) }, [selected])

  if (failed) return <div class="card-page"><p class="form-error">Could not load: {failed}</p></div>
  // The early chat's messages show before register answers; the sidebar,
  // people and unread counts fill in when it does.
  if (!ready && !(loaded && !chat.view.loading)) return <div class="card-page"><p>Loading…</p></div>
  return (
    <div class={`app ${drawer ? `drawer-${drawer}` : ''}`}>
      <header class="topbar">
        <button class="drawer-button" data-testid="open-streams" aria-label="Streams and conversations" aria-expanded={drawer === 'streams'}
          onClick={() => toggleDrawer('streams')}>☰</button>
        <a class="brand" href="#inbox"><img src="/static/images/realm-icon.svg" alt="" /><span class="brand-name">{chat.realmName}</span></a>
        <SearchBox chat={chat} value={search} setValue={setSearch} onSearch={(query) => go({ kind: 'search', query })} />
        {!chat.connected && <span class="offline-note">Reconnecting…</span>}
        {desktop() && <button data-testid="host-button" onClick={() => setPanel('host')}>{member ? 'Team' : 'Host'}</button>}
        <button data-testid="settings-button" onClick={() => setPanel('settings')} title="Settings" aria-label="Settings">⚙</button>
        <button class="me" data-testid="my-status" title="Set status" onClick={() => setPanel('status')}><StatusEmoji chat={chat} status={chat.statuses.get(chat.me.user_id)} />{chat.me.full_name}</button>
        <button data-testid="logout" onClick={() => { chat.close(); p.onSignOut(chat.realmName) }}>Sign out</button>
        <button class="drawer-button" data-testid="open-people" aria-label="People" aria-expanded={drawer === 'people'}
          onClick={() => toggleDrawer('people')}>👥</button>
      </header>
      <Sidebar chat={chat} narrow={narrow} home={home} drafts={drafts.list().length} onDrafts={() => setPanel('drafts')} onStreams={setStreamPanel}
        onScheduled={() => setPanel('scheduled')} />
      <main class="center">
        <NotificationBanner />
        {home === 'recent' ? <Recent chat={chat} /> : home === 'inbox' ? <Inbox chat={chat} /> : <>
        <div class="narrow-head">
          <h2 class="narrow-title" data-testid="narrow-title">{viewTitle}</h2>
          <TopicActions chat={chat} narrow={narrow} />
        </div>
        <StreamPreview chat={chat} narrow={narrow} />
        <MessageList chat={chat} selected={selected} onSelect={pick} actions={{
          reply,
          quote: (id, text) => { reply(id); compose.update((d) => ({ ...d, content: (d.content ? d.content + '\n' : '') + text })) },
          showImages: setLightbox,
        }} />
        <OutboxEcho chat={chat} outbox={outbox} narrow={narrow} />
        </>}
        <Compose chat={chat} compose={compose} focus={focus} conversation={hash} outbox={outbox} onSent={goToSent} />
      </main>
      <BuddyList chat={chat} onSetStatus={() => { setDrawer(null); setPanel('status') }} />
      {drawer && <div class="scrim" data-testid="drawer-scrim" onClick={() => setDrawer(null)} />}
      {panel === 'settings' && <Lazy load={() => import('./Settings')} render={(m) => <m.Settings chat={chat} theme={p.theme} setTheme={p.setTheme} onClose={() => setPanel(null)} />} />}
      {panel === 'shortcuts' && <ShortcutsHelp onClose={() => setPanel(null)} />}
      {panel === 'status' && <StatusEditor chat={chat} onClose={() => setPanel(null)} />}
      {panel === 'scheduled' && <ScheduledMessages chat={chat} onClose={() => setPanel(null)} />}
      {lightbox && <Lightbox images={lightbox} onClose={() => setLightbox(null)} />}
      {panel === 'host' && <Lazy load={() => import('./HostPanel')} render={(m) => <m.HostPanel onClose={() => setPanel(null)} />} />}
      {streamPanel === 'browse' && <Lazy load={() => import('./StreamBrowser')} render={(m) => <m.StreamBrowser chat={chat} onClose={() => setStreamPanel(null)} onSettings={setStreamPanel} />} />}
      {typeof streamPanel === 'number' && <Lazy load={() => import('./StreamSettings')} render={(m) => <m.StreamSettings chat={chat} streamId={streamPanel} onClose={() => setStreamPanel(null)} />} />}
      <UserCards chat={chat} />
      {panel === 'drafts' && <Drafts chat={chat} store={drafts} onClose={() => setPanel(null)} onRestore={(saved) => {
        setPanel(null)
        compose.restore(saved)
        const stream = chat.subByName(saved.stream)
        const emails = recipients(saved.to).sort()
        if (saved.kind === 'stream' && stream) go({ kind: 'stream', streamId: stream.stream_id, stream: stream.name, topic: saved.topic })
        if (saved.kind === 'pm' && emails.length) go({ kind: 'pm', emails })
        setFocus(Date.now())
      }} />}
    </div>
  )
}

// readPlace reads the URL's hash; a stream keeps the name it has here, since
// links write spaces as dashes and may predate a rename.
function readPlace(chat: Chat, hash: string): Place {
  const place = hashToPlace(hash, (id) => chat.users.get(id)?.email)
  const n = place.narrow
  if (n.kind === 'stream') {
    const name = chat.subs.get(n.streamId)?.name
    if (name) return { ...place, narrow: { ...n, stream: name } }
  }
  return place
}
