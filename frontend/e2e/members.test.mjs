// Every member, not only the host: notifications in the browser and the
// page on a phone, in Chromium against a real lanchatd.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, phonePage, shot, signIn, startServer } from './harness.mjs'

let server, browser, bobApi, general

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  bobApi = await apiClient(server.url, 'bob@example.com')
  general = (await bobApi.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const go = (page, hash) => page.evaluate((h) => { location.hash = h }, hash)
const title = (page, text) => page.getByTestId('narrow-title').filter({ hasText: text }).waitFor()

// A page whose Notification records what it is asked to show (headless
// Chromium shows nothing one could look at), with permission granted.
async function notifyingPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  await context.grantPermissions(['notifications'], { origin: server.url })
  await context.addInitScript(() => {
    window.__shown = []
    class Recorded {
      static permission = 'granted'
      static requestPermission = async () => 'granted'
      constructor(title, options) { this.title = title; this.options = options; window.__shown.push(this) }
      close() {}
    }
    window.Notification = Recorded
  })
  const page = await context.newPage()
  page.setDefaultTimeout(10000)
  return page
}
const shown = (page) => page.evaluate(() => window.__shown.map((n) => ({ title: n.title, body: n.options.body })))

test('a mention or a direct message raises one notification, unless one is reading it; a click opens it', async () => {
  const alice = await notifyingPage()
  await signIn(alice, server.url, 'alice@example.com')
  const aliceApi = await apiClient(server.url, 'alice@example.com')
  await go(alice, `#narrow/channel/${general}-general/topic/lunch`)
  await title(alice, 'lunch')

  await bobApi.send('general', 'lunch', 'Right here, @**Alice Anders**') // she is reading lunch
  // Her own, in a topic of its own: starting a topic follows it (Zulip's default), and a followed topic notifies.
  await aliceApi.send('general', 'notes', 'My own words, @**Alice Anders**')
  await bobApi.send('general', 'deploys', 'Nothing for anyone in particular')
  const { id } = await bobApi.send('general', 'deploys', 'Deploy at five, @**Alice Anders**?')
  await eventually(async () => assert.equal((await shown(alice)).length, 1))
  assert.deepEqual(await shown(alice), [{ title: 'Bob Brown (#general › deploys)', body: 'Deploy at five, @Alice Anders?' }])

  await bobApi.call('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(['alice@example.com']), content: 'Lunch later?' })
  await eventually(async () => assert.equal((await shown(alice)).length, 2))
  assert.deepEqual((await shown(alice))[1], { title: 'Bob Brown', body: 'Lunch later?' })

  await alice.evaluate(() => window.__shown[0].onclick())
  await alice.locator(`[data-message-id="${id}"].linked`).waitFor()
  await alice.context().close()
})

test('the page asks for permission in a banner, once', async () => {
  const page = await newPage(browser)
  await signIn(page, server.url, 'bob@example.com')
  const banner = page.getByTestId('notification-banner')
  await banner.waitFor()
  assert.match(await banner.textContent(), /mentions you or sends you a direct message/)
  await page.getByTestId('dismiss-notifications').click()
  await banner.waitFor({ state: 'detached' })
  await page.reload()
  await page.getByTestId('stream-list').waitFor()
  assert.equal(await banner.count(), 0)
  await page.context().close()
})

test('only the conversation on screen counts as read: the landing page, the message\'s conversation, another one', async () => {
  const alice = await notifyingPage()
  await signIn(alice, server.url, 'alice@example.com')
  await alice.getByTestId('stream-list').waitFor()
  // Fresh from signing in, on Recent conversations: nothing is being read.
  await bobApi.call('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(['alice@example.com']), content: 'Are you there?' })
  await eventually(async () => assert.deepEqual(await shown(alice), [{ title: 'Bob Brown', body: 'Are you there?' }]))

  // In lunch: a mention there is being read; one in another topic is not.
  await go(alice, `#narrow/channel/${general}-general/topic/lunch`)
  await title(alice, 'lunch')
  await bobApi.send('general', 'lunch', 'Soup today, @**Alice Anders**')
  await bobApi.send('general', 'deploys', 'Deploy now, @**Alice Anders**?')
  await eventually(async () => assert.equal((await shown(alice)).length, 2))
  assert.deepEqual((await shown(alice))[1], { title: 'Bob Brown (#general › deploys)', body: 'Deploy now, @Alice Anders?' })

  // Back on the landing page, lunch is no longer on screen.
  await go(alice, '#recent')
  await alice.getByTestId('recent-view').waitFor()
  await bobApi.send('general', 'lunch', 'Still hungry, @**Alice Anders**?')
  await eventually(async () => assert.equal((await shown(alice)).length, 3))
  assert.deepEqual((await shown(alice))[2], { title: 'Bob Brown (#general › lunch)', body: 'Still hungry, @Alice Anders?' })
  await alice.context().close()
})

test('settings show the phone subscription: server, topic, QR code and the ntfy app\'s steps', async () => {
  const page = await newPage(browser)
  await signIn(page, server.url, 'alice@example.com')
  await page.getByTestId('settings-button').click()
  await page.getByTestId('settings-tab-notifications').click()
  const mine = await (await apiClient(server.url, 'alice@example.com')).call('GET', '/api/v1/users/me/ntfy')
  await page.getByTestId('phone-qr').waitFor()
  assert.equal(await page.getByTestId('phone-topic').textContent(), mine.topic)
  assert.equal(await page.getByTestId('phone-server').textContent(), `http://127.0.0.1:${mine.port}`)
  assert.match(await page.getByTestId('phone-steps').textContent(), /Add subscription.*Use another server/s)
  await page.getByTestId('phone-subscription').scrollIntoViewIfNeeded()
  await shot(page, 'settings-phone.png')
  await page.getByTestId('phone-regenerate').click()
  await eventually(async () => assert.notEqual(await page.getByTestId('phone-topic').textContent(), mine.topic))
  await page.context().close()
})

// noSidewaysScroll: the page is exactly as wide as the screen.
const noSidewaysScroll = (page) => page.evaluate(() => {
  const el = document.scrollingElement
  return { scroll: el.scrollWidth, width: el.clientWidth }
}).then(({ scroll, width }) => assert.ok(scroll <= width, `page is ${scroll}px wide on a ${width}px screen`))

// smallTargets lists the visible controls (outside message text) under 40 px high.
const smallTargets = (page) => page.evaluate(() => [...document.querySelectorAll('.topbar button, .topbar a, .compose button, .compose select, .compose input, .sidebar a, .sidebar button, .recent-row, .settings-tabs button')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.right > 0 && r.left < innerWidth })
  .filter((el) => el.getBoundingClientRect().height < 40)
  .map((el) => `${el.className || el.tagName}: ${Math.round(el.getBoundingClientRect().height)}px`))

test('on a phone: one column, drawers, compose at the bottom, no sideways scrolling, 40 px targets', async () => {
  await bobApi.send('general', 'lunch', `A very long word: ${'supercalifragilistic'.repeat(8)}\n\n\`\`\`\n${'wide code '.repeat(30)}\n\`\`\`\n\n| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| ${'cell text '.repeat(3)} | 2 | 3 | 4 | 5 | 6 |`)
  const phone = await phonePage(browser, server.url, 'alice@example.com')
  await noSidewaysScroll(phone)
  assert.deepEqual(await smallTargets(phone), [])
  await shot(phone, 'phone-recent.png')

  assert.equal(await phone.locator('.sidebar').evaluate((el) => el.getBoundingClientRect().right <= 0), true, 'the stream list starts hidden')
  await phone.getByTestId('open-streams').tap()
  await eventually(async () => assert.equal(await phone.locator('.sidebar').evaluate((el) => el.getBoundingClientRect().left), 0))
  assert.deepEqual(await smallTargets(phone), [])
  await shot(phone, 'phone-streams.png')
  await phone.locator('[data-testid=stream-row][data-stream="general"]').tap()
  await phone.getByTestId('open-streams').tap()
  await phone.locator('[data-testid=topic-row][data-topic="lunch"]').tap()
  await title(phone, 'lunch')
  await eventually(async () => assert.ok(await phone.locator('.sidebar').evaluate((el) => el.getBoundingClientRect().right <= 0), 'the drawer closed'))
  await phone.getByTestId('message').filter({ hasText: 'A very long word' }).waitFor()
  await noSidewaysScroll(phone)

  await phone.getByTestId('compose-open').tap()
  const send = await phone.getByTestId('compose-send').boundingBox()
  assert.ok(send && send.y + send.height <= 844 && send.x + send.width <= 390, `Send at ${JSON.stringify(send)}`)
  await phone.getByTestId('compose-content').tap()
  await phone.getByTestId('compose-content').fill('Sent from a phone')
  await phone.getByTestId('compose-send').tap()
  await phone.getByTestId('message').filter({ hasText: 'Sent from a phone' }).waitFor()
  assert.deepEqual(await smallTargets(phone), [])
  await shot(phone, 'phone-topic.png')

  await phone.getByTestId('open-people').tap()
  await eventually(async () => assert.ok(await phone.locator('.buddies').evaluate((el) => el.getBoundingClientRect().right <= 390 + 1 && el.getBoundingClientRect().left < 390)))
  await phone.getByTestId('drawer-scrim').tap({ position: { x: 20, y: 400 } })
  await eventually(async () => assert.ok(await phone.locator('.buddies').evaluate((el) => el.getBoundingClientRect().left >= 390)))

  // Settings: the tabs stay one compact block above the page, whatever the page holds.
  await phone.getByTestId('settings-button').tap()
  const tabsHeight = () => phone.locator('.settings-tabs').evaluate((el) => el.getBoundingClientRect().height)
  const height = await tabsHeight()
  for (const tab of await phone.locator('.settings-tabs [role=tab]').all()) {
    await tab.tap()
    assert.equal(await tabsHeight(), height, `the tabs' height on ${await tab.textContent()}`)
  }
  assert.deepEqual(await smallTargets(phone), [])
  await shot(phone, 'phone-settings.png')
  await phone.context().close()
})

test('on a phone a topic\'s title shows whole, beside its actions', async () => {
  await bobApi.send('general', 'release plans', 'Friday, if the tests pass')
  const phone = await phonePage(browser, server.url, 'alice@example.com')
  await go(phone, `#narrow/channel/${general}-general/topic/release.20plans`)
  await title(phone, 'release plans')
  const heading = phone.getByTestId('narrow-title')
  assert.ok(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth), `the title is cut to ${await heading.evaluate((el) => el.clientWidth)}px`)
  // The actions keep the title's row (the messages need the height) and a strip of it to show they are there.
  const head = await heading.boundingBox()
  const actions = await phone.getByTestId('topic-actions').boundingBox()
  assert.ok(actions.y < head.y + head.height && actions.width >= 100, `the actions at ${JSON.stringify(actions)}, the title at ${JSON.stringify(head)}`)
  await noSidewaysScroll(phone)
  await phone.context().close()
})

