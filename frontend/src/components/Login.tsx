import { useEffect, useState } from 'preact/hooks'
import { signIn, setUp, acceptInvitation, type Invitation, type Me } from '../api/session'
import { desktop } from '../api/desktop'
import { limits } from '../state/limits'

function Field(p: { label: string; testid: string; type?: 'text' | 'email' | 'password'; value: string; set: (v: string) => void; autoFocus?: boolean; maxLength?: number }) {
  return (
    <label class="field">
      <span>{p.label}</span>
      <input data-testid={p.testid} {...{ type: p.type ?? 'text' } as {}} value={p.value} autoFocus={p.autoFocus} maxLength={p.maxLength}
        onInput={(e) => p.set((e.target as HTMLInputElement).value)} required />
    </label>
  )
}

function useSubmit(run: () => Promise<Me>, done: (me: Me) => void) {
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError('')
    try {
      done(await run())
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return { error, busy, submit }
}

export function Login(p: { realm: string; onDone: (me: Me) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { error, busy, submit } = useSubmit(() => signIn(email.trim(), password), p.onDone)
  // In a member's window (an app that joined a team hosted elsewhere) the
  // sign-in page is the way back too: the wrong team, or no account there.
  const [joined, setJoined] = useState('')
  // The tab (and the desktop window, which mirrors it) says where it is,
  // as the chat's title does once signed in.
  useEffect(() => { document.title = `Sign in · ${p.realm}` }, [p.realm])
  useEffect(() => { desktop()?.HostInfo().then((i) => setJoined(i.running ? '' : i.joined), () => {}) }, [])
  const [leaveError, setLeaveError] = useState('')
  const chooseAnother = async () => {
    try {
      localStorage.clear() // the team's drafts, kept by a past sign-out
      sessionStorage.clear()
      await desktop()!.LeaveTeam()
      location.replace('/')
    } catch (err) {
      setLeaveError(String(err))
    }
  }
  return (
    <div class="card-page">
      <form class="card" onSubmit={submit}>
        <h1>Sign in to {p.realm}</h1>
        <Field label="Email" testid="login-email" type="email" value={email} set={setEmail} autoFocus />
        <Field label="Password" testid="login-password" type="password" value={password} set={setPassword} />
        {error && <p class="form-error" data-testid="login-error" role="alert">{error}</p>}
        <button class="primary" data-testid="login-submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        {joined && (
          <p class="hint" data-testid="login-joined">
            This app joined the team at <code>{joined}</code>.{' '}
            <button type="button" data-testid="login-choose-team" onClick={chooseAnother}>Choose another team</button>
          </p>
        )}
        {leaveError && <p class="form-error" role="alert">{leaveError}</p>}
      </form>
    </div>
  )
}

export function Setup(p: { onDone: (me: Me) => void }) {
  const [realm, setRealm] = useState('')
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { error, busy, submit } = useSubmit(() => setUp({ realm_name: realm.trim(), full_name: name.trim(), email: email.trim(), password }), p.onDone)
  return (
    <div class="card-page">
      <form class="card" onSubmit={submit}>
        <h1>Set up your organization</h1>
        <p class="hint">Your team joins from this machine's address on the local network. You will be the owner.</p>
        <Field label="Organization name" testid="setup-org" maxLength={limits.realmName} value={realm} set={setRealm} autoFocus />
        <Field label="Your name" testid="setup-name" maxLength={limits.fullName} value={name} set={setName} />
        <Field label="Your email" testid="setup-email" type="email" maxLength={limits.email} value={email} set={setEmail} />
        <Field label="Password (at least 8 characters)" testid="setup-password" type="password" value={password} set={setPassword} />
        {error && <p class="form-error" role="alert">{error}</p>}
        <button class="primary" data-testid="setup-submit" disabled={busy}>{busy ? 'Creating…' : 'Create organization'}</button>
      </form>
    </div>
  )
}

// Join is the sign-up behind an invitation link: an email invitation's
// address is fixed, a reusable link's is the person's own.
export function Join(p: { inviteKey: string; invitation: Invitation; onDone: (me: Me) => void }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState(p.invitation.email ?? '')
  const [password, setPassword] = useState('')
  const { error, busy, submit } = useSubmit(() => acceptInvitation(p.inviteKey, { full_name: name.trim(), email: email.trim(), password }), p.onDone)
  return (
    <div class="card-page">
      <form class="card" onSubmit={submit}>
        <h1>Join {p.invitation.realm_name}</h1>
        <Field label="Your name" testid="join-name" maxLength={limits.fullName} value={name} set={setName} autoFocus />
        {p.invitation.email
          ? <p class="hint" data-testid="join-email">You were invited as <code>{p.invitation.email}</code>.</p>
          : <Field label="Your email" testid="join-email" type="email" maxLength={limits.email} value={email} set={setEmail} />}
        <Field label="Password (at least 8 characters)" testid="join-password" type="password" value={password} set={setPassword} />
        {error && <p class="form-error" data-testid="join-error" role="alert">{error}</p>}
        <button class="primary" data-testid="join-submit" disabled={busy}>{busy ? 'Joining…' : 'Join'}</button>
      </form>
    </div>
  )
}
