// Messages render as Zulip's clients render them: math typeset from the
// server's MathML, spoilers shut until opened, /me as an action of its
// sender, <time:…> in the reader's own time zone, and code blocks with a
// link to the organization's code playground for their language.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, openTopicAt, shot, signIn, startServer } from './harness.mjs'

let server, browser, page, alice, generalId

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  page = await newPage(browser, { timezoneId: 'America/New_York' })
  await signIn(page, server.url, 'bob@example.com')
  alice = await apiClient(server.url, 'alice@example.com')
  generalId = (await alice.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const message = (text) => page.getByTestId('message-content').filter({ hasText: text })

test('math shows typeset, inline and as a block', async () => {
  await alice.send('general', 'math', 'Euler: $$e^{i\\pi} + 1 = 0$$ and the roots:')
  await alice.send('general', 'math', '```math\nx = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}\n\n\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n```')
  await openTopicAt(page, generalId, 'general', 'math')
  const inline = message('Euler').locator('.katex math')
  await inline.waitFor()
  // Typeset: the superscript sits above the baseline, and the TeX source is not shown.
  const [base, sup] = await Promise.all([inline.locator('msup > mi').first().boundingBox(), inline.locator('msup > mrow').first().boundingBox()])
  assert.ok(sup.y + sup.height < base.y + base.height, `superscript at ${sup.y}, base at ${base.y}`)
  assert.doesNotMatch(await message('Euler').innerText(), /\\pi|\$\$/)
  const block = page.locator('.katex-display math[display=block]')
  assert.equal(await block.count(), 2)
  const fraction = await block.first().locator('mfrac').boundingBox()
  assert.ok(fraction.height > 30, `a display fraction is ${fraction.height}px tall`)
  await shot(page, 'math.png')
})

test('a spoiler is shut until its header is clicked', async () => {
  await alice.send('general', 'spoilers', '```spoiler Who wins the match?\nThe **blue** team, 3 to 1.\n```')
  await openTopicAt(page, generalId, 'general', 'spoilers')
  const spoiler = page.locator('.spoiler-block').last()
  await spoiler.locator('.spoiler-header').filter({ hasText: 'Who wins the match?' }).waitFor()
  const content = spoiler.locator('.spoiler-content')
  assert.equal(await content.isVisible(), false)
  await shot(page, 'spoiler.png')
  await spoiler.locator('.spoiler-header').click()
  await content.getByText('3 to 1').waitFor()
  assert.equal(await content.getAttribute('aria-hidden'), 'false')
  await spoiler.locator('.spoiler-header').click()
  assert.equal(await content.isVisible(), false)
})

test('/me reads as an action of its sender', async () => {
  await alice.send('general', 'me', '/me waves at everyone')
  await openTopicAt(page, generalId, 'general', 'me')
  const action = message('waves at everyone')
  await action.waitFor()
  assert.equal((await action.innerText()).trim(), 'Alice Anders waves at everyone')
  assert.match(await action.getAttribute('class'), /me-message/)
})

test('a time shows in the reader\'s own time zone', async () => {
  await alice.send('general', 'times', 'Call at <time:2024-01-01T10:00:00+01:00>')
  await openTopicAt(page, generalId, 'general', 'times')
  const time = message('Call at').locator('time')
  await time.waitFor()
  // 10:00 in Berlin is 4:00 in New York, where this reader is.
  assert.match(await time.innerText(), /Jan 1, 2024, 4:00\sAM EST/)
  assert.equal(await time.getAttribute('datetime'), '2024-01-01T09:00:00Z')
  assert.match(await time.getAttribute('title'), /Original text was '2024-01-01T10:00:00\+01:00'/)
})

test('a code block links to the code playground of its language', async () => {
  const admin = await apiClient(server.url, 'admin@example.com')
  await admin.call('POST', '/api/v1/realm/playgrounds', { name: 'Python playground', pygments_language: 'Python', url_template: 'https://py.lan/run{?code}' })
  await page.context().route('https://py.lan/**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>playground</p>' }))
  await alice.send('general', 'code', '```python\nprint("hi & bye")\n```')
  await alice.send('general', 'code', '```go\nfmt.Println("no playground")\n```')
  await openTopicAt(page, generalId, 'general', 'code')
  const link = message('hi & bye').getByRole('link', { name: 'View in Python playground' })
  await link.waitFor()
  assert.equal(await message('no playground').getByRole('link').count(), 0)
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()])
  await popup.waitForLoadState()
  assert.match(popup.url(), /^https:\/\/py\.lan\/run\?code=print%28%22hi%20%26%20bye%22%29(%0A)?$/)
  await popup.close()
})

test('message times follow the account\'s 24-hour setting, already as the page first draws', async () => {
  await alice.send('general', 'clock', 'What time is it?')
  await openTopicAt(page, generalId, 'general', 'clock')
  const time = page.getByTestId('message').filter({ hasText: 'What time is it?' }).locator('.time')
  assert.match(await time.innerText(), /^\d\d:\d\d [AP]M$/)
  await page.getByTestId('settings-button').click()
  // The box shows the account's setting, ticked once the server has it.
  const box = page.getByTestId('setting-twenty_four_hour_time')
  await box.click()
  await eventually(async () => assert.ok(await box.isChecked()))
  await page.getByTestId('settings').getByRole('button', { name: 'Close' }).click()
  await eventually(async () => assert.match(await time.innerText(), /^\d\d:\d\d$/))
  // After a reload, with register held back, the times are drawn in 24
  // hours from the setting this browser last heard.
  let release
  const held = new Promise((r) => { release = r })
  await page.route('**/api/v1/register', async (route) => { await held; await route.continue() })
  await page.reload()
  assert.match(await time.innerText(), /^\d\d:\d\d$/)
  release()
  await page.getByTestId('settings-button').click()
  await box.click()
  await eventually(async () => assert.ok(!(await box.isChecked())))
  await page.getByTestId('settings').getByRole('button', { name: 'Close' }).click()
  await eventually(async () => assert.match(await time.innerText(), /^\d\d:\d\d [AP]M$/))
})
