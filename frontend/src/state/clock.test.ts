import { describe, expect, it } from 'vitest'
import { clockTime, dayDate } from './clock'

// Local times, so the cases hold in any zone the tests run in.
const at = (h: number, m: number) => new Date(2026, 10, 28, h, m).getTime() / 1000

describe('clockTime', () => {
  it.each([
    [0, 5, false, '12:05 AM'],
    [9, 5, false, '09:05 AM'],
    [12, 0, false, '12:00 PM'],
    [21, 59, false, '09:59 PM'],
    [0, 5, true, '00:05'],
    [9, 5, true, '09:05'],
    [21, 59, true, '21:59'],
  ])('%i:%i, twenty-four hours %s → %s', (h, m, h24, want) => {
    expect(clockTime(at(h, m), h24)).toBe(want)
  })
})

describe('dayDate', () => {
  it.each([
    [new Date(2001, 8, 9), 'Sun, Sep 9, 2001'],
    [new Date(2026, 10, 28), 'Sat, Nov 28, 2026'],
    [new Date(2024, 0, 31), 'Wed, Jan 31, 2024'],
  ])('%s → %s', (d, want) => expect(dayDate(d)).toBe(want))
})
