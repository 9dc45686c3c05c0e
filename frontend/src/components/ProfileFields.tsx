// Custom profile fields, as in Zulip: the values on the user card, one's own
// values in Settings › Profile, and the administrators' list of fields in
// Settings › Profile fields.
import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import type { ProfileField, User } from '../state/types'
import { useStatus } from './SettingsProfile'
import { SavedCheckbox } from './SavedCheckbox'
import { limits } from '../state/limits'

export const fieldTypes: [number, string][] = [
  [1, 'Short text'], [2, 'Long text'], [3, 'List of options'], [4, 'Date'], [5, 'Link'], [6, 'Person'], [7, 'External account'], [8, 'Pronouns'],
]

const externalURLs: Record<string, string> = { github: 'https://github.com/%(username)s', twitter: 'https://x.com/%(username)s' }

// options are a list field's choices, in their order: [key, text].
function options(f: ProfileField): [string, string][] {
  try {
    const data = JSON.parse(f.field_data || '{}') as Record<string, { text: string; order: string }>
    return Object.entries(data).sort(([, a], [, b]) => Number(a.order) - Number(b.order)).map(([key, o]) => [key, o.text])
  } catch {
    return []
  }
}

// externalLink is where an external account's username points.
function externalLink(f: ProfileField, username: string): string {
  try {
    const data = JSON.parse(f.field_data || '{}') as { subtype?: string; url_pattern?: string }
    const pattern = data.subtype === 'custom' ? data.url_pattern : externalURLs[data.subtype ?? '']
    return pattern ? pattern.replace('%(username)s', encodeURIComponent(username)) : ''
  } catch {
    return ''
  }
}

// personIDs reads a person field's value, a JSON list of user IDs.
function personIDs(value: string): number[] {
  try {
    const ids = JSON.parse(value)
    return Array.isArray(ids) ? ids.filter((id) => typeof id === 'number') : []
  } catch {
    return []
  }
}

// FieldValue shows a value as its type reads: a choice's text, a link,
// people's names; text as written.
function FieldValue(p: { chat: Chat; field: ProfileField; value: string }) {
  const { field, value } = p
  switch (field.type) {
    case 3: return <>{options(field).find(([key]) => key === value)?.[1] ?? value}</>
    case 5: return /^https?:\/\//.test(value) ? <a href={value} target="_blank" rel="noopener noreferrer">{value}</a> : <>{value}</>
    case 6: return <>{personIDs(value).map((id) => p.chat.users.get(id)?.full_name ?? `user ${id}`).join(', ')}</>
    case 7: {
      const href = externalLink(field, value)
      return /^https?:\/\//.test(href) ? <a href={href} target="_blank" rel="noopener noreferrer">{value}</a> : <>{value}</>
    }
  }
  return <span class="profile-text">{value}</span>
}

// ProfileFacts are the person's filled-in fields, for the user card.
export function ProfileFacts(p: { chat: Chat; user: User }) {
  const data = p.user.profile_data ?? {}
  return (
    <>
      {p.chat.profileFields.filter((f) => data[f.id]?.value).map((f) => (
        <><dt key={`t${f.id}`}>{f.name}</dt><dd key={`d${f.id}`} data-testid="user-card-field"><FieldValue chat={p.chat} field={f} value={data[f.id].value} /></dd></>
      ))}
    </>
  )
}

// FieldInput edits one value; a person field takes one person here. A field
// not editable by users is read-only, except for administrators.
function FieldInput(p: { chat: Chat; field: ProfileField; value: string; onInput: (v: string) => void }) {
  const { field, value } = p
  const disabled = field.editable_by_user === false && !p.chat.isAdmin
  const common = { 'data-testid': `profile-field-${field.id}`, placeholder: field.hint, value, disabled }
  const set = (e: Event) => p.onInput((e.target as HTMLInputElement).value)
  switch (field.type) {
    case 2: return <textarea {...common} rows={3} maxLength={limits.longProfileValue} onInput={set} />
    case 3: return (
      <select {...common} onChange={set}>
        <option value="">Not set</option>
        {options(field).map(([key, text]) => <option value={key}>{text}</option>)}
      </select>
    )
    case 4: return <input {...common} type="date" onInput={set} />
    case 5: return <input {...common} type="url" maxLength={limits.urlProfileValue} onInput={set} />
    case 6: return (
      <select {...common} value={String(personIDs(value)[0] ?? '')} onChange={(e) => { const id = (e.target as HTMLSelectElement).value; p.onInput(id ? `[${id}]` : '') }}>
        <option value="">Nobody</option>
        {[...p.chat.users.values()].filter((u) => !u.is_bot && u.is_active !== false).map((u) => <option value={u.user_id}>{u.full_name}</option>)}
      </select>
    )
  }
  return <input {...common} maxLength={limits.shortProfileValue} onInput={set} />
}

