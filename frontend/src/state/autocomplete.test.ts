import { describe, expect, it } from 'vitest'
import { applyCompletion, complete, tokenBefore, type Sources } from './autocomplete'

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
    ['see #**general>lun', { trigger: '#', stream: 'general', query: 'lun', start: 4 }],
    ['#**general** >', { trigger: '#', stream: 'general', query: '', start: 0 }],
    ['#**dev team>Bug fixes', { trigger: '#', stream: 'dev team', query: 'bug fixes', start: 0 }],
  ])('%s', (text, want) => {
    expect(tokenBefore(text, text.length)).toEqual(want)
  })
})

describe('complete', () => {
  const sources: Sources = {
    people: [{ full_name: 'Alice Anders', email: 'alice@x' }, { full_name: 'Bob Brown', email: 'bob@x' }],
    groups: ['design', 'backend'],
    streams: ['general', 'random'],
    topics: (stream) => stream === 'general' ? ['lunch', 'launch plans', 'welcome'] : [],
    emoji: ['star', 'tada'],
  }
  const completeText = (text: string) => complete(tokenBefore(text, text.length)!, sources)
  it('completes people, streams and emoji in mention syntax', () => {
    const text = 'hi @ali'
    const t = tokenBefore(text, text.length)!
    const [c] = complete(t, sources)
    expect(c.insert).toBe('@**Alice Anders** ')
    expect(applyCompletion(text, t, text.length, c)).toEqual({ text: 'hi @**Alice Anders** ', caret: 21 })
    expect(completeText('#ge')[0].insert).toBe('#**general** ')
    expect(completeText(':ta')[0].label).toBe(':tada:')
  })
  it('completes user groups and the wildcards after people', () => {
    expect(completeText('@des').map((c) => c.insert)).toEqual(['@*design* '])
    expect(completeText('@a').map((c) => c.insert)).toEqual(['@**Alice Anders** ', '@*backend* ', '@**all** '])
    expect(completeText('@to').map((c) => [c.insert, c.detail])).toEqual([['@**topic** ', 'Notify topic']])
  })
  it('completes a stream\'s topics after #**stream>', () => {
    expect(completeText('see #**general>la').map((c) => c.insert)).toEqual(['#**launch plans** '.replace('#**', '#**general>')])
    expect(completeText('#**general** >').map((c) => c.label)).toEqual(['#general > lunch', '#general > launch plans', '#general > welcome'])
    const text = '#**general>wel'
    const t = tokenBefore(text, text.length)!
    expect(applyCompletion(text, t, text.length, complete(t, sources)[0]).text).toBe('#**general>welcome** ')
  })
  it('completes the slash commands at the start of a message', () => {
    expect(completeText('/t').map((c) => c.insert)).toEqual(['/todo '])
    expect(completeText('/').map((c) => c.label)).toEqual(['/poll', '/todo', '/me'])
  })
})
