// The daily workflows of a person used to Zulip's web app: search with
// operators, Recent conversations, direct messages, topics, message links,
// the message menu, the emoji picker and the keyboard, each used in Chromium
// against a real lanchatd.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, openTopicAt, sendImage, seriousViolations, shot, signIn, startServer } from './harness.mjs'

let server, browser, alice, aliceApi, bobApi, general

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  alice = await newPage(browser)
  await signIn(alice, server.url, 'alice@example.com')
  aliceApi = await apiClient(server.url, 'alice@example.com')
  bobApi = await apiClient(server.url, 'bob@example.com')
  general = (await aliceApi.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const messages = (page) => page.getByTestId('message')
const title = (page, text) => page.getByTestId('narrow-title').filter({ hasText: text }).waitFor()
const go = async (page, hash) => { await page.evaluate((h) => { location.hash = h }, hash) }

const openTopic = (page, topic) => openTopicAt(page, general, 'general', topic)

test('the home view is Recent conversations, unread first, with filters', async () => {
  await bobApi.send('general', 'standup', 'Standup notes for today')
  await aliceApi.send('general', 'my notes', 'Notes to myself, read as I write them')
  await alice.getByTestId('nav-recent').click()
  const rows = alice.getByTestId('recent-row')
  await rows.filter({ hasText: 'standup' }).waitFor()
  await rows.filter({ hasText: 'my notes' }).waitFor()
  assert.match(await rows.first().textContent(), /standup/, 'the unread conversation comes first')
  assert.ok(await rows.filter({ hasText: '#general › lunch' }).count() >= 1)
  const all = await rows.count()
  await alice.getByTestId('recent-unread-only').check()
  await eventually(async () => {
    const shown = await rows.count()
    assert.ok(shown < all, `${shown} of ${all} rows with unread only`)
    assert.equal(await rows.getByTestId('recent-unread').count(), shown, 'every row shown has unread messages')
  })
  await shot(alice, 'recent.png')
  await alice.getByTestId('recent-unread-only').uncheck()
  await alice.getByTestId('recent-filter').fill('welc')
  await eventually(async () => assert.deepEqual(await rows.allTextContents().then((t) => t.map((x) => /welcome/.test(x))), [true]))
  await rows.first().click()
  await title(alice, 'welcome')
})

test('search understands Zulip operators and suggests them', async () => {
  await bobApi.send('general', 'lunch', 'A quokka sandwich, please')
  await aliceApi.send('general', 'lunch', 'A quokka salad for me')
  const input = alice.getByTestId('search-input')
  await input.fill('sen')
  await alice.getByTestId('search-suggestion').filter({ hasText: 'sender:' }).click()
  await input.pressSequentially('bob', { delay: 10 })
  await alice.getByTestId('search-suggestion').filter({ hasText: 'bob@example.com' }).click()
  await input.pressSequentially('quokka')
  await input.press('Enter')
  await title(alice, 'Search')
  await messages(alice).filter({ hasText: 'quokka sandwich' }).waitFor()
  assert.equal(await messages(alice).count(), 1, 'only Bob\'s message matches')
  await shot(alice, 'search-operators.png')

  await input.fill('channel:general topic:lunch from:me quokka')
  await input.press('Enter')
  await messages(alice).filter({ hasText: 'quokka salad' }).waitFor()
  assert.equal(await messages(alice).count(), 1)
})

test('direct conversations stay in the left bar once read; recipients are chosen by name', async () => {
  await bobApi.call('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(['alice@example.com']), content: 'Psst, a direct word' })
  const row = alice.locator('[data-testid=pm-row][data-emails="bob@example.com"]')
  await row.getByTestId('unread-count').waitFor()
  await row.click()
  await messages(alice).filter({ hasText: 'Psst, a direct word' }).waitFor()
  await eventually(async () => assert.equal(await row.getByTestId('unread-count').count(), 0))
  await go(alice, '#recent')
  assert.equal(await row.count(), 1, 'a read conversation is still listed')

  await alice.keyboard.press('x')
  await alice.getByTestId('compose-to').fill('Ada')
  await alice.getByTestId('recipient-suggestion').filter({ hasText: 'ada' }).waitFor()
  await alice.getByTestId('compose-to').press('Enter')
  assert.match(await alice.getByTestId('compose-to').inputValue(), /^admin@example\.com, $/)
  await alice.getByTestId('compose-content').fill('Hello Ada, chosen by name')
  await alice.getByTestId('compose-send').click()
  await alice.locator('[data-testid=pm-row][data-emails="admin@example.com"]').waitFor()

  // Nobody to send to: a sentence saying what to do, not the API's words.
  await alice.getByTestId('compose-to').fill('')
  await alice.getByTestId('compose-content').fill('To nobody')
  await alice.getByTestId('compose-send').click()
  await alice.locator('.compose .form-error').filter({ hasText: 'Choose a stream, or the people to send to.' }).waitFor()
  await alice.getByTestId('compose-content').fill('')
})

test('every topic is reachable: more topics, searchable', async () => {
  for (let i = 1; i <= 12; i++) await bobApi.send('general', `release ${i}`, `Release ${i} is out`)
  await go(alice, `#narrow/channel/${general}-general`)
  await title(alice, '#general')
  const topics = alice.locator('[data-testid=topic-row]')
  await alice.getByTestId('more-topics').click()
  await eventually(async () => assert.equal(await topics.filter({ hasText: /^release \d+/ }).count(), 12))
  await alice.getByTestId('topic-filter').fill('release 1')
  await eventually(async () => assert.deepEqual((await topics.evaluateAll((rows) => rows.map((r) => r.dataset.topic))).sort(),
    ['release 1', 'release 10', 'release 11', 'release 12']))
})

test('message links open the message, highlighted and selected; the menu copies them', async () => {
  const { id } = await bobApi.send('general', 'deploys', 'The linked message')
  for (let i = 0; i < 30; i++) await bobApi.send('general', 'deploys', `Filler ${i}`)
  for (const hash of [`#narrow/near/${id}`, `#narrow/channel/${general}-general/topic/deploys/near/${id}`, `#narrow/stream/${general}-general/topic/deploys/near/${id}`]) {
    await go(alice, '#recent')
    await go(alice, hash)
    const linked = alice.locator(`[data-message-id="${id}"]`)
    await linked.waitFor()
    await eventually(async () => {
      assert.match(await linked.getAttribute('class'), /\blinked\b/)
      assert.equal(await linked.getAttribute('data-selected'), 'true')
      assert.ok(await linked.isVisible())
    })
  }
  await alice.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  const linked = alice.locator(`[data-message-id="${id}"]`)
  await linked.hover()
  await linked.getByTestId('message-menu-button').click()
  await linked.getByTestId('menu-copy-link').click()
  await linked.getByText('Link copied').waitFor()
  const copied = await alice.evaluate(() => navigator.clipboard.readText())
  assert.match(copied, new RegExp(`/#narrow/channel/${general}-general/topic/deploys/near/${id}$`))
  await alice.keyboard.press('Escape')
})

test('the message menu quotes, shows the source, marks unread and moves a topic', async () => {
  await openTopic(alice, 'lunch')
  const { id } = await bobApi.send('general', 'lunch', 'Soup **of the day**')
  const m = alice.locator(`[data-message-id="${id}"]`)
  await m.waitFor()
  const menu = async (item) => { await m.hover(); await m.getByTestId('message-menu-button').click(); await m.getByTestId(item).click() }

  await menu('menu-quote')
  await eventually(async () => assert.match(await alice.getByTestId('compose-content').inputValue(),
    new RegExp(`^@_\\*\\*Bob Brown\\|\\d+\\*\\* \\[said\\]\\(.*/near/${id}\\):\\n\`\`\`quote\\nSoup \\*\\*of the day\\*\\*\\n\`\`\``)))
  await alice.getByTestId('compose-content').fill('')

  await menu('menu-view-source')
  assert.equal(await alice.getByTestId('message-source').locator('pre').textContent(), 'Soup **of the day**')
  await alice.keyboard.press('Escape')

  await eventually(async () => assert.doesNotMatch(await m.getAttribute('class'), /\bunread\b/))
  await menu('menu-mark-unread')
  await eventually(async () => assert.match(await m.getAttribute('class'), /\bunread\b/))
  const unread = (await aliceApi.call('GET', `/api/v1/messages/${id}`)).message.flags
  assert.ok(!unread.includes('read'), 'the server has it unread')

  const { id: mine } = await aliceApi.send('general', 'lunch', 'My own lunch message')
  const own = alice.locator(`[data-message-id="${mine}"]`)
  await own.waitFor()
  await own.hover()
  await own.getByTestId('message-menu-button').click()
  await own.getByTestId('menu-move').click()
  await alice.getByTestId('move-topic-name').fill('lunch plans')
  await alice.getByTestId('move-mode').selectOption('change_one')
  await shot(alice, 'move-topic.png')
  await alice.getByTestId('move-save').click()
  await eventually(async () => assert.equal((await aliceApi.call('GET', `/api/v1/messages/${mine}`)).message.subject, 'lunch plans'))
})

test('the emoji picker searches every emoji, takes a reaction back and closes on Esc', async () => {
  await openTopic(alice, 'lunch')
  const { id } = await bobApi.send('general', 'lunch', 'React to me')
  const m = alice.locator(`[data-message-id="${id}"]`)
  await m.waitFor()
  await m.hover()
  await m.getByTestId('react-button').click()
  await alice.getByTestId('emoji-search').fill('flying saucer')
  await shot(alice, 'emoji-picker.png')
  await alice.locator('[data-testid=emoji-option][data-emoji-name=flying_saucer]').click()
  await m.locator('[data-testid=reaction][data-emoji-name=flying_saucer]').waitFor()
  await m.hover()
  await m.getByTestId('react-button').click()
  await alice.getByTestId('emoji-category').nth(0).click() // recently used
  await alice.locator('[data-testid=emoji-option][data-emoji-name=flying_saucer][aria-pressed=true]').click()
  await m.locator('[data-testid=reaction][data-emoji-name=flying_saucer]').waitFor({ state: 'detached' })
  await m.hover()
  await m.getByTestId('react-button').click()
  await alice.getByTestId('emoji-picker').waitFor()
  await alice.keyboard.press('Escape')
  await alice.getByTestId('emoji-picker').waitFor({ state: 'detached' })
})

test('an uploaded image is previewed in the message, for every reader', async () => {
  await openTopic(alice, 'photos')
  const preview = await sendImage(alice, 'team.png')
  await eventually(async () => assert.ok(await preview.evaluate((img) => img.complete && img.naturalWidth === 192), 'the image loads'))
  await shot(alice, 'image-preview.png')
  const [sent] = (await bobApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0,
    narrow: [{ operator: 'topic', operand: 'photos' }] })).messages
  assert.match(sent.content, /<div class="message_inline_image"><a href="\/user_uploads\/[^"]+\/team\.png" title="team\.png"><img data-original-dimensions="192x192" src="/)
})

