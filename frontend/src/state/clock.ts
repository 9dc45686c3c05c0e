// Message times as the list shows them. One formatter serves every row: a
// formatter costs far more to make than to use (toLocaleTimeString makes one
// per call), and the page's first one also loads the locale's data.
let short: Intl.DateTimeFormat | null = null
let long: Intl.DateTimeFormat | null = null

// clockTime is a message's hour and minute, in the reader's locale and zone.
export const clockTime = (ts: number) => (short ??= new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' })).format(ts * 1000)

// fullTime is a message's date and time, for its tooltip.
export const fullTime = (ts: number) => (long ??= new Intl.DateTimeFormat([], { dateStyle: 'medium', timeStyle: 'medium' })).format(ts * 1000)
