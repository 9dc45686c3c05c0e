// Polls and todo lists between two people in two browsers: made by typing
// /poll and /todo in compose, changed by clicks, and seen changing live on
// the other side, without a reload.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { eventually, launchBrowser, phonePage, seriousViolations, shot, signedInPages, startServer } from './harness.mjs'

let server, browser, alice, bob

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  ;[alice, bob] = await signedInPages(browser, server.url, 'alice@example.com', 'bob@example.com')
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

async function openTopic(page, topic) {
  await page.locator('[data-testid=stream-row][data-stream="general"]').click()
  await page.getByTestId('compose-topic').fill(topic)
}

async function compose(page, content) {
  await page.getByTestId('compose-content').fill(content)
  await page.getByTestId('compose-send').click()
}

const option = (page, text) => page.getByTestId('poll-option').filter({ hasText: text })
const task = (page, text) => page.getByTestId('todo-task').filter({ hasText: text })

test('a poll made with /poll counts the other\'s vote on both sides', async () => {
  await openTopic(alice, 'lunch poll')
  // The slash command is offered while typed at the start of a message.
  await alice.getByTestId('compose-content').pressSequentially('/po')
  await alice.getByTestId('autocomplete-item').filter({ hasText: '/poll' }).waitFor()
  await alice.getByTestId('compose-content').press('Enter')
  assert.equal(await alice.getByTestId('compose-content').inputValue(), '/poll ')
  await compose(alice, '/poll Where do we eat on Friday?\nPizza Piazza\nThe noodle bar\n- Sushi Go')
  await alice.getByTestId('poll-question').filter({ hasText: 'Where do we eat on Friday?' }).waitFor()

  await bob.locator('[data-testid=stream-row][data-stream="general"]').click()
  await bob.locator('[data-testid=topic-row][data-topic="lunch poll"]').click()
  await option(bob, 'The noodle bar').waitFor()
  assert.equal(await bob.getByTestId('poll-option').count(), 3)
  assert.equal(await option(alice, 'The noodle bar').getByTestId('poll-vote').textContent(), '0')

  await option(bob, 'The noodle bar').getByTestId('poll-vote').click()
  for (const page of [bob, alice]) {
    await eventually(async () => assert.equal(await option(page, 'The noodle bar').getByTestId('poll-vote').textContent(), '1'))
    assert.equal(await option(page, 'The noodle bar').getByTestId('poll-voters').textContent(), '(Bob Brown)')
  }
  assert.equal(await option(bob, 'The noodle bar').getByTestId('poll-vote').getAttribute('aria-pressed'), 'true')

  // Alice votes too, and adds an option; Bob takes his vote back.
  await option(alice, 'The noodle bar').getByTestId('poll-vote').click()
  await alice.getByTestId('poll-new-option').fill('Tacos')
  await alice.getByTestId('poll-add-option').click()
  await option(bob, 'Tacos').waitFor()
  await eventually(async () => assert.equal(await option(bob, 'The noodle bar').getByTestId('poll-vote').textContent(), '2'))
  await option(alice, 'Pizza Piazza').getByTestId('poll-vote').click()
  await eventually(async () => assert.equal(await option(bob, 'Pizza Piazza').getByTestId('poll-vote').textContent(), '1'))
  // The screenshot: the poll's own topic, as its author sees it.
  await alice.getByTestId('dismiss-notifications').click()
  await alice.locator('[data-testid=topic-row][data-topic="lunch poll"]').click()
  await alice.getByTestId('narrow-title').filter({ hasText: 'lunch poll' }).waitFor()
  await option(alice, 'Pizza Piazza').getByTestId('poll-voters').waitFor()
  await shot(alice, 'poll.png')
  await option(bob, 'The noodle bar').getByTestId('poll-vote').click()
  await eventually(async () => assert.equal(await option(alice, 'The noodle bar').getByTestId('poll-vote').textContent(), '1'))
  assert.equal(await option(alice, 'The noodle bar').getByTestId('poll-voters').textContent(), '(Alice Anders)')

  // Only the author may reword the question; both see it change.
  assert.equal(await bob.getByTestId('poll-question-edit').count(), 0)
  await alice.getByTestId('poll-question-edit').click()
  await alice.getByTestId('poll-question-input').fill('Where do we eat on Friday, 12:30?')
  await alice.getByTestId('poll-question-input').press('Enter')
  await bob.getByTestId('poll-question').filter({ hasText: '12:30' }).waitFor()
})

test('a todo list made with /todo shows the other\'s tick live', async () => {
  await openTopic(bob, 'release')
  await compose(bob, '/todo Release 2.0\nTag the release: from main\nWrite the notes\nAnnounce it')
  await task(bob, 'Write the notes').waitFor()
  await alice.locator('[data-testid=topic-row][data-topic="release"]').click()
  await task(alice, 'Write the notes').waitFor()
  assert.equal(await alice.getByTestId('todo-title').textContent(), 'Release 2.0')
  assert.equal(await task(alice, 'Tag the release').textContent(), 'Tag the release: from main')

  await task(alice, 'Write the notes').getByTestId('todo-checkbox').click()
  for (const page of [alice, bob]) {
    await eventually(async () => assert.equal(await task(page, 'Write the notes').getAttribute('data-completed'), 'true'))
    assert.equal(await task(page, 'Write the notes').getByTestId('todo-checkbox').isChecked(), true)
  }
  assert.equal(await task(bob, 'Announce it').getByTestId('todo-checkbox').isChecked(), false)

  // Anyone adds a task; unticking strikes it again.
  await bob.getByTestId('todo-new-task').fill('Update the website')
  await bob.getByTestId('todo-new-desc').fill('download page')
  await bob.getByTestId('todo-add-task').click()
  await task(alice, 'Update the website').waitFor()
  await task(bob, 'Write the notes').getByTestId('todo-checkbox').click()
  await eventually(async () => assert.equal(await task(alice, 'Write the notes').getAttribute('data-completed'), 'false'))
  await task(bob, 'Tag the release').getByTestId('todo-checkbox').click()
  await eventually(async () => assert.equal(await task(alice, 'Tag the release').getAttribute('data-completed'), 'true'))
  await shot(alice, 'todo.png')
  assert.deepEqual(await seriousViolations(alice), [])
})

test('widgets on a phone', async () => {
  const phone = await phonePage(browser, server.url, 'bob@example.com')
  await phone.getByTestId('dismiss-notifications').click()
  await phone.goto(`${server.url}/#narrow/stream/1-general/topic/lunch.20poll`)
  await option(phone, 'Tacos').waitFor()
  // Every control of the widgets is a finger's size, and nothing scrolls sideways.
  const small = await phone.evaluate(() => [...document.querySelectorAll('.widget button, .widget input, .todo-tasks label')]
    .filter((el) => el.getBoundingClientRect().height > 0 && el.getBoundingClientRect().height < 40).map((el) => el.className || el.tagName))
  assert.deepEqual(small, [])
  assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true)
  await shot(phone, 'phone-poll.png')
  await phone.goto(`${server.url}/#narrow/stream/1-general/topic/release`)
  await task(phone, 'Update the website').waitFor()
  await shot(phone, 'phone-todo.png')
  await phone.context().close()
})
