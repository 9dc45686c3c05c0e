// Zulip's daily flows beyond reading and writing: Inbox as the home view,
// resolving, following and marking topics read, unread counts that survive
// a reload, scheduled messages, user status and read receipts, each used in
// Chromium against a real lanchatd.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, openTopicAt, shot, signIn, startServer } from './harness.mjs'

let server, browser, alice, bob, aliceApi, bobApi, adminApi, general

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  alice = await newPage(browser)
  await signIn(alice, server.url, 'alice@example.com')
  // The notifications offer would sit over the screenshots.
  await alice.getByTestId('dismiss-notifications').click()
  bob = await newPage(browser)
  await signIn(bob, server.url, 'bob@example.com')
  aliceApi = await apiClient(server.url, 'alice@example.com')
  bobApi = await apiClient(server.url, 'bob@example.com')
  adminApi = await apiClient(server.url, 'admin@example.com')
  general = (await aliceApi.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

const go = async (page, hash) => { await page.evaluate((h) => { location.hash = h }, hash) }
const messages = (page) => page.getByTestId('message')
const inboxTopic = (page, topic) => page.locator(`[data-testid=inbox-row][data-topic="${topic}"]`)
const countOf = async (row) => Number(await row.getByTestId('inbox-count').textContent({ timeout: 500 }).catch(() => '0'))

test('Inbox is the home view: unread conversations by stream and direct messages, with counts, collapsible, opening on click', async () => {
  await bobApi.send('general', 'lunch plans', 'Pizza at noon?')
  await bobApi.send('general', 'lunch plans', 'Or sushi')
  await bobApi.send('general', 'release', 'Release notes are up')
  await bobApi.call('POST', '/api/v1/messages', { type: 'private', to: 'alice@example.com', content: 'Got a minute?' })
  await alice.reload()
  await alice.getByTestId('inbox-view').waitFor()
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'lunch plans')), 2))
  assert.equal(await countOf(inboxTopic(alice, 'release')), 1)
  const dms = alice.getByTestId('inbox-dms')
  assert.match(await dms.textContent(), /Bob Brown/)
  const stream = alice.locator('[data-testid=inbox-stream][data-stream=general]')
  assert.ok(await countOf(stream.getByTestId('inbox-stream-head')) >= 3)
  await shot(alice, 'inbox.png')
  // Collapsing a stream hides its topics, and stays so through a reload.
  await stream.getByTestId('inbox-stream-head').click()
  await inboxTopic(alice, 'lunch plans').waitFor({ state: 'detached' })
  await alice.reload()
  await alice.getByTestId('inbox-view').waitFor()
  await alice.locator('[data-testid=inbox-stream][data-stream=general]').waitFor()
  assert.equal(await inboxTopic(alice, 'lunch plans').count(), 0)
  await alice.locator('[data-testid=inbox-stream][data-stream=general] [data-testid=inbox-stream-head]').click()
  await inboxTopic(alice, 'lunch plans').click()
  await alice.getByTestId('narrow-title').filter({ hasText: 'lunch plans' }).waitFor()
  await messages(alice).filter({ hasText: 'Or sushi' }).waitFor()
  // Read there: gone from the Inbox.
  await go(alice, '#inbox')
  await alice.getByTestId('inbox-view').waitFor()
  await eventually(async () => assert.equal(await inboxTopic(alice, 'lunch plans').count(), 0))
  // Marking a topic read from its row.
  await inboxTopic(alice, 'release').hover()
  await inboxTopic(alice, 'release').getByTestId('inbox-mark-read').click()
  await eventually(async () => assert.equal(await inboxTopic(alice, 'release').count(), 0))
})

