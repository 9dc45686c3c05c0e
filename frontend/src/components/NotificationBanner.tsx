import { useState } from 'preact/hooks'
import { askPermission, permission } from '../api/notifier'

const dismissedKey = 'lanchat.notifications.banner'

// NotificationBanner asks for permission to notify, as Zulip does: once, in
// a banner the person can act on or dismiss, not as a prompt on page load.
// Where the browser offers no notifications (plain HTTP over the LAN) it
// says so once, with what to do.
export function NotificationBanner() {
  // Read once, not at every render: asking the browser for the permission
  // is a round trip to its process.
  const [state, setState] = useState(permission)
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(dismissedKey) === state)
  if (dismissed || (state !== 'default' && state !== 'unavailable')) return null
  const dismiss = () => { localStorage.setItem(dismissedKey, state); setDismissed(true) }
  return (
    <div class="banner" role="region" aria-label="Notifications" data-testid="notification-banner">
      {state === 'default' ? <>
        <span>Get a notification when someone mentions you or sends you a direct message.</span>
        <button class="primary" data-testid="enable-notifications" onClick={async () => setState(await askPermission())}>Enable notifications</button>
      </> : <span>
        Notifications are not available here: browsers offer them only over HTTPS or on this computer itself. Ask the
        host for the https:// address of this team (Host panel), or use the Lanchat desktop app.
      </span>}
      <button data-testid="dismiss-notifications" onClick={dismiss}>{state === 'default' ? 'Not now' : 'Got it'}</button>
    </div>
  )
}