// ProfileFieldsForm is one's own values, saved together: filled fields are
// set, emptied ones cleared.
export function ProfileFieldsForm(p: { chat: Chat }) {
  const { chat } = p
  const mine = chat.users.get(chat.me.user_id)?.profile_data ?? {}
  const [edits, setEdits] = useState<Record<number, string>>({})
  const [run, status] = useStatus()
  if (!chat.profileFields.length) return null
  const valueOf = (f: ProfileField) => edits[f.id] ?? mine[f.id]?.value ?? ''
  const save = () => {
    const changed = chat.profileFields.filter((f) => f.id in edits && edits[f.id] !== (mine[f.id]?.value ?? ''))
    const set = changed.filter((f) => edits[f.id].trim()).map((f) => ({ id: f.id, value: f.type === 6 ? personIDs(edits[f.id]) : edits[f.id].trim() }))
    const cleared = changed.filter((f) => !edits[f.id].trim()).map((f) => f.id)
    return run(async () => {
      if (set.length) await zulip.setProfileData(set)
      if (cleared.length) await zulip.clearProfileData(cleared)
      setEdits({})
    }, 'Profile saved.')
  }
  return (
    <section>
      <h3>Profile</h3>
      <form class="stack" onSubmit={(e) => { e.preventDefault(); save() }}>
        {chat.profileFields.map((f) => (
          <label class="field" key={f.id}>{f.name}{f.required && <span class="hint"> (required)</span>}
            <FieldInput chat={chat} field={f} value={valueOf(f)} onInput={(v) => setEdits({ ...edits, [f.id]: v })} />
          </label>
        ))}
        <div><button class="primary" data-testid="profile-fields-save">Save profile</button></div>
      </form>
      {status}
    </section>
  )
}

// ProfileFieldsAdmin lists the organization's fields, in order, to move,
// require, keep from people's own editing, or delete, and adds new ones.
export function ProfileFieldsAdmin(p: { chat: Chat }) {
  const fields = p.chat.profileFields
  const [name, setName] = useState('')
  const [hint, setHint] = useState('')
  const [type, setType] = useState(1)
  const [choices, setChoices] = useState('')
  const [required, setRequired] = useState(false)
  const [run, status] = useStatus()
  const move = (i: number, by: number) => {
    const order = fields.map((f) => f.id)
    ;[order[i], order[i + by]] = [order[i + by], order[i]]
    run(() => zulip.reorderProfileFields(order), 'Order saved.')
  }
  const add = (e: Event) => {
    e.preventDefault()
    const form: zulip.ProfileFieldForm = { name: name.trim(), hint: hint.trim(), field_type: type, required }
    if (type === 3) {
      const texts = choices.split('\n').map((c) => c.trim()).filter(Boolean)
      form.field_data = Object.fromEntries(texts.map((text, i) => [String(i), { text, order: String(i + 1) }]))
    }
    if (type === 7) form.field_data = { subtype: 'github' }
    run(() => zulip.addProfileField(form).then(() => { setName(''); setHint(''); setChoices(''); setRequired(false) }), 'Field added.')
  }
  return (
    <section>
      <h3>Custom profile fields</h3>
      <p class="hint">Fields everyone can fill in on their profile, shown on their user card.</p>
      <table class="admin-table">
        <thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Editable by users</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {fields.map((f, i) => (
            <tr data-testid="profile-field-row" key={f.id}>
              <td>{f.name}{f.hint && <div class="hint">{f.hint}</div>}</td>
              <td>{fieldTypes.find(([t]) => t === f.type)?.[1]}</td>
              <td><SavedCheckbox label={`${f.name} is required`} testid="profile-field-required" checked={f.required}
                save={(required) => run(() => zulip.updateProfileField(f.id, { required }), 'Field saved.')} /></td>
              <td><SavedCheckbox label={`${f.name} is editable by users`} testid="profile-field-editable" checked={f.editable_by_user !== false}
                save={(editable_by_user) => run(() => zulip.updateProfileField(f.id, { editable_by_user }), 'Field saved.')} /></td>
              <td><div class="row">
                <button disabled={i === 0} aria-label={`Move ${f.name} up`} onClick={() => move(i, -1)}>↑</button>
                <button disabled={i === fields.length - 1} aria-label={`Move ${f.name} down`} onClick={() => move(i, 1)}>↓</button>
                <button data-testid="profile-field-delete" aria-label={`Delete field ${f.name}`} onClick={() => run(() => zulip.removeProfileField(f.id), 'Field deleted.')}>Delete</button>
              </div></td>
            </tr>
          ))}
          {!fields.length && <tr><td colSpan={5} class="hint">No custom profile fields yet.</td></tr>}
        </tbody>
      </table>
      <form class="stack" onSubmit={add}>
        <div class="row">
          <label class="field grow">Type
            <select data-testid="profile-field-type" value={String(type)} onChange={(e) => setType(Number((e.target as HTMLSelectElement).value))}>
              {fieldTypes.map(([t, label]) => <option value={t}>{label}{t === 7 ? ' (GitHub)' : ''}</option>)}
            </select>
          </label>
          {type !== 7 && <label class="field grow">Name<input data-testid="profile-field-name" maxLength={limits.profileFieldName} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>}
          {type !== 7 && <label class="field grow">Hint<input data-testid="profile-field-hint" maxLength={limits.profileFieldHint} value={hint} onInput={(e) => setHint((e.target as HTMLInputElement).value)} /></label>}
        </div>
        {type === 3 && <label class="field">Options, one a line<textarea data-testid="profile-field-options" rows={3} value={choices} onInput={(e) => setChoices((e.target as HTMLTextAreaElement).value)} /></label>}
        <label class="check"><input type="checkbox" data-testid="profile-field-new-required" checked={required} onChange={(e) => setRequired((e.target as HTMLInputElement).checked)} /><span>Required</span></label>
        <div><button class="primary" data-testid="profile-field-add">Add field</button></div>
      </form>
      {status}
    </section>
  )
}
