// The emoji the picker and the `:` autocomplete offer first, named as the
// server names them (assets/emoji.txt). Any other name the server knows
// works when typed in full.
import type { RealmEmoji } from '../api/zulip'

const common: [string, string][] = [
  ['+1', '1f44d'], ['smile', '1f642'], ['heart', '2764'], ['tada', '1f389'], ['laughing', '1f606'], ['joy', '1f602'],
  ['thinking_face', '1f914'], ['eyes', '1f440'], ['fire', '1f525'], ['rocket', '1f680'], ['wave', '1f44b'],
  ['clap', '1f44f'], ['pray', '1f64f'], ['100', '1f4af'], ['white_check_mark', '2705'], ['x', '274c'],
  ['grinning', '1f600'], ['big_smile', '1f604'], ['heart_eyes', '1f60d'], ['sunglasses', '1f60e'], ['cry', '1f622'],
  ['open_mouth', '1f62e'], ['confused', '1f615'], ['rage', '1f621'], ['sleeping', '1f634'], ['shrug', '1f937'],
  ['-1', '1f44e'], ['star', '2b50'], ['trophy', '1f3c6'], ['bulb', '1f4a1'], ['bug', '1f41b'], ['coffee', '2615'],
  ['pizza', '1f355'], ['memo', '1f4dd'], ['warning', '26a0'],
]

export interface EmojiChoice { name: string; code: string; char?: string; url?: string; aliases?: string[] }

export function codeToChar(code: string): string {
  return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)))
}

export const commonEmoji: EmojiChoice[] = common.map(([name, code]) => ({ name, code, char: codeToChar(code) }))

export function emojiChoices(realmEmoji: Record<string, RealmEmoji>): EmojiChoice[] {
  const custom = Object.entries(realmEmoji).filter(([, e]) => !e.deactivated).map(([id, e]) => ({ name: e.name, code: id, url: e.source_url }))
  return [...commonEmoji, ...custom]
}

// showEmojiChars puts the emoji character into the server's emoji spans,
// which carry the name as text (Zulip's clients draw them from sprites; we
// use the system's emoji font).
export function showEmojiChars(html: string): string {
  return html.replace(/(<span\b[^>]*\bclass="emoji emoji-([0-9a-f-]+)"[^>]*>):[^<]*:(<\/span>)/g,
    (_, open: string, code: string, close: string) => open + codeToChar(code) + close)
}
