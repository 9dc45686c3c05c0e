// The outbox: messages sent from this browser that the server has not yet
// confirmed. Each is kept in local storage from the moment Send is pressed
// until the server answers with its ID, so a message typed while the server
// is away (or the page is reloaded meanwhile) is sent once it is back.
// Never twice: every attempt carries the same queue_id and local_id, and
// the server stores a repeated send once.
import { ApiError } from '../api/transport'
import type { OutgoingMessage } from '../api/zulip'

export interface OutboxItem extends OutgoingMessage {
  localId: string
  queueId: string
  createdAt: number
  // error: the server refused it (not a lost connection); it waits for
  // the person to retry or discard it.
  error?: string
}

export type OutboxStorage = Pick<Storage, 'getItem' | 'setItem'>

// transient says whether a failed send should simply be tried again: the
// server could not be reached or is restarting, rather than refusing it.
export function transient(e: unknown): boolean {
  if (!(e instanceof ApiError)) return true // fetch's TypeError: no connection
  return e.code === 'BAD_RESPONSE' || e.status >= 500 || e.status === 429 || e.status === 0
}

const retryDelays = [500, 1000, 2000, 5000]

export class Outbox {
  private running: Promise<void> | null = null
  private failures = 0
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(private storage: OutboxStorage, private key: string,
    private send: (item: OutboxItem) => Promise<number>,
    private explain: (e: unknown) => string,
    private onChange: () => void) {}

  items(): OutboxItem[] {
    try {
      const v = JSON.parse(this.storage.getItem(this.key) ?? '[]')
      return Array.isArray(v) ? v : []
    } catch {
      return []
    }
  }

  private write(items: OutboxItem[]) {
    this.storage.setItem(this.key, JSON.stringify(items))
    this.onChange()
  }

  private change(localId: string, f: (i: OutboxItem) => OutboxItem | null) {
    this.write(this.items().flatMap((i) => { if (i.localId !== localId) return [i]; const x = f(i); return x ? [x] : [] }))
  }

  // add keeps m (before anything is sent) and starts sending.
  add(m: OutgoingMessage, queueId: string): OutboxItem {
    const item: OutboxItem = { ...m, localId: `${Date.now()}.${Math.random().toString(36).slice(2, 10)}`, queueId, createdAt: Date.now() }
    this.write([...this.items(), item])
    this.flush()
    return item
  }

  retry(localId: string) { this.change(localId, (i) => ({ ...i, error: undefined })); this.flush() }
  discard(localId: string) { this.change(localId, () => null) }

  // flush sends the waiting messages in the order they were written, one at
  // a time; a lost connection stops it until the next try. A flush already
  // running is the one answered (it picks up messages added meanwhile).
  flush(): Promise<void> {
    this.running ??= this.sendWaiting().finally(() => { this.running = null })
    return this.running
  }

  private async sendWaiting() {
    if (this.timer) { clearTimeout(this.timer); this.timer = null }
    for (;;) {
      const next = this.items().find((i) => !i.error)
      if (!next) return
      try {
        await this.send(next)
        this.failures = 0
        this.change(next.localId, () => null)
      } catch (e) {
        if (transient(e)) {
          this.timer = setTimeout(() => this.flush(), retryDelays[Math.min(this.failures++, retryDelays.length - 1)])
          return
        }
        this.change(next.localId, (i) => ({ ...i, error: this.explain(e) }))
      }
    }
  }

  stop() { if (this.timer) clearTimeout(this.timer); this.timer = null }
}
