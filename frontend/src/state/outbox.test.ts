import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/transport'
import { Outbox, type OutboxItem } from './outbox'

function memory(): Storage {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => { m.set(k, v) } } as Storage
}

const msg = (content: string) => ({ kind: 'stream' as const, stream: 'general', topic: 't', to: [], content })

describe('Outbox', () => {
  it('keeps a message while the server is away and sends it once, with the same local ID, when it is back', async () => {
    const storage = memory()
    const attempts: OutboxItem[] = []
    let up = false
    const box = new Outbox(storage, 'k', async (i) => { attempts.push(i); if (!up) throw new TypeError('Failed to fetch'); return 1 }, String, () => {})
    box.add(msg('hello'), 'q1')
    await box.flush()
    expect(box.items().map((i) => i.content)).toEqual(['hello'])
    // A reload: a new outbox over the same storage finds it.
    const again = new Outbox(storage, 'k', async (i) => { attempts.push(i); return 2 }, String, () => {})
    box.stop()
    up = true
    await again.flush()
    expect(again.items()).toEqual([])
    expect(new Set(attempts.map((a) => `${a.queueId}/${a.localId}`)).size).toBe(1)
  })

  it('keeps a refused message with the reason until it is retried or discarded, and sends the next', async () => {
    const sent: string[] = []
    const box = new Outbox(memory(), 'k', async (i) => {
      if (i.content === 'bad') throw new ApiError(400, 'BAD_REQUEST', 'no', {})
      sent.push(i.content)
      return 1
    }, (e) => (e as Error).message, () => {})
    box.add(msg('bad'), 'q')
    box.add(msg('good'), 'q')
    await box.flush()
    expect(sent).toEqual(['good'])
    expect(box.items().map((i) => [i.content, i.error])).toEqual([['bad', 'no']])
    box.discard(box.items()[0].localId)
    expect(box.items()).toEqual([])
  })
})