test('on Inbox, as in Zulip, j and k walk the conversations and Enter opens one; the message keys wait for a message list', async () => {
  await bobApi.send('general', 'walk here', 'The topic to reach by keys')
  await openTopicAt(alice, general, 'general', 'lunch plans')
  await alice.locator('[data-testid=message][data-selected=true]').waitFor()
  await go(alice, '#inbox')
  await inboxTopic(alice, 'walk here').waitFor()
  // r has no message to reply to here (not the one left selected in the topic).
  await alice.keyboard.press('r')
  await alice.waitForTimeout(300)
  assert.notEqual(await alice.evaluate(() => document.activeElement?.dataset.testid), 'compose-content')
  const rows = await alice.locator('.inbox-head, .inbox-row').evaluateAll((els) => els.map((el) => el.dataset.topic ?? el.dataset.testid))
  const target = rows.indexOf('walk here')
  assert.ok(target >= 0, `rows: ${rows}`)
  for (let i = 0; i <= target + 1; i++) await alice.keyboard.press('j')
  await alice.keyboard.press('k')
  assert.equal(await alice.evaluate(() => document.activeElement?.dataset.topic), 'walk here')
  await alice.keyboard.press('Enter')
  await alice.getByTestId('narrow-title').filter({ hasText: 'walk here' }).waitFor()
})

test('a message marked unread stays unread, and the counts stay changed, after a reload', async () => {
  for (const n of [1, 2, 3]) await bobApi.send('general', 'counts', `Count me ${n}`)
  await alice.bringToFront()
  // As a person would: the three are counted in the Inbox, then opened.
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'counts')), 3))
  await openTopicAt(alice, general, 'general', 'counts')
  await messages(alice).filter({ hasText: 'Count me 3' }).waitFor()
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await inboxTopic(alice, 'counts').count(), 0))
  await openTopicAt(alice, general, 'general', 'counts')
  const second = messages(alice).filter({ hasText: 'Count me 2' })
  await second.hover()
  await second.getByTestId('message-menu-button').click()
  await alice.getByTestId('menu-mark-unread').click()
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'counts')), 2))
  const total = async () => Number(await alice.getByTestId('nav-inbox').getByTestId('unread-count').textContent({ timeout: 500 }).catch(() => '0'))
  const before = await total()
  await alice.reload()
  await alice.getByTestId('inbox-view').waitFor()
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'counts')), 2))
  assert.equal(await total(), before)
})

test('what was drawn on screen is read, even when the reader leaves the topic before the next frame', async () => {
  for (const n of [1, 2]) await bobApi.send('general', 'glance', `Glance ${n}`)
  await alice.bringToFront()
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'glance')), 2))
  await alice.evaluate(async (hash) => {
    await new Promise((resolve) => {
      const drawn = new MutationObserver(() => {
        if ([...document.querySelectorAll('[data-testid=message]')].some((m) => m.textContent.includes('Glance 2'))) { drawn.disconnect(); resolve() }
      })
      drawn.observe(document.body, { childList: true, subtree: true, characterData: true })
      location.hash = hash
    })
    location.hash = '#inbox'
  }, `#narrow/channel/${general}-general/topic/glance`)
  await eventually(async () => assert.equal(await inboxTopic(alice, 'glance').count(), 0))
})

test('a message taller than the screen is read once it fills the view', async () => {
  await bobApi.send('general', 'long read', Array.from({ length: 150 }, (_, i) => `Line ${i + 1} of the minutes`).join('\n'))
  await alice.bringToFront()
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await countOf(inboxTopic(alice, 'long read')), 1))
  await openTopicAt(alice, general, 'general', 'long read')
  await messages(alice).filter({ hasText: 'Line 150 of the minutes' }).waitFor()
  await eventually(async () => assert.equal(await messages(alice).filter({ hasText: 'Line 150' }).evaluate((m) => m.classList.contains('unread')), false))
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await inboxTopic(alice, 'long read').count(), 0))
})

