// The full emoji table, the server's own (assets/emoji.txt), loaded when the
// picker first opens so the page itself stays small; it is bundled, so the
// picker works offline.
import { codeToChar, type EmojiChoice } from './emoji'

export interface EmojiCategory { name: string; emoji: EmojiChoice[] }

export function parseEmojiTable(text: string): EmojiCategory[] {
  const out: EmojiCategory[] = []
  for (const line of text.split('\n')) {
    const category = /^# category: (.+)$/.exec(line)
    if (category) { out.push({ name: category[1], emoji: [] }); continue }
    if (!line || line.startsWith('#') || !out.length) continue
    const [code, names = ''] = line.split('\t')
    const [name, ...aliases] = names.split(' ')
    const bare = code.replace(/\*$/, '')
    // Text-presentation emoji need FE0F to be drawn as emoji.
    out[out.length - 1].emoji.push({ name, code: bare, char: codeToChar(bare) + (code.endsWith('*') ? '\ufe0f' : ''), aliases })
  }
  return out.filter((c) => c.emoji.length)
}

let table: Promise<EmojiCategory[]> | null = null

export function loadEmojiTable(): Promise<EmojiCategory[]> {
  table ??= import('../../../assets/emoji.txt?raw').then((m) => parseEmojiTable(m.default))
  return table
}

// searchEmoji finds emoji whose name or an alias contains every typed word.
export function searchEmoji(all: EmojiChoice[], query: string, limit = 80): EmojiChoice[] {
  const words = query.toLowerCase().split(/[\s_]+/).filter(Boolean)
  const hit = (e: EmojiChoice) => [e.name, ...(e.aliases ?? [])].some((n) => words.every((w) => n.includes(w)))
  const starts = (e: EmojiChoice) => e.name.startsWith(words[0] ?? '') ? 0 : 1
  return all.filter(hit).sort((a, b) => starts(a) - starts(b)).slice(0, limit)
}

// Recently used emoji, newest first, kept per browser.
export class RecentEmoji {
  constructor(private storage: Pick<Storage, 'getItem' | 'setItem'>, private key = 'lanchat.emoji.recent', private max = 16) {}
  list(): string[] {
    try { return JSON.parse(this.storage.getItem(this.key) ?? '[]') } catch { return [] }
  }
  use(name: string) {
    this.storage.setItem(this.key, JSON.stringify([name, ...this.list().filter((n) => n !== name)].slice(0, this.max)))
  }
}