test('the keyboard works as in Zulip', async () => {
  await openTopic(alice, 'lunch')
  const selected = alice.locator('[data-testid=message][data-selected=true]')
  await selected.waitFor()
  await alice.getByTestId('narrow-title').click() // focus on the page, in no field
  await alice.keyboard.press('End')
  const last = await messages(alice).last().getAttribute('data-message-id')
  await eventually(async () => assert.equal(await selected.getAttribute('data-message-id'), last))
  await alice.keyboard.press('k')
  await eventually(async () => assert.notEqual(await selected.getAttribute('data-message-id'), last))
  await alice.keyboard.press('*')
  await selected.locator('[data-testid=star-button].on').waitFor()
  await alice.keyboard.press('r')
  await eventually(async () => assert.equal(await alice.evaluate(() => document.activeElement?.dataset.testid), 'compose-content'))
  assert.equal(await alice.getByTestId('compose-topic').inputValue(), 'lunch')
  await alice.keyboard.press('Escape')
  await alice.keyboard.press('?')
  await alice.getByTestId('shortcuts').waitFor()
  // Each key sits on one line beside what it does ("/ or Ctrl+k" wrapped in
  // a column too narrow for it).
  const wrapped = await alice.getByTestId('shortcuts').locator('dt').evaluateAll((dts) => {
    const line = Math.min(...dts.map((dt) => dt.getBoundingClientRect().height)) // a one-letter key's
    return dts.filter((dt) => dt.getBoundingClientRect().height > 1.5 * line).map((dt) => dt.textContent)
  })
  assert.deepEqual(wrapped, [])
  await alice.keyboard.press('Escape')
  await alice.keyboard.press('Control+k')
  assert.equal(await alice.evaluate(() => document.activeElement?.dataset.testid), 'search-input')
  await alice.keyboard.press('Escape')
  await alice.keyboard.press('q')
  assert.equal(await alice.evaluate(() => document.activeElement?.dataset.testid), 'stream-filter')
  await alice.keyboard.press('Escape')
  await alice.keyboard.press('t')
  await alice.getByTestId('recent-view').waitFor()
})

