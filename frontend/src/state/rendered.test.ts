import { describe, expect, it } from 'vitest'
import { showLocalTimes, showMeMessage } from './rendered'

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
