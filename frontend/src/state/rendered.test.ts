import { describe, expect, it } from 'vitest'
import { playgroundURL, showLocalTimes, showMeMessage, showPlaygroundLinks, type Playground } from './rendered'

describe('showLocalTimes', () => {
  it.each([
    ['in Berlin', 'Europe/Berlin', /Mon, Jan 1, 2024, 10:00 AM GMT\+1/],
    ['in New York', 'America/New_York', /Mon, Jan 1, 2024, 4:00 AM EST/],
  ])('shows a time in the reader\'s zone (%s)', (_, zone, want) => {
    const html = showLocalTimes('<p>Meet at <time datetime="2024-01-01T09:00:00Z">2024-01-01T10:00:00+01:00</time>.</p>', zone)
    expect(html).toMatch(want)
    expect(html).toContain(`title="This time is in your time zone. Original text was '2024-01-01T10:00:00+01:00'."`)
    expect(html).toMatch(/^<p>Meet at <time datetime="2024-01-01T09:00:00Z" class="local-time"/)
  })
  it('leaves other HTML alone', () => {
    expect(showLocalTimes('<p>no time here</p>')).toBe('<p>no time here</p>')
    expect(showLocalTimes('<p><time datetime="nonsense">x</time></p>')).toBe('<p><time datetime="nonsense">x</time></p>')
  })
})

describe('showMeMessage', () => {
  it('leads the action with the sender', () => {
    expect(showMeMessage('<p>/me dances</p>', 'Alice <A>')).toBe('<p><span class="me-sender">Alice &lt;A&gt;</span> dances</p>')
  })
  it('changes only a leading /me', () => {
    expect(showMeMessage('<p>I said /me dances</p>', 'Alice')).toBe('<p>I said /me dances</p>')
  })
})

describe('code playgrounds', () => {
  const python: Playground = { id: 4, name: 'Python <playground>', pygments_language: 'Python', url_template: 'https://py.lan/?code={code}' }
  const block = (lang: string) => `<div class="codehilite" data-code-language="${lang}"><pre><span></span><code>print(1)\n</code></pre></div>`
  it('links a code block of the playground\'s language', () => {
    expect(showPlaygroundLinks(block('Python'), [python])).toBe(
      '<div class="codehilite" data-code-language="Python"><div class="code-playgrounds"><a class="code-playground" data-playground-id="4" href="#" target="_blank" rel="noopener noreferrer">View in Python &lt;playground&gt;</a></div><pre><span></span><code>print(1)\n</code></pre></div>')
  })
  it('leaves other languages and no playgrounds alone', () => {
    expect(showPlaygroundLinks(block('Go'), [python])).toBe(block('Go'))
    expect(showPlaygroundLinks(block('Python'), [])).toBe(block('Python'))
  })
  it.each([
    ['https://py.lan/?code={code}', 'https://py.lan/?code=a%20%2B%20b%2F2%21'],
    ['https://py.lan/{?code}', 'https://py.lan/?code=a%20%2B%20b%2F2%21'],
    ['https://py.lan/#{+code}', 'https://py.lan/#a%20+%20b/2!'],
  ])('expands %s', (template, want) => {
    expect(playgroundURL({ ...python, url_template: template }, 'a + b/2!')).toBe(want)
  })
})
