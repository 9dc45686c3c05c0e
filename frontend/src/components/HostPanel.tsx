import { useEffect, useState } from 'preact/hooks'
import { desktop, onHostEvent, type HostInfo, type LogEntry } from '../api/desktop'
import { signOut } from '../api/session'
import { PhoneSubscription } from './PhoneSubscription'
import { limits } from '../state/limits'

// HostPanel is the desktop app's panel: only the window has it. A host's
// shows where others join and the host's tools; a member's (an app that
// joined a team hosted elsewhere) only the team's address and Leave.
export function HostPanel(p: { onClose: () => void }) {
  const host = desktop()!
  const [info, setInfo] = useState<HostInfo | null>(null)
  const [qr, setQr] = useState('')
  const [caQr, setCaQr] = useState('')
  const [form, setForm] = useState({ name: '', email: '', role: 'member' })
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null)
  const [issueTo, setIssueTo] = useState('')
  const [issued, setIssued] = useState<{ email: string; password: string } | null>(null)
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)
  const [status, setStatus] = useState('')
  const [errors, setErrors] = useState<LogEntry[] | null>(null)
  const [leaving, setLeaving] = useState(false)
  const member = info && !info.running && info.joined ? info : null

  useEffect(() => {
    host.HostInfo().then(async (i) => {
      setInfo(i)
      // Loaded here: only the desktop window's host opens this panel.
      const { default: QRCode } = await import('qrcode')
      if (i.joinUrl) setQr(await QRCode.toDataURL(i.joinUrl, { margin: 1, width: 180 }))
      if (i.authorityUrl) setCaQr(await QRCode.toDataURL(i.authorityUrl, { margin: 1, width: 140 }))
      if (i.running) refreshErrors()
    }).catch((e) => setStatus(String(e)))
    return onHostEvent('backup:progress', setProgress)
  }, [])

  const refreshErrors = () => host.RecentErrors().then(setErrors).catch((e) => setStatus(String(e)))
  const create = async (e: Event) => {
    e.preventDefault()
    try {
      setCreated(await host.CreateAccount(form.name.trim(), form.email.trim(), form.role))
      setForm({ name: '', email: '', role: 'member' })
    } catch (err) {
      setStatus(String(err))
    }
  }
  const issue = async (e: Event) => {
    e.preventDefault()
    try {
      setIssued(await host.IssuePassword!(issueTo.trim()))
      setIssueTo('')
    } catch (err) {
      setStatus(String(err))
    }
  }
  // Leaving signs out first: the window keeps its session (the API key) and
  // the team's drafts in its storage, which the next team's page would
  // find. The first launch's page clears that storage too.
  const leave = async () => {
    try {
      await signOut()
      localStorage.clear()
      sessionStorage.clear()
      await host.LeaveTeam()
      location.replace('/')
    } catch (err) {
      setStatus(String(err))
    }
  }
  const backup = async () => {
    setProgress({ done: 0, total: 0 })
    try {
      const path = await host.Backup()
      setStatus(path ? `Backup written to ${path}` : 'Backup cancelled')
    } catch (err) {
      setStatus(String(err))
    }
    setProgress(null)
  }
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" data-testid="host-panel" onClick={(e) => e.stopPropagation()}>
        <header><h2>{member ? 'This team' : 'This host'}</h2><button class="icon" onClick={p.onClose} title="Close">✕</button></header>
        {member ? (
          <section>
            <p data-testid="host-status">This app is a member of the team at <code>{member.joined}</code>. It hosts nothing: the team's
              chat, files and accounts are on its host.</p>
            <div class="join">
              <div>
                <h3>Others join at</h3>
                <ul data-testid="host-addresses"><li><code>{member.joined}</code></li></ul>
                <p class="hint">In their Lanchat app (Join a team), in a browser or in Zulip's apps, with an account the
                  team's host gives them.</p>
              </div>
              {qr && <img data-testid="host-qr" src={qr} alt={`QR code of ${member.joined}`} />}
            </div>
            {member.authority ? (
              <p data-testid="host-fingerprint-note">This app trusts the team's host by its certificate authority's fingerprint{' '}
                <code class="fingerprint" data-testid="host-fingerprint">{member.authority}</code>, checked when it joined: the
                host's own panel shows the same. A host presenting another is refused.</p>
            ) : (
              <p class="hint" data-testid="host-fingerprint-note">The team is joined over plain HTTP: nothing proves which computer answers.</p>
            )}
            {leaving ? (
              <div class="leave-confirm" role="alertdialog" aria-labelledby="leave-question" data-testid="host-leave-confirm">
                <p id="leave-question"><b>Leave the team at <code>{member.joined}</code>?</b> This app signs you out and forgets the team
                  and your unsent drafts. Your account stays on the team's host: join again with its address, your email and
                  password.</p>
                <button class="danger" data-testid="host-leave-yes" onClick={leave}>Leave and sign out</button>{' '}
                <button data-testid="host-leave-no" onClick={() => setLeaving(false)}>Cancel</button>
              </div>
            ) : (
              <button data-testid="host-leave" onClick={() => setLeaving(true)}>Leave this team…</button>
            )}
          </section>
        ) : info?.running ? (
          <section>
            <p data-testid="host-status">Serving Lanchat {info.version}</p>
            <div class="join">
              <div>
                <h3>Join from the local network</h3>
                <ul data-testid="host-addresses">{(info?.addresses ?? []).map((a) => <li><code>{a}</code></li>)}</ul>
                {info?.unreachable?.length ? (
                  <p class="hint" data-testid="host-unreachable">
                    Nobody else can join yet: Lanchat listens only on <code>{info.listen}</code>, so this machine's network
                    addresses ({info.unreachable.map((a, i) => <>{i > 0 && ', '}<code>{a}</code></>)}) do not reach it. Only{' '}
                    <code>{info.joinUrl}</code> works, on this machine. To open it to the network, start Lanchat with{' '}
                    <code>--addr 0.0.0.0:{info.listen.split(':').pop()}</code> (and allow that port in the firewall).
                  </p>
                ) : null}
              </div>
              {qr && <img data-testid="host-qr" src={qr} alt={`QR code of ${info?.joinUrl}`} />}
            </div>
            {info.authority && (
              <p data-testid="host-fingerprint-note">This host's fingerprint:{' '}
                <code class="fingerprint" data-testid="host-fingerprint">{info.authority}</code>. Someone joining from the
                Lanchat app sees the fingerprint of the host their app reached: they join only if it is this one.</p>
            )}
            <PhoneSubscription who="the host's" />
          </section>
        ) : (
          <section><p data-testid="host-status">{info ? 'Not running' : 'Loading…'}</p></section>
        )}
        {info?.running && <>
          {info?.authorityUrl && (
            <section data-testid="host-authority">
              <h3>Trust this host once per device</h3>
              <div class="join">
                <div>
                  <p>
                    Browsers warn about <code>https://</code> addresses until the device trusts this host's certificate.
                    On each device, open <code data-testid="host-authority-url">{info.authorityUrl}</code> (or scan the code)
                    and install it as a certificate authority: on Android under Settings › Security › Install a certificate › CA
                    certificate; on an iPhone open it in Safari, install the profile, then turn it on in Settings › General ›
                    About › Certificate Trust Settings; in desktop Chrome under Settings › Privacy and security › Manage
                    certificates › Authorities; Firefox offers to trust it when the link opens.
                  </p>
                  <p class="hint">The same addresses with <code>http://</code> keep working (bots, API clients), but browsers then
                    allow no notifications.</p>
                </div>
                {caQr && <img data-testid="host-authority-qr" src={caQr} alt={`QR code of ${info.authorityUrl}`} />}
              </div>
            </section>
          )}
          <section>
            <h3>Create an account</h3>
            <form class="row" onSubmit={create}>
              <input data-testid="host-create-name" placeholder="Full name" maxLength={limits.fullName} value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
              <input data-testid="host-create-email" placeholder="Email" maxLength={limits.email} value={form.email} onInput={(e) => setForm({ ...form, email: (e.target as HTMLInputElement).value })} />
              <select data-testid="host-create-role" value={form.role} onChange={(e) => setForm({ ...form, role: (e.target as HTMLSelectElement).value })}>
                <option value="member">Member</option><option value="admin">Administrator</option><option value="guest">Guest</option>
              </select>
              <button class="primary" data-testid="host-create-submit">Create</button>
            </form>
            {created && <p data-testid="host-created">Created <code>{created.email}</code> with password <code>{created.password}</code>: pass it on.</p>}
          </section>
          {host.IssuePassword && (
            <section>
              <h3>Issue a password</h3>
              <p class="hint">For someone who has an account but no password (everyone imported from another chat server), or forgot it.
                Their open sessions end.</p>
              <form class="row" onSubmit={issue}>
                <input data-testid="host-issue-email" type="email" aria-label="Their email" placeholder="Email" value={issueTo} onInput={(e) => setIssueTo((e.target as HTMLInputElement).value)} />
                <button class="primary" data-testid="host-issue-submit">Issue a password</button>
              </form>
              {issued && <p data-testid="host-issued"><code>{issued.email}</code> now signs in with password <code>{issued.password}</code>: pass it on.</p>}
            </section>
          )}
          <section>
            <h3>Data</h3>
            <p>Folder: <code data-testid="host-data-dir">{info?.dataDir}</code> <button onClick={() => host.OpenDataFolder()}>Open</button></p>
            <button data-testid="host-backup" onClick={backup} disabled={progress !== null}>Back up to a file…</button>
            {progress && <progress data-testid="backup-progress" value={progress.done} max={progress.total || 1} />}
          </section>
          <section>
            <h3>Recent errors <button data-testid="host-errors-refresh" onClick={refreshErrors}>Refresh</button></h3>
            {errors?.length === 0 && <p class="hint" data-testid="host-errors-none">No warnings or errors since the host started.</p>}
            <ul class="log" data-testid="host-errors">
              {errors?.map((e) => (
                <li class={e.level.toLowerCase()}>
                  <time dateTime={e.time}>{new Date(e.time).toLocaleTimeString()}</time> <b>{e.level}</b> {e.message} <code>{e.attrs}</code>
                </li>
              ))}
            </ul>
          </section>
        </>}
        {status && <p class="hint">{status}</p>}
      </div>
    </div>
  )
}
