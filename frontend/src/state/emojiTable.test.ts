import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseEmojiTable, RecentEmoji, searchEmoji } from './emojiTable'

const table = parseEmojiTable(readFileSync(new URL('../../../assets/emoji.txt', import.meta.url), 'utf8'))
const all = table.flatMap((c) => c.emoji)

describe('emoji table', () => {
  it('has every emoji of the server, by category', () => {
    expect(table.map((c) => c.name)).toContain('Smileys & Emotion')
    expect(all.length).toBeGreaterThan(1800)
    expect(all.find((e) => e.name === 'smile')?.char).toBe('🙂')
    expect(all.find((e) => e.name === '+1')?.aliases).toContain('thumbs_up')
    expect(all.find((e) => e.name === 'heart')?.char).toBe('❤\ufe0f')
  })
  it('finds emoji by words of their names and aliases, prefixes first', () => {
    expect(searchEmoji(all, 'rocket').map((e) => e.name)[0]).toBe('rocket')
    expect(searchEmoji(all, 'thumbs up').map((e) => e.name)).toContain('+1')
    expect(searchEmoji(all, 'zzzz-nothing')).toEqual([])
  })
  it('remembers recently used emoji, newest first, without repeats', () => {
    const m = new Map<string, string>()
    const recent = new RecentEmoji({ getItem: (k) => m.get(k) ?? null, setItem: (k, v) => { m.set(k, v) } }, 'k', 3)
    for (const n of ['a', 'b', 'a', 'c', 'd']) recent.use(n)
    expect(recent.list()).toEqual(['d', 'c', 'a'])
  })
})
