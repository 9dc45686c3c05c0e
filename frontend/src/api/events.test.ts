import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from './transport'
import { EventStream } from './events'

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('EventStream, long-polling', () => {
  it('counts the connection as back at the first poll after the server returns, not at its next event or heartbeat', async () => {
    vi.useFakeTimers()
    vi.stubGlobal('WebSocket', undefined) // long-polling, as in the desktop window
    const polls: Record<string, unknown>[] = []
    let serverUp = false
    vi.spyOn(api, 'get').mockImplementation((_path, params) => {
      polls.push({ ...params })
      if (!serverUp) return Promise.reject(new TypeError('Failed to fetch'))
      // The server answers a blocking poll only with an event or a heartbeat
      // (50 s later); a poll that may not block, at once.
      if (params?.dont_block) return Promise.resolve({ events: [] })
      return new Promise(() => {})
    })
    const connection: boolean[] = []
    const stream = new EventStream('q1', 5, { onEvents() {}, onQueueLost() {}, onConnection: (up) => connection.push(up) })
    stream.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(connection).toEqual([false])
    expect(polls[0]).toEqual({ queue_id: 'q1', last_event_id: 5 })

    serverUp = true
    await vi.advanceTimersByTimeAsync(1000) // past the first retry's wait
    expect(connection).toEqual([false, true])
    expect(polls[1]).toEqual({ queue_id: 'q1', last_event_id: 5, dont_block: true })
    // Back to waiting polls once the connection is back.
    expect(polls[2]).toEqual({ queue_id: 'q1', last_event_id: 5 })
    stream['stopped'] = true
  })
})