test('resolving a topic renames it with ✔ and says who did; unresolving takes it back; following and marking read', async () => {
  await bobApi.send('general', 'printer jam', 'The printer on 2 is jammed again')
  await aliceApi.send('general', 'printer jam', 'I will call the technician')
  await openTopicAt(alice, general, 'general', 'printer jam')
  await messages(alice).filter({ hasText: 'technician' }).waitFor()
  await alice.getByTestId('resolve-topic').click()
  await alice.getByTestId('narrow-title').filter({ hasText: '✔ printer jam' }).waitFor()
  await messages(alice).filter({ hasText: 'has marked this topic as resolved' }).waitFor()
  assert.equal(await messages(alice).count(), 3)
  assert.equal(await alice.getByTestId('resolve-topic').textContent(), 'Mark as unresolved')
  await shot(alice, 'resolved-topic.png')
  // Bob, who sent only one of its messages, sees it resolved in his sidebar.
  await bob.locator('[data-testid=stream-row][data-stream=general]').click()
  await bob.locator('[data-testid=topic-row][data-topic="✔ printer jam"]').waitFor()
  await alice.getByTestId('resolve-topic').click()
  await alice.getByTestId('narrow-title').filter({ hasText: /^#general › printer jam/ }).waitFor()
  await messages(alice).filter({ hasText: 'has marked this topic as unresolved' }).waitFor()
  // Follow, and it stays followed after a reload (the server keeps it).
  await alice.getByTestId('follow-topic').click()
  await eventually(async () => assert.equal(await alice.getByTestId('follow-topic').textContent(), 'Unfollow topic'))
  await alice.reload()
  await eventually(async () => assert.equal(await alice.getByTestId('follow-topic').textContent(), 'Unfollow topic'))
  const topics = await aliceApi.call('POST', '/api/v1/register', { fetch_event_types: ['user_topic'] })
  assert.ok(topics.user_topics.some((t) => t.topic_name === 'printer jam' && t.visibility_policy === 3))
  await alice.getByTestId('follow-topic').click()
  await eventually(async () => assert.equal(await alice.getByTestId('follow-topic').textContent(), 'Follow topic'))
  // Mark a whole stream read from its title.
  await bobApi.send('general', 'one', 'unread one')
  await bobApi.send('general', 'two', 'unread two')
  await go(alice, `#narrow/channel/${general}-general`)
  await alice.getByTestId('mark-stream-read').click()
  await go(alice, '#inbox')
  await eventually(async () => assert.equal(await alice.locator('[data-testid=inbox-stream][data-stream=general]').count(), 0))
})

test('↑ in an empty compose box edits my last message', async () => {
  await aliceApi.send('general', 'edit me', 'Wrogn spelling')
  await openTopicAt(alice, general, 'general', 'edit me')
  await messages(alice).filter({ hasText: 'Wrogn' }).waitFor()
  await alice.getByTestId('compose-content').click()
  await alice.keyboard.press('ArrowUp')
  const edit = alice.getByTestId('edit-content')
  await edit.waitFor()
  await edit.fill('Right spelling')
  await alice.getByTestId('edit-save').click()
  await messages(alice).filter({ hasText: 'Right spelling' }).waitFor()
})

test('a message scheduled from compose is listed, sent at its time, and another one cancelled', async () => {
  await openTopicAt(alice, general, 'general', 'later')
  const local = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19)
  const schedule = async (text, at) => {
    await alice.getByTestId('compose-content').fill(text)
    await alice.getByTestId('compose-schedule').click()
    await alice.getByTestId('schedule-time').fill(local(at))
    await alice.getByTestId('schedule-confirm').click()
    await alice.getByTestId('schedule-popover').waitFor({ state: 'detached' })
  }
  await schedule('Reminder: tomorrow is a holiday', new Date(Date.now() + 86400000))
  await schedule('Soon, from the past', new Date(Date.now() + 4000))
  assert.equal(await alice.getByTestId('compose-content').inputValue(), '')
  await alice.getByTestId('nav-scheduled').click()
  const rows = alice.getByTestId('scheduled-row')
  await eventually(async () => assert.equal(await rows.count(), 2))
  assert.match(await rows.first().textContent(), /Soon, from the past/)
  await rows.filter({ hasText: 'holiday' }).getByTestId('scheduled-cancel').click()
  await eventually(async () => assert.equal(await rows.count(), 1))
  await alice.keyboard.press('Escape')
  await messages(alice).filter({ hasText: 'Soon, from the past' }).waitFor({ timeout: 15000 })
  await alice.getByTestId('nav-scheduled').waitFor({ state: 'detached' })
  const sent = await aliceApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [['stream', 'general'], ['topic', 'later']] })
  assert.deepEqual(sent.messages.map((m) => m.content), ['<p>Soon, from the past</p>'])
})

