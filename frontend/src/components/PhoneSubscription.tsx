import { useEffect, useState } from 'preact/hooks'
import { desktop } from '../api/desktop'
import { api } from '../api/transport'
import { useStatus } from './SettingsProfile'

interface Subscription { topic: string; port: number }

// serverHost is the name phones reach this team's host by: the page's own
// host in a browser; in the desktop window (served in-process), the team's
// address from the app.
async function serverHost(): Promise<string> {
  const host = desktop()
  if (!host) return location.hostname
  const info = await host.HostInfo()
  return new URL(info.joined || info.joinUrl).hostname
}

// PhoneSubscription shows how the person's phone hears of their mentions and
// direct messages on the LAN: ntfy's app subscribed to their secret topic on
// this host (backend/ntfy). The QR code is ntfy's link, which opens the app
// at its "Subscribe to topic" with the server and topic filled in.
export function PhoneSubscription(p: { who?: string }) {
  const [sub, setSub] = useState<Subscription | null>(null)
  const [host, setHost] = useState('')
  const [qr, setQr] = useState('')
  const [run, status] = useStatus()
  useEffect(() => {
    run(async () => {
      const [s, h] = await Promise.all([api.get('/api/v1/users/me/ntfy') as Promise<Subscription>, serverHost()])
      setSub(s)
      setHost(h)
    })
  }, [])
  const server = sub && host ? `http://${host.includes(':') ? `[${host}]` : host}:${sub.port}` : ''
  useEffect(() => {
    if (!server || !sub) return
    const link = `ntfy://${server.slice('http://'.length)}/${sub.topic}?secure=false`
    import('qrcode').then(({ default: QRCode }) => QRCode.toDataURL(link, { margin: 1, width: 180 })).then(setQr, () => setQr(''))
  }, [server, sub?.topic])
  const regenerate = () => run(async () => setSub(await api.post('/api/v1/users/me/ntfy/regenerate') as Subscription),
    'New topic: subscribe to it again on the phone. The old one hears nothing more.')
  if (sub && !sub.port) {
    return <section data-testid="phone-subscription"><h3>On {p.who ?? 'your'} phone</h3>
      <p class="hint">This host serves no phone notifications (it was started with <code>--ntfy-addr off</code>).</p></section>
  }
  return (
    <section data-testid="phone-subscription">
      <h3>On {p.who ?? 'your'} phone</h3>
      <p class="hint">Your phone can hear of direct messages and mentions (what this page notifies you of) while it is on this
        network, through the ntfy app (Android, F-Droid or Google Play), without the internet.</p>
      {sub && server ? <div class="join">
        <div>
          <ol data-testid="phone-steps">
            <li>Install <b>ntfy</b> on the phone and open it.</li>
            <li>Scan this QR code with the phone's camera, or tap <b>+</b> (<b>Add subscription</b>) and:</li>
            <li>enter the topic <code data-testid="phone-topic">{sub.topic}</code>,</li>
            <li>tick <b>Use another server</b> and enter <code data-testid="phone-server">{server}</code>,</li>
            <li>tap <b>Subscribe</b>.</li>
          </ol>
          <p class="hint">The topic is a secret: whoever knows it reads your notifications. If it got out, replace it.</p>
          <button data-testid="phone-regenerate" onClick={regenerate}>Replace the topic</button>
        </div>
        {qr && <img data-testid="phone-qr" src={qr} alt={`QR code of the ntfy subscription ${server}/${sub.topic}`} />}
      </div> : null}
      {status}
    </section>
  )
}
