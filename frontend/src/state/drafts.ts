// Compose drafts, as in Zulip: a draft belongs to the conversation it was
// written for, follows the compose box back to it, survives reloads (local
// storage) and is listed in the drafts view until it is sent or deleted.

export interface Draft { kind: 'stream' | 'pm'; stream: string; topic: string; to: string; content: string }

export interface SavedDraft extends Draft { id: string; updatedAt: number }

export const emptyDraft = (stream = ''): Draft => ({ kind: 'stream', stream, topic: '', to: '', content: '' })

// recipients are the entries of a draft's comma-separated To field, as typed.
export const recipients = (to: string) => to.split(',').map((e) => e.trim()).filter(Boolean)

// conversationKey names the conversation a draft is addressed to; stream and
// topic names compare without case, as the server does.
export function conversationKey(d: Draft): string {
  return d.kind === 'stream'
    ? `stream\u0000${d.stream.trim().toLowerCase()}\u0000${d.topic.trim().toLowerCase()}`
    : `pm\u0000${recipients(d.to).map((e) => e.toLowerCase()).sort().join(',')}`
}

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem'>

export class DraftStore {
  constructor(private storage: DraftStorage, private key = 'lanchat.drafts', private now = () => Date.now()) {}

  private read(): SavedDraft[] {
    try {
      const v = JSON.parse(this.storage.getItem(this.key) ?? '[]')
      return Array.isArray(v) ? v : []
    } catch {
      return [] // a corrupt entry is not worth a broken compose box
    }
  }

  private write(drafts: SavedDraft[]) {
    this.storage.setItem(this.key, JSON.stringify(drafts))
  }

  // list returns the drafts, the most recently edited first.
  list(): SavedDraft[] {
    return this.read().sort((a, b) => b.updatedAt - a.updatedAt)
  }

  // save keeps the draft under id; a draft with no words is removed instead.
  save(id: string, d: Draft) {
    const rest = this.read().filter((s) => s.id !== id)
    if (d.content.trim()) rest.push({ ...d, id, updatedAt: this.now() })
    this.write(rest)
  }

  remove(id: string) {
    this.write(this.read().filter((s) => s.id !== id))
  }

  // forConversation finds the newest draft addressed to d's conversation.
  forConversation(d: Draft): SavedDraft | undefined {
    const key = conversationKey(d)
    return this.list().find((s) => conversationKey(s) === key)
  }
}

export const newDraftId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

// composeTarget names where a draft goes, as Zulip's "Message #stream > topic" button does.
export function composeTarget(d: Draft): string {
  if (d.kind === 'pm') return d.to.trim() ? `Message ${recipients(d.to).join(', ')}` : 'New direct message'
  if (!d.stream.trim()) return 'New message'
  return `Message #${d.stream.trim()}${d.topic.trim() ? ` > ${d.topic.trim()}` : ''}`
}
