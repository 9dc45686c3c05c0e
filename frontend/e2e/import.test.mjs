// An owner of a new organization imports a Slack export from the
// administrators' settings, watches its progress, reads the summary and
// opens the imported organization, still signed in.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eventually, launchBrowser, newPage, seriousViolations, fillSetup, shot, startServer, zipFiles } from './harness.mjs'

// slackExport is a Slack workspace export: two people, #general with a
// day of messages padded to some size (so that its upload can be watched),
// a reaction and an integration's post.
function slackExport(messages) {
  const people = [['U01', 'Ana Lima', 'ana@slack.test'], ['U02', 'Ben Okoro', 'ben@slack.test']]
  const users = people.map(([id, name, email]) => ({ id, name: name.split(' ')[0].toLowerCase(), real_name: name, deleted: false, is_bot: false,
    profile: { email, real_name: name } }))
  const channels = [{ id: 'C1', name: 'general', created: 1600000000, creator: 'U01', is_archived: false, is_general: true,
    members: ['U01', 'U02'], topic: { value: '' }, purpose: { value: 'Everyone' } }]
  const day = Array.from({ length: messages }, (_, i) => ({ type: 'message', user: people[i % 2][0],
    text: i === 0 ? 'Welcome to the team' : `Note ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(20)}`,
    ts: `${1600000100 + i}.000100` }))
  day[0].reactions = [{ name: 'tada', users: ['U02'], count: 1 }]
  // An integration's post has no sender to import: it is left out, and said so.
  day.push({ type: 'message', subtype: 'bot_message', bot_id: 'B01', username: 'deploys', text: 'Deploy finished', ts: `${1600000100 + messages}.000100` })
  return zipFiles({ 'users.json': JSON.stringify(users), 'channels.json': JSON.stringify(channels), 'general/2020-09-13.json': JSON.stringify(day) })
}

test('an owner imports a Slack export into a new organization', async () => {
  const server = await startServer({ dev: false })
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await fillSetup(page, server.setupUrl, 'Acme Robotics')
    await page.getByTestId('setup-submit').click()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()

    await page.getByTestId('settings-button').click()
    await page.getByTestId('settings-tab-import').click()
    await page.getByTestId('import-format-slack').check()
    const messages = 1500
    await page.getByTestId('import-file').setInputFiles({ name: 'acme-slack-export.zip', mimeType: 'application/zip', buffer: slackExport(messages) })
    assert.deepEqual(await seriousViolations(page), [])

    // A slow link, so that the upload's progress shows.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 400 << 10 })
    await page.getByTestId('import-start').click()
    await page.getByTestId('import-figures').getByText(/([1-9][0-9]*|0)\.([1-9]|[0-9][1-9]) MB of/).waitFor()
    await shot(page, 'import-progress.png')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })

    const summary = page.getByTestId('import-summary')
    await summary.waitFor({ timeout: 60000 })
    const count = async (kind) => Number((await page.locator(`[data-testid=import-count][data-kind="${kind}"] td`).textContent()).replace(/\D/g, ''))
    assert.equal(await count('People'), 2)
    assert.equal(await count('Streams'), 1)
    assert.equal(await count('Messages'), messages)
    assert.equal(await count('Reactions'), 1)
    assert.match(await page.getByTestId('import-skipped').textContent(), /1 record was left out.*no user sent it/)
    assert.deepEqual(await seriousViolations(page), [])
    // The page registers again on its own, with the imported people.
    await page.getByText('Ben Okoro').first().waitFor({ timeout: 30000 })
    await shot(page, 'import-summary.png')

    // The owner is still signed in, now in the imported organization.
    await page.getByTestId('import-open').click()
    await page.locator('[data-testid=stream-row][data-stream="general"]').click()
    await eventually(async () => assert.ok(await page.getByText(`Note ${messages - 1}:`).count() > 0))
    const me = await page.evaluate(() => fetch('/api/v1/users/me').then((r) => r.json()))
    assert.equal(me.email, 'olive@acme.test')
    assert.equal(me.role, 100)
  } finally {
    await browser.close()
    await server.stop()
  }
})
