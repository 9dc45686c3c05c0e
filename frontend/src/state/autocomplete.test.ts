import { describe, expect, it } from 'vitest'
import { applyCompletion, complete, tokenBefore } from './autocomplete'

describe('tokenBefore', () => {
  it.each([
    ['hi @al', { trigger: '@', query: 'al', start: 3 }],
    ['@', { trigger: '@', query: '', start: 0 }],
    ['see #gen', { trigger: '#', query: 'gen', start: 4 }],
    ['nice :tad', { trigger: ':', query: 'tad', start: 5 }],
    ['at 10:30', null],
    ['mail a@b', null],
    ['plain text', null],
    ['/po', { trigger: '/', query: 'po', start: 0 }],
    ['/', { trigger: '/', query: '', start: 0 }],
    ['/poll Lunch?', null],
    ['see /poll', null],
  ])('%s', (text, want) => {
    expect(tokenBefore(text, text.length)).toEqual(want)
  })
})

describe('complete', () => {
  const people = [{ full_name: 'Alice Anders', email: 'alice@x' }, { full_name: 'Bob Brown', email: 'bob@x' }]
  it('completes people, streams and emoji in mention syntax', () => {
    const text = 'hi @ali'
    const t = tokenBefore(text, text.length)!
    const [c] = complete(t, people, [], [])
    expect(c.insert).toBe('@**Alice Anders** ')
    expect(applyCompletion(text, t, text.length, c)).toEqual({ text: 'hi @**Alice Anders** ', caret: 21 })
    expect(complete(tokenBefore('#ge', 3)!, people, ['general', 'random'], [])[0].insert).toBe('#**general** ')
    expect(complete(tokenBefore(':ta', 3)!, people, [], ['star', 'tada'])[0].label).toBe(':tada:')
  })
  it('completes the slash commands at the start of a message', () => {
    expect(complete(tokenBefore('/t', 2)!, people, [], []).map((c) => c.insert)).toEqual(['/todo '])
    expect(complete(tokenBefore('/', 1)!, people, [], []).map((c) => c.label)).toEqual(['/poll', '/todo', '/me'])
  })
})