test('the typing indicator shows wherever one has scrolled; muted topics stay out of All messages', async () => {
  await openTopic(alice, 'lunch')
  await alice.locator('.message-scroller').evaluate((el) => { el.scrollTop = 0 })
  await bobApi.call('POST', '/api/v1/typing', { op: 'start', type: 'stream', stream_id: general, topic: 'lunch' })
  const typing = alice.getByTestId('typing-indicator')
  await typing.waitFor()
  assert.ok(await typing.isVisible())
  assert.equal(await typing.evaluate((el) => !!el.closest('.message-scroller')), false)
  await bobApi.call('POST', '/api/v1/typing', { op: 'stop', type: 'stream', stream_id: general, topic: 'lunch' })

  await aliceApi.call('POST', '/api/v1/user_topics', { stream_id: general, topic: 'noisy', visibility_policy: 1 }).catch(() =>
    aliceApi.call('PATCH', '/api/v1/users/me/subscriptions/muted_topics', { stream_id: general, topic: 'noisy', op: 'add' }))
  await bobApi.send('general', 'noisy', 'Noise nobody wants')
  await bobApi.send('general', 'quiet', 'A signal worth reading')
  await alice.getByTestId('nav-all').click()
  await messages(alice).filter({ hasText: 'A signal worth reading' }).waitFor()
  assert.equal(await messages(alice).filter({ hasText: 'Noise nobody wants' }).count(), 0)
})

test('the main views have no serious accessibility violations', async () => {
  for (const hash of ['#recent', `#narrow/channel/${general}-general/topic/lunch`, '#narrow/search/lunch']) {
    await go(alice, hash)
    await alice.waitForTimeout(300)
    assert.deepEqual(await seriousViolations(alice), [], hash)
  }
  await alice.getByTestId('nav-drafts').click()
  await alice.getByTestId('drafts').waitFor()
  assert.deepEqual(await seriousViolations(alice), [], 'drafts')
  await alice.keyboard.press('Escape')
  await alice.getByTestId('drafts').waitFor({ state: 'detached' })
})

test('the signed-out page loads without a failed request', async () => {
  const page = await newPage(browser)
  const failures = []
  page.on('console', (m) => { if (m.type() === 'error') failures.push(m.text()) })
  page.on('response', (r) => { if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`) })
  await page.goto(server.url)
  await page.getByTestId('login-email').waitFor()
  assert.deepEqual(failures, [])
  await page.close()
})
