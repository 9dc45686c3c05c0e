// First run: an empty lanchatd prints a setup address; opening it creates
// the organization and its owner.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { launchBrowser, newPage, shot, startServer } from './harness.mjs'

test('first-run setup creates the organization and signs the owner in', async () => {
  const server = await startServer({ dev: false })
  const browser = await launchBrowser()
  try {
    assert.match(server.setupUrl, /#setup=/)
    const page = await newPage(browser)
    await page.goto(server.setupUrl)
    await page.getByTestId('setup-org').fill('Acme Robotics')
    await page.getByTestId('setup-name').fill('Olive Owner')
    await page.getByTestId('setup-email').fill('olive@acme.test')
    await page.getByTestId('setup-password').fill('correct horse battery')
    await shot(page, 'setup.png')
    await page.getByTestId('setup-submit').click()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
    await page.reload()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
    assert.equal(await page.title(), 'Acme Robotics')
    const state = await fetch(`${server.url}/accounts/setup`).then((r) => r.json())
    assert.equal(state.setup_needed, false)
  } finally {
    await browser.close()
    await server.stop()
  }
})
