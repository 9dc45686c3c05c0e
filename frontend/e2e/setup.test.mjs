// First run: an empty lanchatd prints a setup address; opening it creates
// the organization and its owner.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { launchBrowser, newPage, fillSetup, shot, startServer } from './harness.mjs'

test('first-run setup creates the organization and signs the owner in', async () => {
  const server = await startServer({ dev: false })
  const browser = await launchBrowser()
  try {
    assert.match(server.setupUrl, /#setup=/)
    const page = await newPage(browser)
    await fillSetup(page, server.setupUrl, 'Acme Robotics')
    await shot(page, 'setup.png')
    await page.getByTestId('setup-submit').click()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
    await page.reload()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
    assert.match(await page.title(), / - Acme Robotics$/)
    const state = await fetch(`${server.url}/accounts/setup`).then((r) => r.json())
    assert.equal(state.setup_needed, false)
  } finally {
    await browser.close()
    await server.stop()
  }
})
