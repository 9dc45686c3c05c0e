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

// Playground is a code playground (register's realm_playgrounds).
export interface Playground { id: number; name: string; pygments_language: string; url_template: string }

const codeBlock = /<div class="codehilite" data-code-language="([^"]*)">/g

// showPlaygroundLinks puts a "View in …" link atop each code block for each
// playground of its language, as Zulip's web app offers. A link's address
// is made when it is clicked (playgroundURL), from the block's code.
export function showPlaygroundLinks(html: string, playgrounds: Playground[]): string {
  if (playgrounds.length === 0 || !html.includes('data-code-language')) return html
  return html.replace(codeBlock, (whole, language: string) => {
    const links = playgrounds.filter((p) => p.pygments_language === language).map((p) =>
      `<a class="code-playground" data-playground-id="${p.id}" href="#" target="_blank" rel="noopener noreferrer">View in ${escapeHTML(p.name)}</a>`)
    return links.length ? `${whole}<div class="code-playgrounds">${links.join('')}</div>` : whole
  })
}

// How an RFC 6570 expression of {code} expands: its prefix, and whether
// reserved characters stay as they are.
const expansions: Record<string, [string, boolean]> = {
  '': ['', false], '+': ['', true], '#': ['#', true], '.': ['.', false], '/': ['/', false],
  ';': [';code=', false], '?': ['?code=', false], '&': ['&code=', false],
}

// playgroundURL is the playground's address for code: its url_template
// with {code} (in any of RFC 6570's operators) expanded.
export function playgroundURL(p: Playground, code: string): string {
  return p.url_template.replace(/\{([+#./;?&]?)code\}/g, (_, op: string) => {
    const [prefix, reserved] = expansions[op]
    return prefix + (reserved ? encodeURI(code) : encodeURIComponent(code).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()))
  })
}

// followPlaygroundLink gives a clicked playground link (see
// showPlaygroundLinks) its address, before the browser follows it; it
// says whether the click was on one.
export function followPlaygroundLink(target: Element, playgrounds: Playground[]): boolean {
  const link = target.closest('a.code-playground') as HTMLAnchorElement | null
  const playground = playgrounds.find((p) => String(p.id) === link?.dataset.playgroundId)
  if (!link || !playground) return false
  link.href = playgroundURL(playground, link.closest('.codehilite')?.querySelector('pre')?.textContent ?? '')
  return true
}

function escapeHTML(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
