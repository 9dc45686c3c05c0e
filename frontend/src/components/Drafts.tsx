import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { recipients, type DraftStore, type SavedDraft } from '../state/drafts'

// The drafts view, as Zulip's: every unsent draft with where it was going;
// restoring one opens its conversation with the words back in the compose box.
export function Drafts(p: { chat: Chat; store: DraftStore; onClose: () => void; onRestore: (d: SavedDraft) => void }) {
  const [drafts, setDrafts] = useState(() => p.store.list())
  const remove = (id: string) => { p.store.remove(id); setDrafts(p.store.list()) }
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" data-testid="drafts" role="dialog" aria-label="Drafts" onClick={(e) => e.stopPropagation()}>
        <header><h2>Drafts</h2><button class="icon" onClick={p.onClose} title="Close" aria-label="Close">✕</button></header>
        {drafts.length === 0 && <p class="hint">No drafts. What you type and do not send is kept here.</p>}
        <ul class="draft-list">
          {drafts.map((d) => (
            <li key={d.id} data-testid="draft-row">
              <div class="draft-target">{d.kind === 'stream' ? `#${d.stream} › ${d.topic || '(no topic)'}` : `To ${p.chat.namesOf(recipients(d.to))}`}
                <time dateTime={new Date(d.updatedAt).toISOString()}>{new Date(d.updatedAt).toLocaleString()}</time></div>
              <div class="draft-content">{d.content}</div>
              <div class="row">
                <button class="primary" data-testid="draft-restore" onClick={() => p.onRestore(d)}>Restore</button>
                <button data-testid="draft-delete" onClick={() => remove(d.id)}>Delete</button>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
