import { useState } from 'preact/hooks'
import { upload } from '../api/transport'
import type { Chat } from '../state/chat'
import { ShortcutList } from './Shortcuts'

export type Theme = 'light' | 'dark'

export function Settings(p: { chat: Chat; theme: Theme; setTheme: (t: Theme) => void; onClose: () => void }) {
  const [name, setName] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [status, setStatus] = useState('')
  const addEmoji = async (e: Event) => {
    e.preventDefault()
    if (!file || !name.trim()) return
    try {
      await upload(`/api/v1/realm/emoji/${encodeURIComponent(name.trim())}`, file)
      setStatus(`Added :${name.trim()}:`)
      setName('')
    } catch (err) {
      setStatus((err as Error).message)
    }
  }
  const custom = Object.values(p.chat.realmEmoji).filter((e) => !e.deactivated)
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" data-testid="settings" onClick={(e) => e.stopPropagation()}>
        <header><h2>Settings</h2><button class="icon" onClick={p.onClose} title="Close">✕</button></header>
        <section>
          <h3>Appearance</h3>
          <button data-testid="theme-toggle" onClick={() => p.setTheme(p.theme === 'dark' ? 'light' : 'dark')}>
            {p.theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          </button>
        </section>
        <section>
          <h3>Custom emoji</h3>
          <div class="emoji-grid">{custom.map((e) => <span title={`:${e.name}:`}><img src={e.source_url} alt={e.name} /> {e.name}</span>)}</div>
          <form onSubmit={addEmoji} class="row">
            <input data-testid="emoji-upload-name" placeholder="name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            <input data-testid="emoji-upload-file" type="file" accept="image/png,image/gif,image/jpeg,image/webp" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />
            <button class="primary" data-testid="emoji-upload-submit">Add emoji</button>
          </form>
          {status && <p class="hint">{status}</p>}
        </section>
        <section>
          <h3>Keyboard shortcuts</h3>
          <ShortcutList />
        </section>
      </div>
    </div>
  )
}
