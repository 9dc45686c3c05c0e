import { describe, expect, it } from 'vitest'
import { codeToChar, showEmojiChars } from './emoji'

describe('emoji', () => {
  it('turns codes into characters, sequences included', () => {
    expect(codeToChar('1f44b')).toBe('👋')
    expect(codeToChar('1f468-200d-1f4bb')).toBe('👨‍💻')
  })
  it('fills the server emoji spans and leaves other markup alone', () => {
    const html = '<p>hi <span aria-label="wave" class="emoji emoji-1f44b" role="img" title="wave">:wave:</span> <code>:wave:</code></p>'
    expect(showEmojiChars(html)).toBe('<p>hi <span aria-label="wave" class="emoji emoji-1f44b" role="img" title="wave">👋</span> <code>:wave:</code></p>')
  })
})
