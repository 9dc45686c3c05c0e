// Composing as in Zulip: autocomplete for people, user groups, wildcards,
// emoji from the full table, streams and their topics, and the slash
// commands; the emoji picker in compose; and, on a phone, a compose box that
// stays a one-line button until used.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, openTopicAt, phonePage, shot, signIn, startServer } from './harness.mjs'

let server, browser, page, alice, generalId

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  alice = await apiClient(server.url, 'alice@example.com')
  const users = (await alice.call('GET', '/api/v1/users')).members
  const id = (email) => users.find((u) => u.email === email).user_id
  await alice.call('POST', '/api/v1/user_groups/create', { name: 'designers', description: 'Design', members: [id('alice@example.com'), id('bob@example.com')] })
  generalId = (await alice.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  await alice.send('general', 'release plans', 'When do we ship?')
  page = await newPage(browser)
  await signIn(page, server.url, 'bob@example.com')
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const content = () => page.getByTestId('compose-content')
const items = () => page.getByTestId('autocomplete-item').allInnerTexts()

// typeAndPick types text at the end of the message and picks the completion showing label.
async function typeAndPick(text, label) {
  await content().press('End')
  await content().pressSequentially(text)
  await page.getByTestId('autocomplete-item').filter({ hasText: label }).first().waitFor()
  await page.getByTestId('autocomplete-item').filter({ hasText: label }).first().click()
}

test('autocomplete completes groups, wildcards, emoji, stream topics and slash commands', async () => {
  await openTopicAt(page, generalId, 'general', 'release plans')
  await content().fill('')

  await content().pressSequentially('@desi')
  await eventually(async () => assert.deepEqual(await items(), ['designers User group']))
  await content().press('Enter')
  assert.equal(await content().inputValue(), '@*designers* ')

  await typeAndPick('@to', 'Notify topic')
  await typeAndPick('@al', 'Notify channel')
  assert.equal(await content().inputValue(), '@*designers* @**topic** @**all** ')

  // Every emoji the server knows, not only the common ones.
  await typeAndPick(':octo', ':octopus:')
  // A completed stream and ">" go on to its topics.
  await typeAndPick('#**gener', '#general')
  await content().pressSequentially('>rel')
  await eventually(async () => assert.deepEqual(await items(), ['#general > release plans']))
  await content().press('Tab')
  assert.equal(await content().inputValue(), '@*designers* @**topic** @**all** :octopus: #**general>release plans** ')

  await content().fill('')
  await content().pressSequentially('/')
  await eventually(async () => assert.deepEqual((await items()).map((t) => t.split(' ')[0]), ['/poll', '/todo', '/me']))
  await content().press('Escape')

  await content().fill('Ping @**designers** :octopus:')
  await content().fill('Ping ')
  await typeAndPick('@desi', 'designers')
  await page.getByTestId('compose-send').click()
  const sent = page.getByTestId('message-content').filter({ hasText: 'Ping' })
  await sent.locator('.user-group-mention').filter({ hasText: '@designers' }).waitFor()
})

test('a stream message without a topic is not sent: the box keeps its text and asks for a topic', async () => {
  await openTopicAt(page, generalId, 'general', 'release plans')
  const topic = page.locator('.compose').getByTestId('compose-topic')
  await topic.fill('')
  await content().fill('Lunch at noon?')
  await content().press('Enter')
  await page.locator('.compose .form-error', { hasText: 'Topics are required in this organization.' }).waitFor()
  assert.equal(await content().inputValue(), 'Lunch at noon?')
  assert.equal(await page.locator('.compose').getByText('Not sent:').count(), 0)
  assert.ok(await topic.evaluate((el) => el === document.activeElement), 'the topic field has the focus')

  await topic.fill('lunch')
  await content().press('Enter')
  await eventually(async () => assert.equal(await content().inputValue(), ''))
  await eventually(async () => {
    const [last] = (await alice.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).messages
    assert.equal(last.subject, 'lunch')
    assert.match(last.content, /Lunch at noon\?/)
  })
})

test('the emoji picker in compose puts the emoji at the caret, by category or search, recent first', async () => {
  await content().fill('Good morning')
  await page.getByTestId('compose-emoji').click()
  const picker = page.getByTestId('emoji-picker')
  await picker.waitFor()
  assert.ok(await page.getByTestId('emoji-category').count() >= 9, 'recently used and every category of the table')
  await page.getByTestId('emoji-category').nth(4).click()
  assert.ok(await page.getByTestId('emoji-option').count() > 50)
  await page.getByTestId('emoji-search').fill('sunrise')
  await page.locator('[data-testid=emoji-option][data-emoji-name=sunrise]').click()
  await picker.waitFor({ state: 'detached' })
  assert.equal(await content().inputValue(), 'Good morning :sunrise: ')
  // Recently used comes first the next time.
  await page.getByTestId('compose-emoji').click()
  assert.equal(await page.getByTestId('emoji-option').first().getAttribute('data-emoji-name'), 'sunrise')
  await page.keyboard.press('Escape')
  await picker.waitFor({ state: 'detached' })
})

test('the emoji picker has the organization\'s custom emoji, under their own category, live', async () => {
  // Uploaded while the page is open: the realm_emoji event brings it.
  const key = (await (await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'alice@example.com', password: 'lanchat-dev' }) })).json()).api_key
  const form = new FormData()
  form.append('file', new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], { type: 'image/png' }), 'team.png')
  const added = await fetch(`${server.url}/api/v1/realm/emoji/team_spirit`, { method: 'POST', body: form, headers: { Authorization: 'Basic ' + Buffer.from(`alice@example.com:${key}`).toString('base64') } })
  assert.equal(added.status, 200, await added.text())
  await content().fill('Go')
  const picker = page.getByTestId('emoji-picker')
  await eventually(async () => {
    await page.getByTestId('compose-emoji').click()
    await picker.waitFor()
    try {
      await page.locator('[data-testid=emoji-category][title=Custom]').click({ timeout: 500 })
    } catch (e) {
      await page.keyboard.press('Escape')
      throw e
    }
  })
  const option = page.locator('[data-testid=emoji-option][data-emoji-name=team_spirit]')
  assert.deepEqual(await page.getByTestId('emoji-option').evaluateAll((os) => os.map((o) => o.dataset.emojiName)), ['team_spirit'])
  const listed = Object.values((await alice.call('GET', '/api/v1/realm/emoji')).emoji).find((e) => e.name === 'team_spirit')
  assert.equal(await option.locator('img').getAttribute('src'), listed.source_url)
  // Found by search too, beside the table's.
  await page.getByTestId('emoji-search').fill('team_sp')
  await option.click()
  await picker.waitFor({ state: 'detached' })
  assert.equal(await content().inputValue(), 'Go :team_spirit: ')
})

