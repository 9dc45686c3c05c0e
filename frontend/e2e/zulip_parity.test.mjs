// Where the web UI behaved unlike Zulip's (issue 40, "Broken"): following a
// moved topic, the edit notice on grouped messages, mentions of me, the
// emoji picker on the last message, the image lightbox, confirming a
// deactivation, and an administrator's settings of a stream they are not in;
// and the recipient bar that stays on top while its conversation scrolls.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, newPage, openTopicAt, sendImage, seriousViolations, signIn, startSession } from './harness.mjs'

let session, server, browser, alice, bob, aliceApi, bobApi, adminApi, general

before(async () => {
  session = await startSession(['alice@example.com', 'bob@example.com'])
  ;({ server, browser, pages: [alice, bob] } = session)
  ;[aliceApi, bobApi, adminApi] = await Promise.all(['alice', 'bob', 'admin'].map((who) => apiClient(server.url, `${who}@example.com`)))
  general = (await aliceApi.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
})

after(() => session?.stop())

const messages = (page) => page.getByTestId('message')
const topicRow = (page, topic) => page.locator(`[data-testid=topic-row][data-topic="${topic}"]`)
const openTopic = (page, topic) => openTopicAt(page, general, 'general', topic)

test('moving a topic takes the mover to its new place, and the old topic leaves every sidebar', async () => {
  await aliceApi.send('general', 'move me', 'First words on the way')
  await aliceApi.send('general', 'move me', 'Second words on the way')
  await openTopic(bob, 'move me')
  await messages(bob).filter({ hasText: 'Second words' }).waitFor()
  await openTopic(alice, 'move me')
  const first = messages(alice).filter({ hasText: 'First words' })
  await first.hover()
  await first.getByTestId('message-menu-button').click()
  await alice.getByTestId('menu-move').click()
  await alice.getByTestId('move-topic-name').fill('moved here')
  await alice.getByTestId('move-save').click()
  await alice.getByTestId('narrow-title').filter({ hasText: 'moved here' }).waitFor()
  assert.match(new URL(alice.url()).hash, /\/topic\/moved\.20here$/)
  await messages(alice).filter({ hasText: 'Second words' }).waitFor()
  await topicRow(alice, 'moved here').waitFor()
  assert.equal(await topicRow(alice, 'move me').count(), 0)
  // Bob was reading the topic too: he follows it, and neither sidebar lists the old name.
  await bob.getByTestId('narrow-title').filter({ hasText: 'moved here' }).waitFor()
  await topicRow(bob, 'moved here').waitFor()
  await eventually(async () => assert.equal(await topicRow(bob, 'move me').count(), 0))
})

test('every edited message says so, not only the first of a sender\'s group', async () => {
  await aliceApi.send('general', 'edits', 'An untouched first line')
  const { id } = await aliceApi.send('general', 'edits', 'A second line, to be fixed')
  await aliceApi.call('PATCH', `/api/v1/messages/${id}`, { content: 'A second line, fixed' })
  await openTopic(bob, 'edits')
  const fixed = messages(bob).filter({ hasText: 'A second line, fixed' })
  await fixed.waitFor()
  assert.match(await fixed.getAttribute('class'), /continued/, 'grouped under the first line')
  await fixed.getByTestId('message-edited').waitFor()
  assert.equal(await messages(bob).filter({ hasText: 'An untouched first line' }).getByTestId('message-edited').count(), 0)
})

test('mentions of me are highlighted: by name, by wildcard and through my groups', async () => {
  const ops = (await adminApi.call('POST', '/api/v1/user_groups/create', { name: 'ops', description: 'Not Alice', members: [] })).group_id
  assert.ok(ops)
  const cases = [
    ['Hey @**Alice Anders**, a question', 1, true],
    ['Heads up @**all**', 1, true],
    ['Heads up @**topic**', 1, true],
    ['Paging @*engineering*', 1, true],
    ['Paging @*ops*', 0, false],
    ['Thanks @**Bob Brown**', 0, false],
  ]
  for (const [content] of cases) await bobApi.send('general', 'mentions', content)
  await openTopic(alice, 'mentions')
  for (const [content, pills, mentioned] of cases) {
    const m = messages(alice).filter({ hasText: content.replace(/\*/g, '') })
    await m.waitFor()
    assert.equal(await m.locator('.user-mention-me').count(), pills, content)
    assert.equal(/\bmentioned\b/.test(await m.getAttribute('class')), mentioned, content)
  }
  // To Bob, a mention of Alice is someone else's: plain.
  await openTopic(bob, 'mentions')
  await messages(bob).filter({ hasText: 'Hey @Alice Anders' }).waitFor()
  assert.equal(await messages(bob).filter({ hasText: 'Hey @Alice Anders' }).locator('.user-mention-me').count(), 0)
})

test('the emoji picker on the last message opens where it can be seen', async () => {
  for (let n = 1; n <= 12; n++) await bobApi.send('general', 'many', `Line ${n} of a long conversation`)
  await openTopic(alice, 'many')
  const last = messages(alice).filter({ hasText: 'Line 12 of' })
  await last.waitFor()
  await last.hover()
  await last.getByTestId('react-button').click()
  const picker = await alice.getByTestId('emoji-picker').boundingBox()
  const list = await alice.locator('.message-scroller').boundingBox()
  assert.ok(picker.y >= list.y && picker.y + picker.height <= list.y + list.height,
    `picker ${picker.y}–${picker.y + picker.height} inside the list ${list.y}–${list.y + list.height}`)
  await alice.keyboard.press('Escape')
})

test('clicking an image opens the lightbox, with the original a click away', async () => {
  await openTopic(alice, 'photos')
  const preview = await sendImage(alice, 'team.png')
  assert.equal(await preview.getAttribute('alt'), 'team.png')
  assert.deepEqual(await seriousViolations(alice), [], 'axe-core: image-alt and the rest')
  const hash = new URL(alice.url()).hash
  await preview.click()
  const box = alice.getByTestId('lightbox')
  await box.waitFor()
  const original = await preview.locator('xpath=..').getAttribute('href')
  assert.equal(await box.getByTestId('lightbox-original').getAttribute('href'), original)
  assert.equal(await box.getByTestId('lightbox-image').getAttribute('src'), original)
  assert.equal(new URL(alice.url()).hash, hash, 'the page stays')
  assert.deepEqual(await seriousViolations(alice), [], 'axe-core, the lightbox open')
  await alice.keyboard.press('Escape')
  await box.waitFor({ state: 'detached' })
  await preview.click()
  await box.waitFor()
  await alice.mouse.click(5, 5) // beside the image
  await box.waitFor({ state: 'detached' })
})

test('deactivating someone asks first, naming them', async () => {
  await adminApi.call('POST', '/api/v1/users', { full_name: 'Dana Doe', email: 'dana@example.com', password: 'dana-pass-1' })
  const admin = await newPage(browser)
  await signIn(admin, server.url, 'admin@example.com')
  await admin.getByTestId('settings-button').click()
  await admin.getByTestId('settings-tab-users').click()
  const dana = admin.locator('[data-testid=admin-user][data-email="dana@example.com"]')
  await dana.getByTestId('admin-user-deactivate').click()
  const dialog = admin.getByTestId('deactivate-confirm')
  await dialog.waitFor()
  assert.match(await dialog.textContent(), /Deactivate Dana Doe\?/)
  const active = async () => (await adminApi.call('GET', '/api/v1/users', { include_inactive: true }))
    .members.find((u) => u.email === 'dana@example.com').is_active
  assert.equal(await active(), true, 'nothing happens before the answer')
  await dialog.locator('p').click() // the focus leaves the dialog's buttons
  await admin.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  await admin.getByTestId('settings').waitFor() // Esc closed the question, not the settings
  assert.equal(await active(), true)
  await dana.getByTestId('admin-user-deactivate').click()
  await admin.getByTestId('deactivate-confirm-button').click()
  await eventually(async () => assert.equal(await dana.getAttribute('data-active'), 'false'))
  assert.equal(await active(), false)
  await admin.context().close()
})

test('an administrator opens and edits the settings of a stream they are not subscribed to', async () => {
  await bobApi.call('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'bobs corner', description: 'Bob only' }] })
  const admin = await newPage(browser)
  await signIn(admin, server.url, 'admin@example.com')
  await admin.getByTestId('browse-streams').click()
  const row = admin.locator('[data-testid=browse-stream][data-stream="bobs corner"]')
  assert.equal(await row.getAttribute('data-subscribed'), 'false')
  await row.getByTestId('browse-settings').click()
  const settings = admin.getByTestId('stream-settings')
  await settings.waitFor()
  await settings.getByTestId('stream-not-subscribed').waitFor()
  await settings.getByTestId('stream-description').fill('Bob and friends')
  await settings.getByTestId('stream-save').click()
  await settings.getByTestId('stream-settings-status').filter({ hasText: 'Saved.' }).waitFor()
  const { streams } = await adminApi.call('GET', '/api/v1/streams')
  assert.equal(streams.find((s) => s.name === 'bobs corner').description, 'Bob and friends')
  await settings.getByText('Bob and friends').waitFor()
  // A member sees no settings button for a stream they are not in.
  await bob.getByTestId('browse-streams').click()
  const bobsView = bob.locator('[data-testid=browse-stream][data-stream="random"]')
  await bobsView.waitFor()
  assert.equal(await bobsView.getByTestId('browse-settings').count(), 0)
  await bob.keyboard.press('Escape')
  await admin.context().close()
})

test('a message one sends shows in the list, even when the topic opened at an unread message above', async () => {
  for (let n = 1; n <= 15; n++) await bobApi.send('general', 'catching up', `Update ${n} of the morning`)
  await openTopic(alice, 'catching up')
  await messages(alice).filter({ hasText: 'Update 15 of' }).waitFor()
  const box = alice.getByTestId('compose-content')
  await box.fill('Read them all, thanks')
  await box.press('Enter')
  const mine = messages(alice).filter({ hasText: 'Read them all, thanks' })
  await mine.waitFor()
  await eventually(async () => {
    const shown = await mine.boundingBox()
    const list = await alice.locator('.message-scroller').boundingBox()
    assert.ok(shown.y >= list.y && shown.y + shown.height <= list.y + list.height + 1,
      `sent message ${shown.y}–${shown.y + shown.height} inside the list ${list.y}–${list.y + list.height}`)
  }, 3000)
})

test('the search field is emptied when one leaves the search, and shows the query on coming back', async () => {
  const field = alice.getByTestId('search-input')
  await field.fill('lunch')
  await field.press('Enter')
  await alice.getByTestId('narrow-title').filter({ hasText: 'Search: lunch' }).waitFor()
  await alice.getByTestId('stream-row').filter({ hasText: 'random' }).click()
  await alice.getByTestId('narrow-title').filter({ hasText: '#random' }).waitFor()
  assert.equal(await field.inputValue(), '', 'no stale query over #random')
  await alice.goBack()
  await alice.getByTestId('narrow-title').filter({ hasText: 'Search: lunch' }).waitFor()
  assert.equal(await field.inputValue(), 'lunch')
})

test('the bar naming the conversation being read stays at the top of the list while its messages scroll', async () => {
  for (let n = 1; n <= 30; n++) await bobApi.send('general', 'long read', `Paragraph ${n} of the long read`)
  await openTopic(alice, 'long read')
  await messages(alice).filter({ hasText: 'Paragraph 30 of' }).waitFor()
  const scroller = alice.locator('.message-scroller')
  await scroller.evaluate((el) => { el.scrollTop = el.scrollHeight / 2 })
  await eventually(async () => {
    const { top, first, bar } = await scroller.evaluate((el) => {
      const top = el.getBoundingClientRect().top
      const first = [...el.querySelectorAll('[data-testid=message]')].find((m) => m.textContent.includes('Paragraph 1 of'))
      const hit = document.elementFromPoint(el.getBoundingClientRect().left + 60, top + 8)
      return { top, first: first.getBoundingClientRect().bottom, bar: hit?.closest('[data-testid=recipient-header]')?.textContent ?? hit?.outerHTML.slice(0, 80) }
    })
    assert.ok(first < top, `the topic's first message (bottom ${first}) is scrolled above the list (top ${top})`)
    assert.match(bar, /general›long read/)
  })
})

// selectMessage selects a message by clicking its text, as one does before a key.
const selectMessage = async (page, text) => {
  const m = messages(page).filter({ hasText: text })
  await m.getByTestId('message-content').click()
  await eventually(async () => assert.equal(await m.getAttribute('data-selected'), 'true'))
  return m
}

test('Zulip\'s keys on the selected message: u shows the sender\'s card, i its menu, e edits one\'s own', async () => {
  await bobApi.send('general', 'keys', 'Bob asks a question')
  await bobApi.send('general', 'keys', 'and adds a second line')
  await aliceApi.send('general', 'keys', 'Alice answers with a typo')
  await openTopic(alice, 'keys')
  // u: the card of the second line's sender, who has no name on that line.
  await selectMessage(alice, 'and adds a second line')
  await alice.keyboard.press('u')
  await alice.getByTestId('user-card-name').filter({ hasText: 'Bob Brown' }).waitFor()
  await alice.keyboard.press('Escape')
  await alice.getByTestId('user-card').waitFor({ state: 'detached' })
  // i: the menu, worked from the keyboard; Esc closes it and leaves one in the topic.
  await alice.keyboard.press('i')
  const menu = alice.getByTestId('message-menu')
  await menu.waitFor()
  assert.equal(await alice.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'menu-quote')
  await alice.keyboard.press('ArrowDown')
  assert.equal(await alice.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'menu-copy-link')
  await alice.keyboard.press('Escape')
  await menu.waitFor({ state: 'detached' })
  assert.match(await alice.evaluate(() => location.hash), /\/topic\/keys$/)
  // e: one's own message opens for editing, the cursor in it.
  await selectMessage(alice, 'Alice answers with a typo')
  await alice.keyboard.press('e')
  const box = alice.getByTestId('edit-content')
  await box.waitFor()
  assert.equal(await alice.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'edit-content')
  await alice.keyboard.press('Control+a')
  await alice.keyboard.type('Alice answers, fixed')
  await alice.keyboard.press('Enter')
  await messages(alice).filter({ hasText: 'Alice answers, fixed' }).getByTestId('message-edited').waitFor()
})

test('Esc, with nothing open to close, goes back to the home view', async () => {
  await openTopic(alice, 'keys')
  await selectMessage(alice, 'Bob asks a question')
  // First Esc leaves the compose box, the next one the topic.
  await alice.getByTestId('compose-content').focus()
  await alice.keyboard.press('Escape')
  assert.match(await alice.evaluate(() => location.hash), /\/topic\/keys$/)
  await alice.keyboard.press('Escape')
  await alice.getByTestId('inbox-view').waitFor()
})

test('a direct message conversation is titled with the names of the people in it', async () => {
  await bobApi.call('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(['alice@example.com', 'admin@example.com']), content: 'A word to you both' })
  await alice.evaluate(() => { location.hash = '#narrow/dm/admin@example.com,bob@example.com' })
  await messages(alice).filter({ hasText: 'A word to you both' }).waitFor()
  assert.equal(await alice.getByTestId('narrow-title').textContent(), 'Direct messages with Ada Admin, Bob Brown')
})

test('the tab is titled with the view on screen, as Zulip\'s is', async () => {
  await openTopic(alice, 'caret')
  await eventually(async () => assert.match(await alice.title(), /^(\(\d+\) )?#general › caret - Lanchat Dev$/))
  await alice.evaluate(() => { location.hash = '#inbox' })
  await eventually(async () => assert.match(await alice.title(), /^(\(\d+\) )?Inbox - Lanchat Dev$/))
  // Signing out still names the organization on the sign-in page.
  await alice.getByTestId('logout').click()
  await eventually(async () => assert.equal(await alice.title(), 'Sign in · Lanchat Dev'))
  await signIn(alice, server.url, 'alice@example.com')
})

test('c and x put the caret where there is something to fill in: the stream, the topic, the people, else the message', async () => {
  const focused = () => bob.evaluate(() => document.activeElement?.dataset.testid)
  const press = async (key, want) => {
    await bob.keyboard.press(key)
    await eventually(async () => assert.equal(await focused(), want, `after ${key}`))
    await bob.keyboard.press('Escape')
  }
  await bob.evaluate(() => { location.hash = '#inbox' })
  await bob.getByTestId('inbox-view').waitFor()
  await press('c', 'compose-stream')
  await press('x', 'compose-to')
  await bob.evaluate((id) => { location.hash = `#narrow/channel/${id}-general` }, general)
  await bob.getByTestId('narrow-title').filter({ hasText: /^#general$/ }).waitFor()
  await press('c', 'compose-topic')
  await aliceApi.send('general', 'caret', 'Somewhere to reply')
  await openTopic(bob, 'caret')
  await press('c', 'compose-content')
})

test('Zulip\'s reaction and topic keys on the selected message: + toggles 👍, : opens the picker, M mutes the topic, U marks it unread, P lists direct messages', async () => {
  await bobApi.send('general', 'react keys', 'React to me by key')
  await openTopic(alice, 'react keys')
  const m = await selectMessage(alice, 'React to me by key')
  await alice.keyboard.press('+')
  await m.locator('[data-testid=reaction].mine[data-emoji-name="+1"]').waitFor()
  await alice.keyboard.press('+')
  await m.getByTestId('reaction').waitFor({ state: 'detached' })
  await alice.keyboard.press(':')
  await alice.locator('.emoji-picker').waitFor()
  await alice.keyboard.press('Escape')
  await alice.locator('.emoji-picker').waitFor({ state: 'detached' })
  const row = topicRow(alice, 'react keys')
  await alice.keyboard.press('Shift+M')
  await eventually(async () => assert.match(await row.getAttribute('class'), /\bmuted\b/))
  await alice.keyboard.press('Shift+M')
  await eventually(async () => assert.doesNotMatch(await row.getAttribute('class'), /\bmuted\b/))
  await alice.keyboard.press('Shift+U')
  await eventually(async () => assert.match(await m.getAttribute('class'), /\bunread\b/))
  await alice.keyboard.press('Shift+P')
  await alice.getByTestId('narrow-title').filter({ hasText: 'All direct messages' }).waitFor()
})

test('Enter in the compose box\'s address fields moves on to the next, so c, stream, Enter, topic, Enter, message, Enter sends', async () => {
  const focused = () => bob.evaluate(() => document.activeElement?.dataset.testid)
  await bob.evaluate(() => { location.hash = '#inbox' })
  await bob.getByTestId('inbox-view').waitFor()
  await bob.keyboard.press('c')
  await eventually(async () => assert.equal(await focused(), 'compose-stream'))
  await bob.keyboard.type('general')
  await bob.keyboard.press('Enter')
  assert.equal(await focused(), 'compose-topic')
  await bob.keyboard.type('typed through')
  await bob.keyboard.press('Enter')
  assert.equal(await focused(), 'compose-content')
  await bob.keyboard.type('All from the keyboard')
  await bob.keyboard.press('Enter')
  await eventually(async () => {
    const { messages: [last] } = await aliceApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })
    assert.deepEqual([last.subject, last.content], ['typed through', '<p>All from the keyboard</p>'])
  })
  // The message took bob to its topic (a hash change, handled a moment later: keys pressed before then were for
  // a compose box the move then readdressed).
  await bob.getByTestId('narrow-title').filter({ hasText: 'typed through' }).waitFor()
  // To people: once the name is taken, Enter moves on to the message.
  await bob.keyboard.press('Escape')
  await bob.keyboard.press('x')
  await eventually(async () => assert.equal(await focused(), 'compose-to'))
  await bob.keyboard.type('Alice')
  await bob.getByTestId('recipient-suggestion').waitFor()
  await bob.keyboard.press('Enter')
  assert.equal(await focused(), 'compose-to')
  await bob.keyboard.press('Enter')
  assert.equal(await focused(), 'compose-content')
})

test('in All messages, a click on a message points the compose box at its conversation, as a click starts a reply in Zulip', async () => {
  // Read up to here, All messages opens at the newest.
  await aliceApi.call('POST', '/api/v1/mark_all_as_read')
  await bobApi.send('general', 'click to reply', 'Answer me in my topic')
  await alice.evaluate(() => { location.hash = '#all' })
  await alice.getByTestId('narrow-title').filter({ hasText: 'All messages' }).waitFor()
  await selectMessage(alice, 'Answer me in my topic')
  assert.equal(await alice.getByTestId('compose-stream').inputValue(), 'general')
  assert.equal(await alice.getByTestId('compose-topic').inputValue(), 'click to reply')
  await alice.getByTestId('compose-content').fill('Answered where you asked')
  await alice.getByTestId('compose-content').press('Enter')
  await eventually(async () => {
    const { messages: [last] } = await bobApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })
    assert.deepEqual([last.subject, last.content], ['click to reply', '<p>Answered where you asked</p>'])
  })
})

test('← edits one\'s last message in the view; Esc stays in the view for one who turned web_escape_navigates_to_home_view off', async () => {
  await aliceApi.send('general', 'left arrow', 'My first line')
  await aliceApi.send('general', 'left arrow', 'My last line, to fix')
  await bobApi.send('general', 'left arrow', 'Bob has the last word')
  await openTopic(alice, 'left arrow')
  await messages(alice).filter({ hasText: 'Bob has the last word' }).waitFor()
  await alice.getByTestId('narrow-title').click() // in no field
  await alice.keyboard.press('ArrowLeft')
  const box = messages(alice).filter({ has: alice.getByTestId('edit-content') })
  await box.waitFor()
  assert.equal(await alice.getByTestId('edit-content').inputValue(), 'My last line, to fix')
  await alice.keyboard.press('Escape')
  await box.waitFor({ state: 'detached' })

  await aliceApi.call('PATCH', '/api/v1/settings', { web_escape_navigates_to_home_view: false })
  await alice.waitForTimeout(500) // for the settings event to reach the page
  await alice.keyboard.press('Escape')
  await alice.waitForTimeout(300)
  assert.match(await alice.evaluate(() => location.hash), /\/topic\/left(%20|\.20)arrow$/)
  await aliceApi.call('PATCH', '/api/v1/settings', { web_escape_navigates_to_home_view: true })
})

test('a message sent to a conversation not on screen takes one there, as Zulip\'s web_navigate_to_sent_message does', async () => {
  await alice.evaluate(() => { location.hash = '#recent' })
  await alice.getByTestId('recent-view').waitFor()
  await alice.keyboard.press('x')
  await alice.keyboard.type('Bob')
  await alice.getByTestId('recipient-suggestion').waitFor()
  await alice.keyboard.press('Enter')
  await alice.keyboard.press('Enter')
  await alice.keyboard.type('Sent from Recent conversations')
  await alice.keyboard.press('Enter')
  await alice.getByTestId('narrow-title').filter({ hasText: 'Direct messages with Bob Brown' }).waitFor()
  await messages(alice).filter({ hasText: 'Sent from Recent conversations' }).waitFor()
  // Sent where one is, one stays.
  await openTopic(alice, 'left arrow')
  await alice.getByTestId('compose-content').fill('Staying put')
  await alice.getByTestId('compose-content').press('Enter')
  await messages(alice).filter({ hasText: 'Staying put' }).waitFor()
  assert.match(await alice.evaluate(() => location.hash), /\/topic\/left(%20|\.20)arrow$/)
})

test('with "Enter sends" off, as Zulip\'s default is, Enter starts a new line and Ctrl+Enter sends', async () => {
  await openTopic(alice, 'left arrow')
  await alice.getByTestId('settings-button').click()
  const setting = alice.getByTestId('setting-enter_sends')
  assert.equal(await setting.isChecked(), true)
  await setting.uncheck()
  await alice.keyboard.press('Escape')
  const box = alice.getByTestId('compose-content')
  await eventually(async () => assert.match(await box.getAttribute('placeholder'), /^Message \(Ctrl\+Enter sends, Enter for a new line/))
  await box.click()
  await alice.keyboard.type('Line one')
  await alice.keyboard.press('Enter')
  await alice.keyboard.type('line two')
  assert.equal(await box.inputValue(), 'Line one\nline two')
  await alice.keyboard.press('Control+Enter')
  await messages(alice).filter({ hasText: 'line two' }).waitFor()
  assert.equal(await box.inputValue(), '')
  await aliceApi.call('PATCH', '/api/v1/settings', { enter_sends: true })
  await eventually(async () => assert.match(await box.getAttribute('placeholder'), /^Message \(Enter sends/))
})