test('a status set by the user shows in the people list and the user card of others', async () => {
  await alice.getByTestId('my-status').click()
  await alice.getByTestId('status-suggestion').filter({ hasText: 'In a meeting' }).click()
  await alice.getByTestId('status-away').check()
  await alice.getByTestId('status-save').click()
  await alice.getByTestId('status-editor').waitFor({ state: 'detached' })
  const row = bob.locator('[data-testid=buddy-row][data-email="alice@example.com"]')
  await eventually(async () => assert.match(await row.getByTestId('user-status').textContent(), /📆In a meetingaway|In a meeting/))
  assert.equal(await row.getByTestId('status-emoji').textContent(), '📆')
  await row.getByTestId('buddy-profile').click()
  const card = bob.getByTestId('user-card')
  await card.waitFor()
  assert.match(await card.getByTestId('user-status').textContent(), /In a meeting.*away/)
  await bob.keyboard.press('Escape')
  await alice.getByTestId('my-status').click()
  await alice.getByTestId('status-clear').click()
  await eventually(async () => assert.equal(await row.getByTestId('user-status').count(), 0))
})

test('read receipts show who has read a message, where the organization enables them', async () => {
  const { id } = await aliceApi.send('general', 'receipts', 'Did everyone see the memo?')
  await openTopicAt(alice, general, 'general', 'receipts')
  const m = messages(alice).filter({ hasText: 'memo' })
  await m.hover()
  await m.getByTestId('message-menu-button').click()
  await alice.getByTestId('message-menu').waitFor()
  assert.equal(await alice.getByTestId('menu-read-receipts').count(), 0, 'offered while the organization has them off')
  await m.getByTestId('message-menu-button').click()
  await alice.getByTestId('message-menu').waitFor({ state: 'detached' })
  await adminApi.call('PATCH', '/api/v1/realm', { enable_read_receipts: true })
  await bobApi.call('POST', '/api/v1/messages/flags', { messages: [id], op: 'add', flag: 'read' })
  await m.hover()
  await m.getByTestId('message-menu-button').click()
  await alice.getByTestId('menu-read-receipts').click()
  const dialog = alice.getByTestId('read-receipts')
  await dialog.getByTestId('read-receipt').filter({ hasText: 'Bob Brown' }).waitFor()
  assert.equal(await dialog.getByTestId('read-receipt').count(), 1)
})

test('Recent conversations shows the time and who wrote for a conversation older than the page loads', async () => {
  await bobApi.send('random', 'old news', 'This was said long ago')
  // Four hundred newer messages (what the page loads at first) elsewhere.
  for (let i = 0; i < 400; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => adminApi.call('POST', '/api/v1/messages',
      { type: 'stream', to: 'random', topic: 'chatter', content: `chatter ${i + j}`, read_by_sender: true })))
  }
  await alice.reload()
  await alice.getByTestId('nav-recent').click()
  const row = alice.getByTestId('recent-row').filter({ hasText: 'old news' })
  await row.waitFor()
  await eventually(async () => assert.match(await row.locator('.who').textContent(), /Bob Brown/))
  assert.notEqual((await row.locator('time').textContent()).trim(), '')
})
