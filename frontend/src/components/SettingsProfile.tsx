// One's own settings: profile (name, avatar, password, time zone) and
// notification preferences.
import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import { explain } from '../state/errors'
import type { Chat } from '../state/chat'
import { limits } from '../state/limits'
import { SavedCheckbox } from './SavedCheckbox'

// useStatus runs a settings change and shows its outcome in plain words.
export function useStatus() {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)
  // run resolves to whether f succeeded.
  const run = (f: () => Promise<unknown>, done = '') => {
    setStatus(null)
    return f().then(() => { if (done) setStatus({ ok: true, text: done }); return true }, (e) => { setStatus({ ok: false, text: explain(e) }); return false })
  }
  const view = status && <p class={status.ok ? 'hint' : 'form-error'} role={status.ok ? 'status' : 'alert'} data-testid="settings-status">{status.text}</p>
  return [run, view] as const
}

export function ProfileSettings(p: { chat: Chat }) {
  const { chat } = p
  const [name, setName] = useState(chat.me.full_name)
  const [oldPassword, setOld] = useState('')
  const [newPassword, setNew] = useState('')
  const [run, status] = useStatus()
  const me = chat.users.get(chat.me.user_id) ?? chat.me
  return (
    <>
      <section>
        <h3>Your account</h3>
        <div class="row profile-head">
          <img class="avatar large" src={me.avatar_url ?? `/avatar/${me.user_id}`} alt="Your avatar" data-testid="profile-avatar" />
          <label class="button-like">Upload new avatar
            <input type="file" data-testid="avatar-upload" accept="image/png,image/gif,image/jpeg,image/webp" class="visually-hidden"
              onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) run(() => zulip.uploadAvatar(f), 'Avatar updated.') }} />
          </label>
          <button onClick={() => run(() => zulip.resetAvatar(), 'Avatar reset.')}>Use the default avatar</button>
        </div>
        <form class="row" onSubmit={(e) => { e.preventDefault(); run(() => zulip.updateSettings({ full_name: name.trim() }), 'Name saved.') }}>
          <label class="field grow">Full name<input data-testid="profile-name" maxLength={limits.fullName} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
          <button class="primary" data-testid="profile-name-save">Save name</button>
        </form>
        <p class="hint">Email: {chat.me.email}</p>
        <label class="field">Time zone (others see your local time on your card)
          <select data-testid="profile-timezone" value={(me as { timezone?: string }).timezone ?? ''}
            onChange={(e) => run(() => zulip.updateSettings({ timezone: (e.target as HTMLSelectElement).value }), 'Time zone saved.')}>
            <option value="">Not set</option>
            {Intl.supportedValuesOf('timeZone').map((z) => <option value={z}>{z}</option>)}
          </select>
        </label>
      </section>
      <section>
        <h3>Change password</h3>
        <form class="row" onSubmit={(e) => {
          e.preventDefault()
          run(() => zulip.updateSettings({ old_password: oldPassword, new_password: newPassword }).then(() => { setOld(''); setNew('') }), 'Password changed.')
        }}>
          <label class="field grow">Current password<input type="password" autocomplete="current-password" data-testid="password-old" value={oldPassword} onInput={(e) => setOld((e.target as HTMLInputElement).value)} /></label>
          <label class="field grow">New password<input type="password" autocomplete="new-password" data-testid="password-new" value={newPassword} onInput={(e) => setNew((e.target as HTMLInputElement).value)} /></label>
          <button class="primary" data-testid="password-save">Change password</button>
        </form>
      </section>
      {status}
    </>
  )
}

const notificationSettings: [string, string][] = [
  ['enable_desktop_notifications', 'Desktop notifications for direct messages and mentions'],
  ['enable_sounds', 'Sounds for direct messages and mentions'],
  ['pm_content_in_desktop_notifications', 'Show message content in notifications'],
  ['enable_stream_desktop_notifications', 'Desktop notifications for every stream message'],
  ['enable_stream_audible_notifications', 'Sounds for every stream message'],
  ['wildcard_mentions_notify', 'Notify on @all and @everyone mentions'],
  ['enable_online_push_notifications', 'Mobile push notifications while online'],
  ['enable_offline_push_notifications', 'Mobile push notifications while away'],
  ['send_private_typing_notifications', 'Let others see when I type direct messages'],
  ['send_stream_typing_notifications', 'Let others see when I type in streams'],
  ['presence_enabled', 'Show others when I am active'],
]

export function NotificationSettings(p: { chat: Chat }) {
  const [run, status] = useStatus()
  const s = p.chat.userSettings
  return (
    <section>
      <h3>Notifications</h3>
      {notificationSettings.map(([key, label]) => (
        <label class="check" key={key}>
          <SavedCheckbox testid={`setting-${key}`} checked={!!s[key]} save={(checked) => run(() => zulip.updateSettings({ [key]: checked }), 'Saved.')} />
          <span>{label}</span>
        </label>
      ))}
      {status}
    </section>
  )
}
