// Message times and day dividers as the list shows them, written without
// Intl: a page's first Intl formatter loads the locale's data, 35–130 ms on
// the main thread of a fresh Chromium renderer (measured at load 6), a large
// part of a cold load's budget. As in Zulip, the hour cycle is the account's twenty_four_hour_time
// setting, not the browser's locale, and the words are the UI's (English).
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const two = (n: number) => String(n).padStart(2, '0')

// clockTime is a message's hour and minute in the reader's zone: 09:05 PM, or 21:05.
export function clockTime(ts: number, twentyFourHour: boolean): string {
  const d = new Date(ts * 1000)
  const h = d.getHours()
  if (twentyFourHour) return `${two(h)}:${two(d.getMinutes())}`
  return `${two(h % 12 || 12)}:${two(d.getMinutes())} ${h < 12 ? 'AM' : 'PM'}`
}

// dayDate is a day divider's date: Sun, Sep 9, 2001.
export function dayDate(d: Date): string {
  return `${weekdays[d.getDay()]}, ${months[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`
}

// fullTime is a message's date and time, for its tooltip (made on hover,
// so its formatter is not on the way to the first frame).
let long: Intl.DateTimeFormat | null = null
export const fullTime = (ts: number) => (long ??= new Intl.DateTimeFormat([], { dateStyle: 'medium', timeStyle: 'medium' })).format(ts * 1000)
