// The live event stream of one registered queue: a WebSocket in a browser,
// long-polling in the window or when the socket cannot be opened. Both
// resume from the last event handled, so nothing is lost across reconnects.
import { api, inWindow, ApiError, Json } from './transport'

export interface EventStreamHandlers {
  onEvents(events: Json[]): void
  // onQueueLost: the server forgot the queue; register again.
  onQueueLost(): void
  onConnection(up: boolean): void
}

const retryDelays = [500, 1000, 2000, 5000, 10000]

// backoff waits before retry number attempt (from 0) of something the
// server could not answer: longer each time, up to 10 s.
export const backoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, retryDelays[Math.min(attempt, retryDelays.length - 1)]))

export class EventStream {
  private lastEventId: number
  private stopped = false
  private socket: WebSocket | null = null
  private poll: AbortController | null = null
  private failures = 0

  constructor(private queueId: string, lastEventId: number, private h: EventStreamHandlers) {
    this.lastEventId = lastEventId
  }

  start() {
    if (inWindow || typeof WebSocket === 'undefined') this.longPoll()
    else this.openSocket()
  }

  stop() {
    this.stopped = true
    this.socket?.close()
    this.poll?.abort()
    api.del('/api/v1/events', { queue_id: this.queueId }).catch(() => {})
  }

  private deliver(events: Json[]) {
    const fresh = events.filter((e) => e.id > this.lastEventId)
    if (!fresh.length) return
    this.lastEventId = fresh[fresh.length - 1].id
    this.h.onEvents(fresh.filter((e) => e.type !== 'heartbeat'))
  }

  private retry(next: () => void) {
    backoff(this.failures++).then(() => !this.stopped && next())
  }

  private openSocket() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:'
    const url = `${proto}//${location.host}/api/v1/events/socket?queue_id=${encodeURIComponent(this.queueId)}&last_event_id=${this.lastEventId}`
    const ws = new WebSocket(url)
    this.socket = ws
    let opened = false
    ws.onopen = () => {
      opened = true
      this.failures = 0
      this.h.onConnection(true)
    }
    ws.onmessage = (m) => {
      const frame = JSON.parse(m.data)
      if (frame.result === 'error') {
        if (frame.code === 'BAD_EVENT_QUEUE_ID') this.lost()
        return
      }
      this.deliver(frame.events ?? [])
      ws.send(JSON.stringify({ last_event_id: this.lastEventId }))
    }
    ws.onclose = () => {
      if (this.stopped || this.socket !== ws) return
      this.h.onConnection(false)
      // A socket that never opened (a proxy without WebSocket support, say)
      // twice in a row: fall back to long-polling.
      if (!opened && this.failures >= 1) this.retry(() => this.longPoll())
      else this.retry(() => this.openSocket())
    }
  }

  private async longPoll() {
    while (!this.stopped) {
      this.poll = new AbortController()
      try {
        // After a failure the poll may not block, as Zulip's web app does:
        // a server just back answers it at once, so the connection counts
        // as back then, not at the next event or heartbeat (50 s).
        const params: Json = { queue_id: this.queueId, last_event_id: this.lastEventId }
        if (this.failures > 0) params.dont_block = true
        const r = await api.get('/api/v1/events', params, this.poll.signal)
        this.failures = 0
        this.h.onConnection(true)
        this.deliver(r.events ?? [])
      } catch (e) {
        if (this.stopped) return
        if (e instanceof ApiError && e.code === 'BAD_EVENT_QUEUE_ID') return this.lost()
        this.h.onConnection(false)
        await backoff(this.failures++)
      }
    }
  }

  private lost() {
    this.stopped = true
    this.socket?.close()
    this.h.onQueueLost()
  }
}