// tooSmall lists the visible controls narrower or lower than 40 px.
const tooSmall = (phone) => phone.evaluate(() => [...document.querySelectorAll('.topbar button, .topbar a, .topbar input, .compose button, .compose select, .compose input, .compose label, .banner button')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 })
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width < 40 || r.height < 40 })
  .map((el) => `${el.dataset.testid ?? el.className ?? el.tagName}: ${Math.round(el.getBoundingClientRect().width)}×${Math.round(el.getBoundingClientRect().height)}`))

test('on a phone compose is a button until used, and the messages keep the screen with the keyboard up', async () => {
  const phone = await phonePage(browser, server.url, 'alice@example.com')
  await openTopicAt(phone, generalId, 'general', 'release plans')
  const open = phone.getByTestId('compose-open')
  assert.equal(await open.innerText(), 'Message #general > release plans')
  assert.equal(await phone.getByTestId('compose-content').count(), 0)
  const box = await phone.locator('.compose').boundingBox()
  assert.ok(box.height <= 64, `collapsed compose is ${box.height}px tall`)
  assert.deepEqual(await tooSmall(phone), [])
  // The search field is wide enough for its placeholder.
  const search = phone.getByTestId('search-input')
  assert.ok(await search.evaluate((el) => {
    const ctx = document.createElement('canvas').getContext('2d')
    ctx.font = getComputedStyle(el).font
    return ctx.measureText(el.placeholder).width <= el.clientWidth - 16
  }), `the search placeholder fits: ${await search.evaluate((el) => el.clientWidth)}px`)

  // The banner, once dismissed, stays dismissed.
  await phone.getByTestId('dismiss-notifications').tap()
  await phone.reload()
  await phone.getByTestId('compose-open').waitFor()
  assert.equal(await phone.getByTestId('notification-banner').count(), 0)
  await shot(phone, 'phone-compose-collapsed.png')

  await phone.getByTestId('compose-open').tap()
  await eventually(async () => assert.equal(await phone.evaluate(() => document.activeElement?.dataset.testid), 'compose-content'))
  assert.deepEqual(await tooSmall(phone), [])
  // The on-screen keyboard leaves 390×450: the messages keep most of it.
  await phone.setViewportSize({ width: 390, height: 450 })
  const scroller = await phone.locator('.message-scroller').boundingBox()
  assert.ok(scroller.height >= 180, `${scroller.height}px of messages with the keyboard up`)
  // The newest message stays in sight as the screen shrinks.
  await eventually(async () => {
    const last = await phone.getByTestId('message').last().boundingBox()
    assert.ok(last.y + last.height <= scroller.y + scroller.height + 1, `the newest message ends at ${last.y + last.height}, the list at ${scroller.y + scroller.height}`)
  })
  await shot(phone, 'phone-compose-keyboard.png')
  await phone.setViewportSize({ width: 390, height: 844 })

  await phone.getByTestId('compose-content').fill('From my phone')
  await phone.getByTestId('compose-send').tap()
  await phone.getByTestId('message').filter({ hasText: 'From my phone' }).waitFor()
  // Another conversation, nothing typed: compose folds back to its button.
  await openTopicAt(phone, generalId, 'general', 'welcome')
  await eventually(async () => assert.equal(await phone.getByTestId('compose-open').innerText(), 'Message #general > welcome'))
  await phone.getByTestId('compose-open').tap()
  await phone.getByTestId('compose-close').tap()
  await phone.getByTestId('compose-open').waitFor()
  await phone.context().close()
})