test('on a phone one sets one\'s status from the people drawer', async () => {
  const phone = await phonePage(browser, server.url, 'alice@example.com')
  const me = (await phone.evaluate(() => fetch('/api/v1/users/me', { headers: { 'X-Requested-With': 'XMLHttpRequest' } }).then((r) => r.json()))).user_id
  await phone.getByTestId('open-people').tap()
  const button = phone.getByTestId('people-set-status')
  await eventually(async () => assert.ok(await phone.locator('.buddies').evaluate((el) => el.getBoundingClientRect().right <= 391)))
  const box = await button.boundingBox()
  assert.ok(box && box.height >= 40 && box.x >= 0 && box.x + box.width <= 390, `the button at ${JSON.stringify(box)}`)
  await button.tap()
  const editor = phone.getByTestId('status-editor')
  await editor.waitFor()
  const shown = await editor.boundingBox()
  assert.ok(shown && shown.x >= 0 && shown.x + shown.width <= 390, `the editor at ${JSON.stringify(shown)}`)
  await eventually(async () => assert.ok(await phone.locator('.buddies').evaluate((el) => el.getBoundingClientRect().left >= 390), 'the drawer closed'))
  await phone.getByTestId('status-suggestion').filter({ hasText: 'Commuting' }).tap()
  await phone.getByTestId('status-save').tap()
  await editor.waitFor({ state: 'detached' })
  await eventually(async () => assert.equal((await bobApi.call('GET', `/api/v1/users/${me}/status`)).status.status_text, 'Commuting'))
  // The drawer shows it, and clears it the same way.
  await phone.getByTestId('open-people').tap()
  await eventually(async () => assert.match(await button.textContent(), /Commuting/))
  await button.tap()
  await phone.getByTestId('status-clear').tap()
  await editor.waitFor({ state: 'detached' })
  await eventually(async () => assert.equal((await bobApi.call('GET', `/api/v1/users/${me}/status`)).status.status_text ?? '', ''))
  await phone.context().close()
})

test('the page can be added to a home screen: a manifest with icons', async () => {
  const manifest = await (await fetch(`${server.url}/manifest.webmanifest`)).json()
  assert.equal(manifest.display, 'standalone')
  for (const icon of manifest.icons) {
    const r = await fetch(new URL(icon.src, server.url))
    assert.equal(r.status, 200)
    assert.equal(r.headers.get('content-type'), 'image/png')
  }
  assert.deepEqual(manifest.icons.map((i) => i.sizes), ['192x192', '512x512'])
})
