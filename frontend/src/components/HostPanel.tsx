import { useEffect, useState } from 'preact/hooks'
import { desktop, onHostEvent, type HostInfo, type LogEntry } from '../api/desktop'

// HostPanel is the desktop host's control panel: only the window has it.
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

  useEffect(() => {
    host.HostInfo().then(async (i) => {
      setInfo(i)
      // Loaded here: only the desktop window's host opens this panel.
      const { default: QRCode } = await import('qrcode')
      if (i.joinUrl) setQr(await QRCode.toDataURL(i.joinUrl, { margin: 1, width: 180 }))
      if (i.authorityUrl) setCaQr(await QRCode.toDataURL(i.authorityUrl, { margin: 1, width: 140 }))
    }).catch((e) => setStatus(String(e)))
    refreshErrors()
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
        <header><h2>This host</h2><button class="icon" onClick={p.onClose} title="Close">✕</button></header>
        <section>
          <p data-testid="host-status">{info?.running ? `Serving Lanchat ${info.version}` : info?.joined ? `This app hosts nothing: it joined ${info.joined}` : 'Not running'}</p>
          {info?.joined && (
            <button data-testid="host-leave" onClick={() => host.LeaveTeam().then(() => location.replace('/'), (e) => setStatus(String(e)))}>
              Leave this team…
            </button>
          )}
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
        </section>
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
            <input data-testid="host-create-name" placeholder="Full name" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
            <input data-testid="host-create-email" placeholder="Email" value={form.email} onInput={(e) => setForm({ ...form, email: (e.target as HTMLInputElement).value })} />
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
        {status && <p class="hint">{status}</p>}
      </div>
    </div>
  )
}
