// An invitation link (/join/KEY/) opens the sign-up: the new person names
// themselves, gets the account the link offers and lands in the chat.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, launchBrowser, newPage, shot, startServer } from './harness.mjs'

test('an invitation link signs a new person up', async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const admin = await apiClient(server.url, 'admin@example.com')
    const { stream_id } = await admin.call('GET', '/api/v1/get_stream_id', { stream: 'general' })
    const { invite_link } = await admin.call('POST', '/api/v1/invites/multiuse', { stream_ids: [stream_id] })
    assert.ok(invite_link.startsWith(`${server.url}/join/`), invite_link)
    const page = await newPage(browser)
    await page.goto(invite_link)
    await page.getByTestId('join-name').fill('Nina Newcomer')
    await page.getByTestId('join-email').fill('nina@example.com')
    await page.getByTestId('join-password').fill('nina-password')
    await shot(page, 'join.png')
    await page.getByTestId('join-submit').click()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
    assert.equal(new URL(page.url()).pathname, '/')
    await page.reload()
    await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()

    // A revoked link shows the sign-in page instead.
    const { invites } = await admin.call('GET', '/api/v1/invites')
    await admin.call('DELETE', `/api/v1/invites/multiuse/${invites.find((i) => i.link_url === invite_link).id}`)
    const stranger = await newPage(browser)
    await stranger.goto(invite_link)
    await stranger.getByTestId('login-email').waitFor()
  } finally {
    await browser.close()
    await server.stop()
  }
})
