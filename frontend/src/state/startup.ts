// The page's first requests start as its script runs, not after a first
// render: whether the server needs setup and who is signed in, at once; the
// first messages of the conversation in the address beside them (a GET, it
// needs no session token); and register the moment the session is known.
// Each used to wait for the step before it and a render in between. The
// messages show as soon as they are here; register fills in the rest.
import { resume, setupNeeded, type Me } from '../api/session'
import { Chat } from './chat'
import { hashToPlace } from './narrow'

// loaded says whether the conversation's first messages were asked for.
export interface EarlyChat { chat: Chat; registered: Promise<void>; loaded: boolean }

// homeHashes are the addresses of Recent conversations, the home view, as in Zulip.
export const homeHashes = ['', '#', '#recent', '#inbox']

let early: { setup: Promise<boolean>; me: Promise<Me | null> } | null = null
let earlyChat: EarlyChat | null = null

// startEarly begins loading for the page at hash. A direct message's
// address waits for register, which brings the users it names.
export function startEarly(hash: string) {
  const me = resume()
  early = { setup: setupNeeded().catch(() => false), me }
  const chat = new Chat()
  const place = hashToPlace(hash, () => undefined)
  const loaded = !homeHashes.includes(hash) && place.narrow.kind !== 'search' && place.narrow.kind !== 'pm'
  if (loaded) chat.load(place.narrow, place.near)
  const registered = me.then((who) => {
    if (!who) return
    // Who is reading, until register tells all: enough to show the messages.
    chat.me = { user_id: who.user_id, email: who.email, full_name: '', is_bot: false }
    const started = { chat, registered: chat.register(), loaded }
    earlyChat = started
    return started.registered
  })
  registered.catch(() => {}) // ChatScreen reports a failed register
}

// takeSession gives App the early setup and session answers, once.
export function takeSession(): { setup: Promise<boolean>; me: Promise<Me | null> } {
  const taken = early ?? { setup: setupNeeded().catch(() => false), me: resume() }
  early = null
  return taken
}

// takeEarlyChat gives the chat screen the chat already registering for
// the signed-in person, once; a later sign-in starts afresh.
export function takeEarlyChat(): EarlyChat | null {
  const taken = earlyChat
  earlyChat = null
  return taken
}
