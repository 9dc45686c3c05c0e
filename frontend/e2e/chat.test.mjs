// Two people chatting in two browsers against one real lanchatd.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, shot, signedInPages, signIn, startServer } from './harness.mjs'

let server, browser, alice, bob, bobApi

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  ;[alice, bob] = await signedInPages(browser, server.url, 'alice@example.com', 'bob@example.com')
  bobApi = await apiClient(server.url, 'bob@example.com')
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const stream = (page, name) => page.locator(`[data-testid=stream-row][data-stream="${name}"]`)
const messages = (page) => page.getByTestId('message')

async function openTopic(page, streamName, topic) {
  await stream(page, streamName).click()
  await page.locator(`[data-testid=topic-row][data-topic="${topic}"]`).click()
  await page.getByTestId('narrow-title').filter({ hasText: topic }).waitFor()
}

async function compose(page, topic, content) {
  await page.getByTestId('compose-topic').fill(topic)
  await page.getByTestId('compose-content').fill(content)
  await page.getByTestId('compose-send').click()
}

test('each sees the other\'s messages and typing live', async () => {
  await openTopic(alice, 'general', 'lunch')
  await openTopic(bob, 'general', 'lunch')
  await bob.getByTestId('compose-content').pressSequentially('Pizza or', { delay: 20 })
  await alice.getByTestId('typing-indicator').filter({ hasText: 'Bob Brown is typing' }).waitFor()
  await bob.getByTestId('compose-content').fill('Pizza or sushi today?')
  await bob.getByTestId('compose-send').click()
  await messages(alice).filter({ hasText: 'Pizza or sushi today?' }).waitFor()
  await alice.getByTestId('typing-indicator').waitFor({ state: 'detached' })
  await compose(alice, 'lunch', 'Sushi :sushi: for sure, @**Bob Brown**')
  const got = messages(bob).filter({ hasText: 'for sure' })
  await got.waitFor()
  assert.equal(await got.getAttribute('data-sender-email'), 'alice@example.com')
  assert.match(await got.getByTestId('message-content').innerHTML(), /user-mention/)
})

test('unread counts rise elsewhere and clear when read', async () => {
  await alice.locator('[data-testid=nav-starred]').click()
  const before = Number(await stream(alice, 'random').getByTestId('unread-count').textContent().catch(() => '0'))
  for (const n of [1, 2, 3]) await bobApi.send('random', 'release', `Release note ${n}`).catch(async () => {
    // bob is not subscribed to random in the demo organization
    await bobApi.call('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'random' }] })
    await bobApi.send('random', 'release', `Release note ${n}`)
  })
  await eventually(async () => assert.equal(await stream(alice, 'random').getByTestId('unread-count').textContent(), String(before + 3)))
  await eventually(async () => assert.match(await alice.title(), /^\(\d+\) .* - Lanchat Dev$/))
  const titled = Number(/^\((\d+)\)/.exec(await alice.title())[1])
  await openTopic(alice, 'random', 'release')
  await messages(alice).filter({ hasText: 'Release note 3' }).waitFor()
  await eventually(async () => assert.equal(await stream(alice, 'random').getByTestId('unread-count').count(), 0))
  await eventually(async () => {
    const now = /^\((\d+)\)/.exec(await alice.title())
    assert.ok(!now || Number(now[1]) <= titled - 3, `title ${await alice.title()}`)
  })
})

test('search finds a message and only matching ones', async () => {
  await bobApi.send('general', 'deploys', 'The flamingo deploy went fine')
  await alice.getByTestId('search-input').fill('flamingo')
  await alice.getByTestId('search-input').press('Enter')
  await messages(alice).filter({ hasText: 'flamingo' }).waitFor()
  assert.equal(await messages(alice).count(), 1)
  assert.match(await messages(alice).first().innerHTML(), /class="highlight"/)
  await shot(alice, 'search.png')
})

test('a reload keeps the session, the narrow and the read state', async () => {
  await openTopic(alice, 'general', 'lunch')
  const hash = new URL(alice.url()).hash
  const aliceApi = await apiClient(server.url, 'alice@example.com')
  const serverUnread = async () => (await aliceApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0,
    narrow: [{ operator: 'stream', operand: 'general' }, { operator: 'is', operand: 'unread' }] })).messages.length
  // Reads reach the server in batches: wait until it agrees with the page.
  const pageUnread = async () => Number(await stream(alice, 'general').getByTestId('unread-count').textContent({ timeout: 500 }).catch(() => '0'))
  await eventually(async () => assert.equal(await pageUnread(), await serverUnread()))
  const unreadBefore = await serverUnread()
  await alice.reload()
  await alice.getByTestId('stream-list').waitFor()
  assert.equal(new URL(alice.url()).hash, hash)
  await messages(alice).filter({ hasText: 'Pizza or sushi today?' }).waitFor()
  // The page may still report reads it had batched before the reload, so the
  // count can only fall; a message read before the reload never comes back unread.
  await eventually(async () => assert.equal(await pageUnread(), await serverUnread()))
  assert.ok(await serverUnread() <= unreadBefore, 'messages read before the reload stay read')
})

