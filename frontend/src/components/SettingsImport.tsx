// An owner replaces a new organization (no messages yet) with a team's
// history exported from Slack, Mattermost or Zulip, and watches the import.
import { useEffect, useState } from 'preact/hooks'
import { ApiError, type Json } from '../api/transport'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'

const formats: [string, string, string][] = [
  ['slack', 'Slack', 'A workspace export: Workspace settings › Import/Export Data › Export, then download the zip.'],
  ['mattermost', 'Mattermost', 'A bulk export with attachments: mmctl export create --attachments, then mmctl export download.'],
  ['zulip', 'Zulip', 'An organization export: ./manage.py export -r REALM on the server, or Organization settings › Data exports.'],
]

const pollEveryMs = 1000

export function ImportAdmin() {
  const [format, setFormat] = useState('slack')
  const [file, setFile] = useState<File | null>(null)
  const [status, setStatus] = useState<zulip.ImportStatus | null>(null)
  const [uploading, setUploading] = useState(false)
  const [error, setError] = useState('')
  const running = uploading || status?.state === 'running'

  // Polls while the export uploads and the import runs; a 503 means the
  // organization is being swapped for the imported one, and the next poll
  // tells how it went.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let live = true
    const again = () => { timer = setTimeout(poll, pollEveryMs) }
    const poll = () => zulip.importStatus().then((s) => {
      if (!live) return
      if (!uploading || s.state === 'running') setStatus(s)
      if (uploading || s.state === 'running') again()
    }, (e) => {
      if (!live) return
      if (uploading || (e instanceof ApiError && e.status === 503)) again()
      else setError(explain(e))
    })
    poll()
    return () => { live = false; clearTimeout(timer) }
  }, [uploading])

  const start = async (e: Event) => {
    e.preventDefault()
    if (!file) return setError('Choose the export file first.')
    setError('')
    setStatus(null)
    setUploading(true)
    try {
      setStatus(await zulip.startImport(format, file))
    } catch (err) {
      setError(explain(err))
    }
    setUploading(false)
  }

  return (
    <section data-testid="import-admin">
      <h3>Import from another chat server</h3>
      <p class="hint">Bring a team's history (people, channels, messages, reactions, files) from Slack, Mattermost or Zulip.
        The import <strong>replaces this organization</strong>, which is only possible while it has no messages. You keep
        your access: if the export has someone with your email, that account becomes yours, as an owner, with your password.
        Imported people have no password until you give them one (Users, or the desktop host panel).</p>
      {!running && status?.state !== 'done' && (
        <form class="stack" onSubmit={start}>
          <fieldset class="choices">
            <legend>Exported from</legend>
            {formats.map(([id, label, how]) => (
              <label class="check import-format">
                <input type="radio" name="import-format" value={id} checked={format === id} data-testid={`import-format-${id}`} onChange={() => setFormat(id)} />
                <span><b>{label}</b><span class="hint">{how}</span></span>
              </label>
            ))}
          </fieldset>
          <label class="field">Export file (.zip or .tar.gz)
            <input type="file" accept=".zip,.tar.gz,.tgz,application/zip,application/gzip" data-testid="import-file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
          </label>
          <div><button class="primary" data-testid="import-start">Import and replace this organization</button></div>
        </form>
      )}
      {running && <ImportProgress status={status?.state === 'running' ? status : { state: 'running', phase: 'upload', records: 0, bytes: 0, total_bytes: 0, remaining_seconds: 0 }} />}
      {status?.state === 'done' && <ImportSummary status={status} />}
      {status?.state === 'failed' && <p class="form-error" role="alert" data-testid="import-failed">The import failed, and this organization is as it was: {status.error}</p>}
      {error && <p class="form-error" role="alert" data-testid="import-error">{error}</p>}
    </section>
  )
}

const phases: Json = { upload: 'Uploading the export', finishing: 'Finishing', done: 'Done' }

export function ImportProgress(p: { status: zulip.ImportStatus }) {
  const s = p.status
  const phase = phases[s.phase ?? ''] ?? `Importing ${s.phase ?? ''}`
  const known = s.total_bytes > 0
  return (
    <div class="import-progress" data-testid="import-progress" role="status">
      <p><b data-testid="import-phase">{phase}…</b></p>
      {known ? <progress value={s.bytes} max={s.total_bytes} aria-label="Import progress" /> : <progress aria-label="Import progress" />}
      <p class="hint" data-testid="import-figures">
        {[s.phase !== 'upload' && `${s.records.toLocaleString()} records written`,
          known && `${megabytes(s.bytes)} of ${megabytes(s.total_bytes)}`,
          s.remaining_seconds > 0 && timeLeft(s.remaining_seconds)].filter(Boolean).join(' · ')}
      </p>
    </div>
  )
}

const shownSkips = 50

export function ImportSummary(p: { status: zulip.ImportStatus }) {
  const sum = p.status.summary!
  const rows: [string, number][] = [['People', sum.users], ['Streams', sum.streams], ['Messages', sum.messages],
    ['Reactions', sum.reactions], ['Files', sum.files], ['Custom emoji', sum.emoji], ['User groups', sum.user_groups], ['Linkifiers', sum.linkifiers]]
  return (
    <div data-testid="import-summary">
      <p role="status"><b>Import complete.</b> This organization now holds the imported team.</p>
      <table class="admin-table import-counts">
        <tbody>
          {rows.map(([label, n]) => <tr data-testid="import-count" data-kind={label}><th scope="row">{label}</th><td>{n.toLocaleString()}</td></tr>)}
        </tbody>
      </table>
      {sum.skipped.length > 0 ? (
        <details data-testid="import-skipped" open={sum.skipped.length <= 10}>
          <summary>{sum.skipped.length === 1 ? '1 record was left out' : `${sum.skipped.length.toLocaleString()} records were left out`}</summary>
          <ul class="import-skips">
            {sum.skipped.slice(0, shownSkips).map((s) => <li><code>{s.record}</code>: {s.reason}</li>)}
            {sum.skipped.length > shownSkips && <li class="hint">and {(sum.skipped.length - shownSkips).toLocaleString()} more</li>}
          </ul>
        </details>
      ) : <p class="hint">Nothing was left out.</p>}
      {sum.changed.length > 0 && (
        <details data-testid="import-changed" open={sum.changed.length <= 10}>
          <summary>{sum.changed.length === 1 ? '1 record was changed to follow Lanchat’s rules' : `${sum.changed.length.toLocaleString()} records were changed to follow Lanchat’s rules`}</summary>
          <ul class="import-skips">
            {sum.changed.slice(0, shownSkips).map((c) => <li><code>{c.record}</code>: {c.change}</li>)}
            {sum.changed.length > shownSkips && <li class="hint">and {(sum.changed.length - shownSkips).toLocaleString()} more</li>}
          </ul>
        </details>
      )}
      <p><button class="primary" data-testid="import-open" onClick={() => location.reload()}>Open the imported organization</button></p>
    </div>
  )
}

function megabytes(n: number) { return `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} MB` }

function timeLeft(seconds: number) {
  if (seconds < 60) return 'less than a minute left'
  const minutes = Math.round(seconds / 60)
  return minutes < 90 ? `about ${minutes} min left` : `about ${Math.round(minutes / 60)} h left`
}
