// Signing in and out, and first-run setup, for both transports.
import { api, inWindow, setCsrfToken, setWindowCredentials, hasWindowCredentials, ApiError } from './transport'
import { desktop } from './desktop'

export interface Me { user_id: number; email: string }

// resume finds an existing session: the cookie's in a browser, the stored
// API key in the window.
export async function resume(): Promise<Me | null> {
  if (inWindow) {
    if (!hasWindowCredentials()) return null
    try {
      const me = await api.get('/api/v1/users/me')
      return { user_id: me.user_id, email: me.email }
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setWindowCredentials(null)
      return null
    }
  }
  try {
    const s = await api.get('/accounts/session')
    if (!s.signed_in) return null
    setCsrfToken(s.csrf_token)
    return { user_id: s.user_id, email: s.email }
  } catch {
    return null
  }
}

export async function signIn(email: string, password: string): Promise<Me> {
  if (inWindow) {
    const r = await api.post('/api/v1/fetch_api_key', { username: email, password })
    setWindowCredentials({ email: r.email, apiKey: r.api_key })
    const me = await api.get('/api/v1/users/me')
    return { user_id: me.user_id, email: me.email }
  }
  const s = await api.post('/accounts/login', { username: email, password })
  setCsrfToken(s.csrf_token)
  return { user_id: s.user_id, email: s.email }
}

export async function signOut() {
  if (inWindow) setWindowCredentials(null)
  else await api.post('/accounts/logout').catch(() => {})
  setCsrfToken('')
}

export async function setupNeeded(): Promise<boolean> {
  const r = await api.get('/accounts/setup')
  return r.setup_needed === true
}

// setupToken is in the address lanchatd prints (#setup=…), or asked of the
// desktop host.
export async function setupToken(): Promise<string> {
  const m = /[#&]setup=([^&]+)/.exec(location.hash)
  if (m) return decodeURIComponent(m[1])
  return (await desktop()?.SetupToken()) ?? ''
}

export interface SetupForm { realm_name: string; full_name: string; email: string; password: string }

export async function setUp(form: SetupForm): Promise<Me> {
  const r = await api.post('/accounts/setup', { ...form, token: await setupToken() })
  setCsrfToken(r.csrf_token)
  if (inWindow) setWindowCredentials({ email: r.email, apiKey: r.api_key })
  history.replaceState(null, '', location.pathname)
  return { user_id: r.user_id, email: r.email }
}

// inviteKey is the key in an invitation link's address (/join/KEY/), ""
// anywhere else.
export function inviteKey(): string {
  const m = /^\/join\/([^/]+)\/?$/.exec(location.pathname)
  return m ? decodeURIComponent(m[1]) : ''
}

export interface Invitation { realm_name: string; email?: string; invited_as: number }

export async function invitation(key: string): Promise<Invitation> {
  return (await api.get('/accounts/invite', { key })) as Invitation
}

export interface JoinForm { full_name: string; email: string; password: string }

// acceptInvitation creates the account the link offers and signs it in.
export async function acceptInvitation(key: string, form: JoinForm): Promise<Me> {
  const r = await api.post('/accounts/invite', { ...form, key })
  setCsrfToken(r.csrf_token)
  if (inWindow) setWindowCredentials({ email: r.email, apiKey: r.api_key })
  history.replaceState(null, '', '/')
  return { user_id: r.user_id, email: r.email }
}