test('mark as unread stays marked, through a reload', async () => {
  for (const n of [1, 2, 3]) await bobApi.send('general', 'unread-again', `Unread again ${n}`)
  const unread = async () => Number(await alice.locator('[data-testid=topic-row][data-topic="unread-again"]').getByTestId('unread-count')
    .textContent({ timeout: 500 }).catch(() => '0'))
  await alice.bringToFront() // a page in the background marks nothing read
  await openTopic(alice, 'general', 'unread-again')
  await messages(alice).filter({ hasText: 'Unread again 3' }).waitFor()
  await eventually(async () => assert.equal(await unread(), 0))
  const first = messages(alice).filter({ hasText: 'Unread again 1' })
  await first.hover()
  await first.getByTestId('message-menu-button').click()
  await alice.getByTestId('menu-mark-unread').click()
  await eventually(async () => assert.equal(await unread(), 3))
  // The messages are still on screen: the next time the list is drawn (here
  // for a new message) they must not be marked read again, as the page did.
  await bobApi.send('general', 'unread-again', 'Unread again 4')
  await messages(alice).filter({ hasText: 'Unread again 4' }).waitFor()
  await new Promise((r) => setTimeout(r, 1500))
  assert.equal(await unread(), 4)
  await alice.locator('[data-testid=nav-starred]').click()
  await alice.reload()
  await alice.getByTestId('stream-list').waitFor()
  await stream(alice, 'general').click()
  await eventually(async () => assert.equal(await unread(), 4))
})

test('reactions, star, edit and delete of one\'s own message', async () => {
  await openTopic(alice, 'general', 'lunch')
  await compose(alice, 'lunch', 'A message to change')
  const mine = messages(alice).filter({ hasText: 'A message to change' })
  await mine.waitFor()
  await mine.hover()
  await mine.getByTestId('react-button').click()
  await alice.locator('[data-testid=emoji-option][data-emoji-name=tada]').click()
  await mine.locator('[data-testid=reaction][data-emoji-name=tada]').waitFor().catch(async (e) => { throw new Error(e.message + await mine.innerHTML()) })
  await messages(bob).filter({ hasText: 'A message to change' }).locator('[data-testid=reaction][data-emoji-name=tada]').waitFor()
  await mine.hover()
  await mine.getByTestId('star-button').click()
  await alice.getByTestId('nav-starred').click()
  await messages(alice).filter({ hasText: 'A message to change' }).waitFor()
  await openTopic(alice, 'general', 'lunch')
  const again = messages(alice).filter({ hasText: 'A message to change' })
  await again.hover()
  await again.getByTestId('edit-button').click()
  await alice.getByTestId('edit-content').fill('A message, changed')
  await alice.getByTestId('edit-save').click()
  const edited = messages(bob).filter({ hasText: 'A message, changed' })
  await edited.waitFor()
  // Deleting is for administrators, as in Zulip's default policy.
  assert.equal(await messages(alice).filter({ hasText: 'A message, changed' }).getByTestId('delete-button').count(), 0)
  const admin = await newPage(browser)
  await signIn(admin, server.url, 'admin@example.com')
  await admin.goto(`${server.url}/${await stream(alice, 'general').getAttribute('href')}/topic/lunch`)
  await admin.getByTestId('narrow-title').filter({ hasText: 'lunch' }).waitFor()
  await compose(admin, 'lunch', 'An announcement to retract')
  const retract = messages(admin).filter({ hasText: 'An announcement to retract' })
  await messages(bob).filter({ hasText: 'An announcement to retract' }).waitFor()
  await retract.hover()
  await retract.getByTestId('delete-button').click()
  await admin.getByTestId('confirm-delete').click()
  await messages(bob).filter({ hasText: 'An announcement to retract' }).waitFor({ state: 'detached' })
  await admin.context().close()
})

test('compose previews markdown and completes mentions', async () => {
  await openTopic(alice, 'general', 'lunch')
  const box = alice.getByTestId('compose-content')
  await box.fill('')
  await box.pressSequentially('Thanks @bo')
  await alice.getByTestId('autocomplete-item').filter({ hasText: 'Bob Brown' }).click()
  assert.equal(await box.inputValue(), 'Thanks @**Bob Brown** ')
  await box.fill('**Plan**\n- pizza :pizza:\n- `make test`\n\n```go\nfmt.Println("hi")\n```')
  await alice.getByTestId('compose-preview-toggle').click()
  const preview = alice.getByTestId('compose-preview')
  await preview.locator('strong').filter({ hasText: 'Plan' }).waitFor()
  assert.match(await preview.innerHTML(), /<li>/)
  assert.match(await preview.innerHTML(), /🍕/)
  await shot(alice, 'compose-preview.png')
  await alice.getByTestId('compose-preview-toggle').click()
  await box.fill('')
})

