// Organization settings for administrators (name and description, group-based
// permissions, users, linkifiers, custom emoji) and one's own bots with their keys.
import { useEffect, useRef, useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import type { User } from '../state/types'
import { useStatus } from './SettingsProfile'
import { limits } from '../state/limits'


const value = (e: Event) => (e.target as HTMLInputElement).value

// permissionChoices: the organization's group settings an administrator
// sets here, each with the system groups Zulip 9.0 lets it be; the two that
// take a group's ID are sent under their `_id` names, the others as
// {new, old}.
const permissionChoices: { setting: string; label: string; groups: string[] }[] = [
  { setting: 'can_create_public_channel_group', label: 'Who can create public streams', groups: ['role:administrators', 'role:moderators', 'role:fullmembers', 'role:members'] },
  { setting: 'can_create_private_channel_group', label: 'Who can create private streams', groups: ['role:administrators', 'role:moderators', 'role:fullmembers', 'role:members'] },
  { setting: 'create_multiuse_invite_group', label: 'Who can create reusable invitation links', groups: ['role:nobody', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members'] },
  { setting: 'direct_message_initiator_group', label: 'Who can start direct message conversations', groups: ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone'] },
  { setting: 'direct_message_permission_group', label: 'Who can authorize direct message conversations', groups: ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone'] },
  { setting: 'can_delete_any_message_group', label: 'Who can delete any message', groups: ['role:administrators', 'role:moderators', 'role:fullmembers', 'role:members'] },
  { setting: 'can_delete_own_message_group', label: 'Who can delete their own messages', groups: ['role:nobody', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone'] },
]

const groupLabels: Record<string, string> = {
  'role:nobody': 'Nobody', 'role:owners': 'Owners', 'role:administrators': 'Administrators', 'role:moderators': 'Moderators',
  'role:fullmembers': 'Full members', 'role:members': 'Members', 'role:everyone': 'Everyone, guests included',
}

// PermissionsAdmin sets the organization's group-based permissions to a
// system group; one set to people or other groups (through the API) shows
// as "Custom" until changed.
function PermissionsAdmin(p: { chat: Chat }) {
  const [run, status] = useStatus()
  const ids = new Map([...p.chat.systemGroups].map(([id, name]) => [name, id]))
  const save = (c: (typeof permissionChoices)[number], name: string) => {
    const id = ids.get(name)
    const change = { [c.setting]: { new: id, old: p.chat.groupSettings[c.setting] } }
    run(() => zulip.updateRealm(change), 'Permission saved.')
  }
  return (
    <section>
      <h3>Permissions</h3>
      <div class="stack">
        {permissionChoices.map((c) => {
          const current = p.chat.groupSettings[c.setting]
          const name = typeof current === 'number' ? p.chat.systemGroups.get(current) : undefined
          return (
            <label class="field" key={c.setting}>{c.label}
              <select data-testid={`permission-${c.setting}`} value={name ?? 'custom'} onChange={(e) => save(c, value(e))}>
                {!name && <option value="custom" disabled>Custom</option>}
                {c.groups.map((g) => <option value={g}>{groupLabels[g]}</option>)}
              </select>
            </label>
          )
        })}
      </div>
      {status}
    </section>
  )
}

export function OrganizationSettings(p: { chat: Chat }) {
  const [name, setName] = useState(p.chat.realmName)
  const [description, setDescription] = useState('')
  const [run, status] = useStatus()
  useEffect(() => { zulip.serverSettings().then((r) => setDescription(r.realm_description ?? ''), () => {}) }, [])
  return (
    <section>
      <h3>Organization profile</h3>
      <form class="stack" onSubmit={(e) => { e.preventDefault(); run(() => zulip.updateRealm({ name: name.trim(), description }), 'Organization saved.') }}>
        <label class="field">Organization name<input data-testid="org-name" maxLength={limits.realmName} value={name} onInput={(e) => setName(value(e))} /></label>
        <label class="field">Description<textarea data-testid="org-description" rows={3} maxLength={limits.realmDescription} value={description} onInput={(e) => setDescription(value(e))} /></label>
        <div><button class="primary" data-testid="org-save">Save</button></div>
      </form>
      {status}
      <PermissionsAdmin chat={p.chat} />
    </section>
  )
}

const roleChoices: [number, string][] = [[100, 'Owner'], [200, 'Administrator'], [300, 'Moderator'], [400, 'Member'], [600, 'Guest']]

export function UsersAdmin(p: { chat: Chat }) {
  const { chat } = p
  const [find, setFind] = useState('')
  const [form, setForm] = useState({ full_name: '', email: '', password: '' })
  const [issued, setIssued] = useState<{ name: string; password: string } | null>(null)
  const [deactivating, setDeactivating] = useState<User | null>(null)
  const [run, status] = useStatus()
  const people = [...chat.users.values()].filter((u) => !u.is_bot)
    .filter((u) => `${u.full_name} ${u.email}`.toLowerCase().includes(find.trim().toLowerCase()))
    .sort((a, b) => Number(a.is_active === false) - Number(b.is_active === false) || a.full_name.localeCompare(b.full_name))
  return (
    <section>
      <h3>Users</h3>
      <input type="search" aria-label="Filter users" placeholder="Filter users" data-testid="users-filter" value={find} onInput={(e) => setFind(value(e))} />
      <table class="admin-table">
        <thead><tr><th>Name</th><th>Email</th><th>Role</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {people.map((u) => {
            const active = u.is_active !== false
            return (
              <tr data-testid="admin-user" data-email={u.email} data-active={active ? 'true' : 'false'} key={u.user_id}>
                <td>{u.full_name}</td><td class="hint">{u.email}</td>
                <td>
                  <select aria-label={`Role of ${u.full_name}`} data-testid="admin-user-role" value={String(u.role ?? 400)} disabled={!active || u.user_id === chat.me.user_id}
                    onChange={(e) => run(() => zulip.setRole(u.user_id, Number(value(e))), `${u.full_name}'s role changed.`)}>
                    {roleChoices.map(([n, label]) => <option value={String(n)}>{label}</option>)}
                  </select>
                </td>
                <td><div class="row">
                  {u.user_id !== chat.me.user_id && active && (u.role !== 100 || chat.me.role === 100) && (
                    <button data-testid="admin-user-password" title="Imported people have no password until they are given one"
                      onClick={() => run(() => zulip.issuePassword(u.user_id).then((password) => setIssued({ name: u.full_name, password })))}>
                      Issue password
                    </button>)}
                  {u.user_id !== chat.me.user_id && (active
                    ? <button data-testid="admin-user-deactivate" onClick={() => setDeactivating(u)}>Deactivate</button>
                    : <button data-testid="admin-user-reactivate" onClick={() => run(() => zulip.reactivateUser(u.user_id), `${u.full_name} was reactivated.`)}>Reactivate</button>)}
                </div></td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {deactivating && <ConfirmDeactivate user={deactivating} onCancel={() => setDeactivating(null)} onConfirm={() => {
        setDeactivating(null)
        run(() => zulip.deactivateUser(deactivating.user_id), `${deactivating.full_name} was deactivated.`)
      }} />}
      {issued && <p role="status" data-testid="admin-issued-password">{issued.name} now signs in with the password <code>{issued.password}</code>: pass it on. Their open sessions ended.</p>}
      <h3>Add a user</h3>
      <form class="row" onSubmit={(e) => {
        e.preventDefault()
        run(() => zulip.createUser({ ...form, full_name: form.full_name.trim(), email: form.email.trim() }).then(() => setForm({ full_name: '', email: '', password: '' })),
          `Account created for ${form.email.trim()}. Give them the password to sign in.`)
      }}>
        <label class="field grow">Full name<input data-testid="new-user-name" maxLength={limits.fullName} value={form.full_name} onInput={(e) => setForm({ ...form, full_name: value(e) })} /></label>
        <label class="field grow">Email<input type="email" data-testid="new-user-email" maxLength={limits.email} value={form.email} onInput={(e) => setForm({ ...form, email: value(e) })} /></label>
        <label class="field grow">Password<input type="text" autocomplete="off" data-testid="new-user-password" value={form.password} onInput={(e) => setForm({ ...form, password: value(e) })} /></label>
        <button class="primary" data-testid="new-user-submit">Create account</button>
      </form>
      {status}
    </section>
  )
}

// ConfirmDeactivate asks before a person is deactivated, naming them, as Zulip does.
function ConfirmDeactivate(p: { user: User; onCancel: () => void; onConfirm: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null)
  // Esc answers the question, wherever the focus is, before the settings see it and close.
  useEffect(() => {
    cancel.current?.focus()
    const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); p.onCancel() } }
    window.addEventListener('keydown', escape, true)
    return () => window.removeEventListener('keydown', escape, true)
  }, [])
  return (
    <div class="overlay" onClick={(e) => { e.stopPropagation(); p.onCancel() }}>
      <div class="panel" role="alertdialog" aria-labelledby="deactivate-title" data-testid="deactivate-confirm" onClick={(e) => e.stopPropagation()}>
        <header><h2 id="deactivate-title">Deactivate {p.user.full_name}?</h2></header>
        <p>{p.user.full_name} ({p.user.email}) will be signed out at once and can no longer sign in. Their messages stay; an administrator can reactivate them later.</p>
        <div class="row">
          <button class="danger" data-testid="deactivate-confirm-button" onClick={p.onConfirm}>Deactivate</button>
          <button ref={cancel} onClick={p.onCancel}>Cancel</button>
        </div>
      </div>
    </div>
  )
}

export function LinkifiersAdmin() {
  const [list, setList] = useState<zulip.Linkifier[]>([])
  const [pattern, setPattern] = useState('')
  const [template, setTemplate] = useState('')
  const [run, status] = useStatus()
  const reload = () => zulip.linkifiers().then(setList)
  useEffect(() => { run(reload) }, [])
  return (
    <section>
      <h3>Linkifiers</h3>
      <p class="hint">Turn text such as <code>#123</code> into links. The pattern is a regular expression with named groups; the URL template uses them, e.g. <code>https://tracker.example/{'{id}'}</code>.</p>
      <table class="admin-table">
        <thead><tr><th>Pattern</th><th>URL template</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {list.map((l) => (
            <tr data-testid="linkifier" key={l.id}><td><code>{l.pattern}</code></td><td><code>{l.url_template}</code></td>
              <td><button data-testid="linkifier-delete" aria-label={`Delete linkifier ${l.pattern}`} onClick={() => run(() => zulip.removeLinkifier(l.id).then(reload), 'Linkifier deleted.')}>Delete</button></td></tr>
          ))}
          {!list.length && <tr><td colSpan={3} class="hint">No linkifiers yet.</td></tr>}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => { e.preventDefault(); run(() => zulip.addLinkifier(pattern, template).then(() => { setPattern(''); setTemplate(''); return reload() }), 'Linkifier added.') }}>
        <label class="field grow">Pattern<input data-testid="linkifier-pattern" maxLength={limits.linkifierPattern} placeholder="#(?P<id>[0-9]+)" value={pattern} onInput={(e) => setPattern(value(e))} /></label>
        <label class="field grow">URL template<input data-testid="linkifier-template" maxLength={limits.urlTemplate} placeholder="https://tracker.example/{id}" value={template} onInput={(e) => setTemplate(value(e))} /></label>
        <button class="primary" data-testid="linkifier-add">Add linkifier</button>
      </form>
      {status}
    </section>
  )
}

export function EmojiAdmin(p: { chat: Chat }) {
  const [run, status] = useStatus()
  const custom = Object.values(p.chat.realmEmoji).filter((e) => !e.deactivated)
  return (
    <section>
      <h3>Custom emoji</h3>
      <ul class="emoji-admin">
        {custom.map((e) => (
          <li data-testid="admin-emoji" data-emoji-name={e.name}><img src={e.source_url} alt="" /> <code>:{e.name}:</code>
            <button aria-label={`Remove :${e.name}:`} data-testid="admin-emoji-remove" onClick={() => run(() => zulip.removeRealmEmoji(e.name), `:${e.name}: removed.`)}>Remove</button></li>
        ))}
        {!custom.length && <li class="hint">No custom emoji yet: add one under Preferences.</li>}
      </ul>
      {status}
    </section>
  )
}

export function BotsSettings() {
  const [bots, setBots] = useState<zulip.Bot[]>([])
  const [name, setName] = useState('')
  const [short, setShort] = useState('')
  const [run, status] = useStatus()
  const reload = () => zulip.bots().then(setBots)
  useEffect(() => { run(reload) }, [])
  return (
    <section>
      <h3>Your bots</h3>
      <table class="admin-table">
        <thead><tr><th>Bot</th><th>API key</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {bots.filter((b) => b.is_active).map((b) => (
            <tr data-testid="bot" data-email={b.email} key={b.user_id}>
              <td>{b.full_name}<div class="hint">{b.email}</div></td>
              <td><code class="key" data-testid="bot-key">{b.api_key}</code></td>
              <td class="row">
                <button data-testid="bot-regenerate" aria-label={`New API key for ${b.full_name}`} onClick={() => run(() => zulip.regenerateBotKey(b.user_id).then(reload), 'A new key was made; the old one no longer works.')}>New key</button>
                <button class="danger" data-testid="bot-deactivate" aria-label={`Deactivate ${b.full_name}`} onClick={() => run(() => zulip.deactivateBot(b.user_id).then(reload), `${b.full_name} was deactivated.`)}>Deactivate</button>
              </td>
            </tr>
          ))}
          {!bots.some((b) => b.is_active) && <tr><td colSpan={3} class="hint">You have no bots.</td></tr>}
        </tbody>
      </table>
      <form class="row" onSubmit={(e) => { e.preventDefault(); run(() => zulip.createBot(name.trim(), short.trim()).then(() => { setName(''); setShort(''); return reload() }), 'Bot created.') }}>
        <label class="field grow">Bot name<input data-testid="bot-name" maxLength={limits.fullName} value={name} onInput={(e) => setName(value(e))} /></label>
        <label class="field grow">Username (before -bot@)<input data-testid="bot-short-name" value={short} onInput={(e) => setShort(value(e))} /></label>
        <button class="primary" data-testid="bot-create">Create bot</button>
      </form>
      {status}
    </section>
  )
}
