import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import { ShortcutList } from './Shortcuts'
import { explain } from '../state/errors'
import { BotsSettings, EmojiAdmin, LinkifiersAdmin, OrganizationSettings, UsersAdmin } from './SettingsAdmin'
import { ImportAdmin } from './SettingsImport'
import { NotificationSettings, ProfileSettings } from './SettingsProfile'
import { PhoneSubscription } from './PhoneSubscription'
import { ProfileFieldsAdmin, ProfileFieldsForm } from './ProfileFields'
import { saveTheme, type Theme } from './AccountTheme'
import { limits } from '../state/limits'
import { SavedCheckbox } from './SavedCheckbox'

// The settings tabs, as in Zulip's settings overlay; the next five only
// for administrators, and the import for owners.
const tabs = [['preferences', 'Preferences'], ['profile', 'Profile'], ['notifications', 'Notifications'], ['bots', 'Bots'],
  ['organization', 'Organization'], ['users', 'Users'], ['linkifiers', 'Linkifiers'], ['emoji', 'Custom emoji'],
  ['profile-fields', 'Profile fields'], ['import', 'Import']] as const
const ownerRole = 100
type Tab = (typeof tabs)[number][0]

export function Settings(p: { chat: Chat; theme: Theme; setTheme: (t: Theme) => void; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('preferences')
  const [name, setName] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [status, setStatus] = useState('')
  const addEmoji = async (e: Event) => {
    e.preventDefault()
    if (!file || !name.trim()) return
    try {
      await zulip.addRealmEmoji(name.trim(), file)
      setStatus(`Added :${name.trim()}:`)
      setName('')
    } catch (err) {
      setStatus(explain(err))
    }
  }
  const custom = Object.values(p.chat.realmEmoji).filter((e) => !e.deactivated)
  // saveSetting resolves to whether the change was saved; why not is said.
  const saveSetting = (change: Record<string, unknown>) =>
    zulip.updateSettings(change).then(() => true, (err) => { setStatus(explain(err)); return false })
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel settings-panel" data-testid="settings" role="dialog" aria-label="Settings" onClick={(e) => e.stopPropagation()}>
        <header><h2>Settings</h2><button class="icon" onClick={p.onClose} title="Close" aria-label="Close">✕</button></header>
        <div class="settings-body">
        <nav class="settings-tabs" role="tablist" aria-label="Settings sections">
          {tabs.slice(0, p.chat.me.role === ownerRole ? tabs.length : p.chat.isAdmin ? tabs.length - 1 : 4).map(([id, label]) => (
            <button role="tab" aria-selected={tab === id} class={tab === id ? 'on' : ''} data-testid={`settings-tab-${id}`} onClick={() => setTab(id)}>{label}</button>
          ))}
        </nav>
        <div class="settings-page">
        {tab === 'profile' && <><ProfileSettings chat={p.chat} /><ProfileFieldsForm chat={p.chat} /></>}
        {tab === 'notifications' && <><NotificationSettings chat={p.chat} /><PhoneSubscription /></>}
        {tab === 'bots' && <BotsSettings />}
        {tab === 'organization' && <OrganizationSettings chat={p.chat} />}
        {tab === 'users' && <UsersAdmin chat={p.chat} />}
        {tab === 'linkifiers' && <LinkifiersAdmin />}
        {tab === 'emoji' && <EmojiAdmin chat={p.chat} />}
        {tab === 'profile-fields' && <ProfileFieldsAdmin chat={p.chat} />}
        {tab === 'import' && <ImportAdmin />}
        {tab === 'preferences' && <>
        <section>
          <h3>Appearance</h3>
          <button data-testid="theme-toggle" onClick={() => { const t = p.theme === 'dark' ? 'light' : 'dark'; p.setTheme(t); saveTheme(t).catch((e) => setStatus(explain(e))) }}>
            {p.theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          </button>
          <label class="check">
            <SavedCheckbox testid="setting-twenty_four_hour_time" checked={p.chat.twentyFourHour} save={(checked) => saveSetting({ twenty_four_hour_time: checked })} />
            <span>Time in 24-hour format</span>
          </label>
          <label class="check">
            <SavedCheckbox testid="setting-enter_sends" checked={p.chat.enterSends} save={(checked) => saveSetting({ enter_sends: checked })} />
            <span>Enter sends a message (when off, Ctrl+Enter sends and Enter starts a new line)</span>
          </label>
        </section>
        <section>
          <h3>Custom emoji</h3>
          <div class="emoji-grid">{custom.map((e) => <span title={`:${e.name}:`}><img src={e.source_url} alt={e.name} /> {e.name}</span>)}</div>
          <form onSubmit={addEmoji} class="row">
            <input data-testid="emoji-upload-name" aria-label="Emoji name" placeholder="name" maxLength={limits.emojiName} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <input data-testid="emoji-upload-file" aria-label="Emoji image" type="file" accept="image/png,image/gif,image/jpeg,image/webp" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
            <button class="primary" data-testid="emoji-upload-submit">Add emoji</button>
          </form>
          {status && <p class="hint">{status}</p>}
        </section>
        <section>
          <h3>Keyboard shortcuts</h3>
          <ShortcutList />
        </section>
        </>}
        </div>
        </div>
      </div>
    </div>
  )
}
