import { describe, expect, it } from 'vitest'
import { composeTarget, conversationKey, DraftStore, emptyDraft, type Draft } from './drafts'

function memory() {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => { m.set(k, v) } }
}
const topic = (stream: string, t: string, content = ''): Draft => ({ ...emptyDraft(stream), topic: t, content })
const pm = (to: string, content = ''): Draft => ({ ...emptyDraft(), kind: 'pm', to, content })

describe('drafts', () => {
  it('names a conversation without case, spacing or recipient order', () => {
    expect(conversationKey(topic('General', ' Lunch '))).toBe(conversationKey(topic('general', 'lunch')))
    expect(conversationKey(topic('general', 'lunch'))).not.toBe(conversationKey(topic('general', 'deploys')))
    expect(conversationKey(pm('b@x.org, A@x.org'))).toBe(conversationKey(pm('a@x.org,b@x.org')))
    expect(conversationKey(pm('a@x.org'))).not.toBe(conversationKey(topic('a@x.org', '')))
  })
  it('keeps a draft per conversation, newest first, and drops empty ones', () => {
    let t = 0
    const store = new DraftStore(memory(), 'k', () => ++t)
    store.save('1', topic('general', 'deploys', 'rolling out at 5'))
    store.save('2', pm('bob@x.org', 'lunch?'))
    expect(store.list().map((d) => d.id)).toEqual(['2', '1'])
    expect(store.forConversation(topic('general', 'Deploys'))?.content).toBe('rolling out at 5')
    expect(store.forConversation(topic('general', 'lunch'))).toBeUndefined()
    store.save('2', pm('bob@x.org', '  '))
    expect(store.list().map((d) => d.id)).toEqual(['1'])
    store.remove('1')
    expect(store.list()).toEqual([])
  })
  it('survives a new store over the same storage, and a corrupt entry', () => {
    const storage = memory()
    new DraftStore(storage).save('1', topic('general', 'lunch', 'hello'))
    expect(new DraftStore(storage).forConversation(topic('general', 'lunch'))?.content).toBe('hello')
    storage.setItem('lanchat.drafts', '{not json')
    expect(new DraftStore(storage).list()).toEqual([])
  })
})

describe('composeTarget', () => {
  it.each([
    [{ kind: 'stream', stream: 'general', topic: 'lunch' }, 'Message #general > lunch'],
    [{ kind: 'stream', stream: 'general', topic: ' ' }, 'Message #general'],
    [{ kind: 'stream', stream: '', topic: '' }, 'New message'],
    [{ kind: 'pm', to: 'bob@example.com, ada@example.com' }, 'Message bob@example.com, ada@example.com'],
    [{ kind: 'pm', to: '' }, 'New direct message'],
  ] as [Partial<Draft>, string][])('%o', (d, want) => {
    expect(composeTarget({ ...emptyDraft(), ...d })).toBe(want)
  })
})
