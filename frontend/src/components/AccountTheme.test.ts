import { describe, expect, it } from 'vitest'
import { schemeOf, themeOfScheme } from './AccountTheme'

describe('the account theme', () => {
  it('reads Zulip\'s color_scheme, following the system when it is automatic', () => {
    expect([themeOfScheme(2, false), themeOfScheme(3, true), themeOfScheme(1, true), themeOfScheme(1, false), themeOfScheme(undefined, true)])
      .toEqual(['dark', 'light', 'dark', 'light', 'dark'])
  })
  it('writes a chosen theme as dark or light, never automatic', () => {
    expect([schemeOf('dark'), schemeOf('light')]).toEqual([2, 3])
  })
})
