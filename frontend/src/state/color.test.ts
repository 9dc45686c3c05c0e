import { describe, expect, it } from 'vitest'
import { darkText, textOn } from './color'

describe('textOn', () => {
  it.each([
    ['#fae589', darkText], ['#ffffff', darkText], ['#a6dcbf', darkText],
    ['#336699', '#ffffff'], ['#000000', '#ffffff'], ['#c2726a', darkText],
    ['not a color', darkText],
  ])('%s', (bg, want) => expect(textOn(bg)).toBe(want))
})
