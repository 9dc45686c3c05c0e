import { describe, expect, it } from 'vitest'
import { parseSearch, personResolver, suggest } from './search'

const people = [
  { email: 'bob@example.com', full_name: 'Bob Brown' },
  { email: 'alice@example.com', full_name: 'Alice Anders' },
  { email: 'ada@example.com', full_name: 'Ada Admin' },
]
const person = personResolver('alice@example.com', people)

describe('parseSearch', () => {
  it.each([
    ['lunch plans', [{ operator: 'search', operand: 'lunch plans' }]],
    ['sender:bob@example.com lunch', [{ operator: 'sender', operand: 'bob@example.com' }, { operator: 'search', operand: 'lunch' }]],
    ['from:Bob', [{ operator: 'sender', operand: 'bob@example.com' }]],
    ['from:me is:starred', [{ operator: 'sender', operand: 'alice@example.com' }, { operator: 'is', operand: 'starred' }]],
    ['channel:general topic:"deploy notes"', [{ operator: 'stream', operand: 'general' }, { operator: 'topic', operand: 'deploy notes' }]],
    ['stream:3', [{ operator: 'stream', operand: 3 }]],
    ['-is:starred has:link', [{ operator: 'is', operand: 'starred', negated: true }, { operator: 'has', operand: 'link' }]],
    ['dm:bob,ada', [{ operator: 'dm', operand: 'bob@example.com,ada@example.com' }]],
    ['topic: half typed', [{ operator: 'search', operand: 'half typed' }]],
    ['http://x.org/a:b "exact words"', [{ operator: 'search', operand: 'http://x.org/a:b exact words' }]],
    ['sender:a lunch', [{ operator: 'sender', operand: 'a' }, { operator: 'search', operand: 'lunch' }]], // two people start with a: left as typed
  ])('%s', (q, want) => {
    expect(parseSearch(q, person)).toEqual(want)
  })
})

describe('suggest', () => {
  const src = { streams: ['general', 'dev ops'], people }
  it('suggests operators for a bare word', () => {
    expect(suggest('lunch sen', src).map((s) => s.query)).toEqual(['lunch sender:'])
  })
  it('suggests streams, quoted when they have spaces', () => {
    expect(suggest('channel:de', src).map((s) => s.query)).toEqual(['channel:"dev ops" '])
  })
  it('suggests people by name for sender', () => {
    expect(suggest('sender:bo', src).map((s) => s.query)).toEqual(['sender:bob@example.com '])
  })
  it('suggests flags for is: and nothing after a finished term', () => {
    expect(suggest('is:st', src).map((s) => s.query)).toEqual(['is:starred '])
    expect(suggest('is:starred ', src)).toEqual([])
  })
})