test('presence lists who is here; themes switch', async () => {
  await eventually(async () => assert.equal(await alice.locator('[data-testid=buddy-row][data-email="bob@example.com"]').getAttribute('data-presence'), 'active'))
  await shot(alice, 'chat-light.png')
  await alice.getByTestId('settings-button').click()
  await alice.getByTestId('theme-toggle').click()
  // The theme is applied by an effect, after the next render.
  await eventually(async () => assert.equal(await alice.evaluate(() => document.documentElement.dataset.theme), 'dark'))
  await alice.keyboard.press('Escape')
  await alice.getByTestId('settings').waitFor({ state: 'detached' })
  await shot(alice, 'chat-dark.png')
  await alice.getByTestId('settings-button').click()
  await alice.getByTestId('theme-toggle').click()
  await alice.keyboard.press('Escape')
})

test('a draft stays with its conversation, survives a reload and is listed in drafts', async () => {
  const content = alice.getByTestId('compose-content')
  await openTopic(alice, 'general', 'welcome')
  await content.fill('Deploy notes, not for lunch')
  await openTopic(alice, 'general', 'lunch')
  assert.equal(await content.inputValue(), '')
  await content.press('Enter') // nothing to send here: the words stayed with welcome
  await openTopic(alice, 'general', 'welcome')
  assert.equal(await content.inputValue(), 'Deploy notes, not for lunch')
  await alice.reload()
  await alice.getByTestId('narrow-title').filter({ hasText: 'welcome' }).waitFor()
  await eventually(async () => assert.equal(await content.inputValue(), 'Deploy notes, not for lunch'))

  await openTopic(alice, 'general', 'lunch')
  await alice.getByTestId('nav-drafts').click()
  const row = alice.getByTestId('draft-row').filter({ hasText: 'Deploy notes, not for lunch' })
  assert.match(await row.textContent(), /#general › welcome/)
  await shot(alice, 'drafts.png')
  await row.getByTestId('draft-restore').click()
  await alice.getByTestId('narrow-title').filter({ hasText: 'welcome' }).waitFor()
  assert.equal(await content.inputValue(), 'Deploy notes, not for lunch')
  await alice.getByTestId('compose-send').click()
  await eventually(async () => assert.equal(await content.inputValue(), ''))
  await alice.getByTestId('nav-drafts').click()
  await alice.getByTestId('drafts').waitFor()
  assert.equal(await alice.getByTestId('draft-row').filter({ hasText: 'Deploy notes' }).count(), 0)
  await alice.keyboard.press('Escape')
  await alice.getByTestId('drafts').waitFor({ state: 'detached' })

  const aliceApi = await apiClient(server.url, 'alice@example.com')
  const sent = (await aliceApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 20, num_after: 0,
    narrow: [{ operator: 'search', operand: 'Deploy notes' }] })).messages
  assert.deepEqual(sent.map((m) => m.subject), ['welcome'])
})

test('several files attached at once each leave their link', async () => {
  await openTopic(alice, 'general', 'lunch')
  const content = alice.getByTestId('compose-content')
  await alice.getByTestId('compose-upload').setInputFiles([
    { name: 'menu.txt', mimeType: 'text/plain', buffer: Buffer.from('soup') },
    { name: 'prices.txt', mimeType: 'text/plain', buffer: Buffer.from('cheap') },
  ])
  await eventually(async () => {
    const text = await content.inputValue()
    assert.match(text, /\[menu\.txt\]\(\/user_uploads\//)
    assert.match(text, /\[prices\.txt\]\(\/user_uploads\//)
  })
  await content.fill('')
})

test('a wrong password is refused and signing out returns to the form', async () => {
  const page = await newPage(browser)
  await page.goto(server.url)
  await page.getByTestId('login-email').fill('alice@example.com')
  await eventually(async () => assert.equal(await page.title(), 'Sign in · Lanchat Dev'))
  await page.getByTestId('login-password').fill('wrong password')
  await page.getByTestId('login-submit').click()
  await page.getByTestId('login-error').waitFor()
  await shot(page, 'signin.png')
  await page.getByTestId('login-password').fill('lanchat-dev')
  await page.getByTestId('login-submit').click()
  await page.getByTestId('stream-list').waitFor()
  await eventually(async () => assert.match(await page.title(), /^(\(\d+\) )?Inbox - Lanchat Dev$/))
  await page.getByTestId('logout').click()
  await eventually(async () => assert.equal(await page.title(), 'Sign in · Lanchat Dev'))
  await page.reload()
  await page.getByTestId('login-email').waitFor()
  await page.context().close()
})

test('live events come over the WebSocket, which the page\'s CSP admits', async () => {
  const page = await newPage(browser)
  const frames = []
  const refused = []
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) refused.push(m.text()) })
  page.on('websocket', (ws) => {
    if (ws.url().includes('/api/v1/events/socket')) ws.on('framereceived', (f) => frames.push(String(f.payload)))
  })
  await signIn(page, server.url, 'alice@example.com')
  await bobApi.send('general', 'socket', 'sent while alice listens on the socket')
  await eventually(() => assert.ok(frames.some((f) => f.includes('sent while alice listens')), 'the message came over the WebSocket'))
  assert.deepEqual(refused, [])
  await page.context().close()
})
