// A cold load straight to a stream shows its messages without waiting for
// register: the first page of messages is asked for beside the session
// check, and the list shows as soon as it is here. The page's small entry
// script asks for them before the app's larger script has arrived.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, signIn, startServer } from './harness.mjs'

let server, browser

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

// signedInState is a browser profile holding only Alice's session cookie, and general's ID.
async function signedInState() {
  const general = (await (await apiClient(server.url, 'alice@example.com')).call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  const signedIn = await browser.newContext()
  await signIn(await signedIn.newPage(), server.url, 'alice@example.com')
  const session = await signedIn.storageState()
  await signedIn.close()
  return { general, session }
}

test('the messages show while register is still on its way', async () => {
  const { general, session } = await signedInState()
  const context = await browser.newContext({ storageState: session })
  const page = await context.newPage()
  // Register is held back until the first message is on screen.
  let release
  const held = new Promise((r) => { release = r })
  const order = []
  await page.route('**/api/v1/register', async (route) => { order.push('register asked'); await held; await route.continue() })
  page.on('request', (r) => { if (r.url().includes('/api/v1/messages?')) order.push('messages asked') })
  await page.goto(`${server.url}/#narrow/channel/${general}-general/topic/lunch`)
  await page.getByTestId('message').filter({ hasText: 'Anyone up for lunch' }).waitFor()
  assert.deepEqual(order.sort(), ['messages asked', 'register asked'])
  release()
  // Register's answer fills in the rest: the stream list and the people.
  await page.locator('[data-testid=stream-row][data-stream="general"]').waitFor()
  await page.getByText('Bob Brown').first().waitFor()
  await context.close()
})

test('the first requests go out before the app script arrives', async () => {
  const { general, session } = await signedInState()
  const context = await browser.newContext({ storageState: session })
  const page = await context.newPage()
  // The app's script (the one the entry imports) is held until the
  // session and the first messages have been answered.
  let release
  const held = new Promise((r) => { release = r })
  const answered = []
  page.on('requestfinished', (r) => { if (/\/accounts\/session|\/api\/v1\/messages\?/.test(r.url())) answered.push(new URL(r.url()).pathname) })
  let appScript = ''
  await page.route('**/assets/*.js', async (route) => {
    const js = route.request().url()
    if (!appScript) {
      const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(await (await fetch(server.url)).text())[1]
      appScript = /import\(`\.\/(ui-[^`]+)`\)/.exec(await (await fetch(server.url + entry)).text())[1]
    }
    if (js.endsWith(appScript)) await held
    await route.continue()
  })
  await page.goto(`${server.url}/#narrow/channel/${general}-general/topic/lunch`, { waitUntil: 'commit' })
  await eventually(() => assert.deepEqual(answered.sort(), ['/accounts/session', '/api/v1/messages']))
  assert.equal(await page.getByTestId('message').count(), 0, 'the app is not drawn before its script arrives')
  release()
  await page.getByTestId('message').filter({ hasText: 'Anyone up for lunch' }).waitFor()
  await context.close()
})
