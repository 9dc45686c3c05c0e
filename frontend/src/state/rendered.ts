// What the UI does to a message's rendered HTML before showing it, beyond
// emoji and mentions: times in the reader's own zone and /me messages, as
// Zulip's clients show them. Spoilers open on a click (toggleSpoiler).

// The server's <time datetime="…">as typed</time>.
const timeElement = /<time datetime="([^"]+)">([^<]*)<\/time>/g

// showLocalTimes writes each time in the reader's time zone (or zone, for
// tests), keeping what the sender typed in the title, as Zulip does.
export function showLocalTimes(html: string, zone?: string): string {
  if (!html.includes('<time ')) return html
  return html.replace(timeElement, (whole, datetime: string, typed: string) => {
    const when = new Date(datetime)
    if (isNaN(when.getTime())) return whole
    const shown = when.toLocaleString([], { timeZone: zone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
    return `<time datetime="${datetime}" class="local-time" title="This time is in your time zone. Original text was '${typed.replace(/"/g, '&quot;')}'.">${escapeHTML(shown)}</time>`
  })
}

// showMeMessage turns a /me message ("<p>/me dances</p>") into its action
// line, "Alice dances", the sender's name leading it.
export function showMeMessage(html: string, sender: string): string {
  return html.replace(/^<p>\/me /, `<p><span class="me-sender">${escapeHTML(sender)}</span> `)
}

// toggleSpoiler opens or closes the spoiler whose header was clicked;
// it says whether the click was on a spoiler header.
export function toggleSpoiler(target: Element): boolean {
  const header = target.closest('.spoiler-header')
  const block = header?.parentElement
  if (!block?.classList.contains('spoiler-block')) return false
  // Links in the header still open; elsewhere the header toggles.
  if (target.closest('a')) return false
  const open = block.classList.toggle('spoiler-open')
  block.querySelector(':scope > .spoiler-content')?.setAttribute('aria-hidden', String(!open))
  header!.setAttribute('aria-expanded', String(open))
  return true
}

function escapeHTML(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
