// A member's desktop app, in Chromium with the window's Go bridge stood in
// for by a script (as in hostpanel.test.mjs): the panel of an app that
// joined a team shows only the team's address and Leave, which asks first
// and signs out; the first launch's page keeps its list of teams live and
// clears what a team left in the window's storage; the page shown when the
// saved team cannot be reached offers Retry and Choose another team. (The
// Go side is tested in app/member_test.go; the window under Xvfb in
// app/member_desktop_test.go.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { eventually, launchBrowser, newPage, seriousViolations, shot, signIn, startServer } from './harness.mjs'

const app = resolve(dirname(fileURLToPath(import.meta.url)), '../../app')

// bridge stands in for window.go.app.App and window.runtime; calls to the
// bound methods go to window.hostCall, which each test exposes from Node
// so that the record outlives the page's navigations.
function bridge() {
  const listeners = {}
  window.runtime = { EventsOn(name, cb) { (listeners[name] ??= []).push(cb); return () => {} } }
  window.emitHostEvent = (name, data) => (listeners[name] ?? []).forEach((cb) => cb(data))
  const record = (name, result) => async (...args) => { await window.hostCall([name, ...args]); return result?.(...args) }
  window.reconnectAnswers = []
  window.go = {
    app: {
      App: {
        SetupToken: async () => '',
        HostInfo: async () => ({ running: false, joined: 'http://192.168.1.20:9991', joinUrl: 'http://192.168.1.20:9991',
          addresses: null, unreachable: null, listen: '', dataDir: '', version: 'test', authorityUrl: '', authority: '3F2A 9C01 77B4 E0D5' }),
        CreateAccount: record('CreateAccount'),
        Backup: record('Backup'),
        OpenDataFolder: record('OpenDataFolder'),
        RecentErrors: record('RecentErrors', () => []),
        SetTitle: async (title) => { window.windowTitle = title },
        LeaveTeam: record('LeaveTeam'),
        WatchTeams: record('WatchTeams'),
        JoinTeam: record('JoinTeam'),
        HostTeam: record('HostTeam'),
        Reconnect: record('Reconnect', () => { const e = window.reconnectAnswers.shift(); if (e) throw new Error(e) }),
      },
    },
  }
}

// windowPage is a page standing in for a member's window: the bridge's
// bound methods, with every call they record in calls.
async function windowPage(browser) {
  const page = await newPage(browser)
  const calls = []
  await page.exposeFunction('hostCall', (call) => { calls.push(call) })
  await page.addInitScript(bridge)
  return { page, calls }
}

test("a member's panel shows the team's address and Leave, which asks, signs out and clears the window's storage", async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const { page, calls } = await windowPage(browser)
    await signIn(page, server.url, 'alice@example.com')
    await page.evaluate(() => localStorage.setItem('lanchat.drafts', '{"stream:1:lunch":"see you at"}'))
    const button = page.getByTestId('host-button')
    await page.waitForFunction(() => document.querySelector('[data-testid=host-button]')?.textContent === 'Team')
    await button.click()
    const panel = page.getByTestId('host-panel')
    await panel.waitFor()
    await page.getByTestId('host-qr').waitFor()
    assert.match(await page.getByTestId('host-status').textContent(), /member of the team at http:\/\/192\.168\.1\.20:9991\. It hosts nothing/)
    assert.deepEqual(await page.getByTestId('host-addresses').locator('li').allTextContents(), ['http://192.168.1.20:9991'])
    assert.equal(await panel.locator('h2').textContent(), 'This team')
    // The fingerprint the app trusts the team's host by, checked at joining.
    assert.equal(await page.getByTestId('host-fingerprint').textContent(), '3F2A 9C01 77B4 E0D5')
    // Nothing of a host's: no accounts, no passwords, no backup, no data
    // folder, no host's errors.
    for (const id of ['host-create-name', 'host-issue-email', 'host-backup', 'host-data-dir', 'host-errors', 'host-authority']) {
      assert.equal(await page.getByTestId(id).count(), 0, id)
    }
    assert.equal(await panel.getByText('Back up').count(), 0)

    // Leave asks first; Cancel leaves everything as it was.
    await page.getByTestId('host-leave').click()
    const confirm = page.getByTestId('host-leave-confirm')
    await confirm.waitFor()
    assert.match(await confirm.textContent(), /Leave the team at http:\/\/192\.168\.1\.20:9991\?.*signs you out/)
    assert.deepEqual(await seriousViolations(page), [])
    await shot(page, 'member-leave.png')
    await page.getByTestId('host-leave-no').click()
    assert.equal(await confirm.count(), 0)
    assert.deepEqual(calls, [])

    await page.getByTestId('host-leave').click()
    await page.getByTestId('host-leave-yes').click()
    // The page goes on to '/' (here the team's sign-in page: in the window,
    // the first launch's), signed out, its storage empty.
    await page.getByTestId('login-email').waitFor()
    // Only what the sign-in page itself wrote since (its theme).
    assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), ['lanchat.theme'])
    const session = await page.evaluate(() => fetch('/accounts/session').then((r) => r.json()))
    assert.equal(session.signed_in, false)
    assert.deepEqual(calls, [['LeaveTeam']])
  } finally {
    await browser.close()
    await server.stop()
  }
})

test("a member's sign-in page offers another team: the wrong team, or no account there", async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const { page, calls } = await windowPage(browser)
    await page.goto(server.url)
    const joined = page.getByTestId('login-joined')
    await joined.waitFor()
    assert.match(await joined.textContent(), /This app joined the team at http:\/\/192\.168\.1\.20:9991\. Choose another team/)
    assert.deepEqual(await seriousViolations(page), [])
    await shot(page, 'member-signin.png')
    await page.evaluate(() => localStorage.setItem('lanchat.drafts', '{}'))
    await page.getByTestId('login-choose-team').click()
    await eventually(() => assert.deepEqual(calls, [['LeaveTeam']]))
    await page.getByTestId('login-email').waitFor()
    assert.deepEqual(await page.evaluate(() => Object.keys(localStorage)), ['lanchat.theme'])
  } finally {
    await browser.close()
    await server.stop()
  }
})

// Served as the window serves them (app/welcome.go, app/trouble.go), at an
// origin of their own, so that the bridge's script runs first.
const origin = 'http://window.test'

test('the first launch clears what a team left in the window, and its list of teams follows the network', async () => {
  const browser = await launchBrowser()
  try {
    const { page, calls } = await windowPage(browser)
    await page.route(`${origin}/**`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8',
      body: new URL(route.request().url()).pathname === '/welcome' ? readFileSync(`${app}/welcome.html`, 'utf8') : '<title>a team</title>' }))
    // A team's page signed in and kept a draft, then the team was left.
    await page.goto(`${origin}/team`)
    await page.evaluate(() => {
      localStorage.setItem('lanchat.window.credentials', '{"email":"alice@example.com","apiKey":"k"}')
      localStorage.setItem('lanchat.drafts', '{}')
      sessionStorage.setItem('x', '1')
    })
    await page.goto(`${origin}/welcome`)
    await page.getByText('Looking for teams on this network…').waitFor()
    assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length), 0)
    assert.deepEqual(calls, [['WatchTeams']])

    const teams = page.getByTestId('welcome-teams').locator('button')
    const emit = (seen) => page.evaluate((seen) => window.emitHostEvent('teams', seen), seen)
    await emit({ teams: [], error: '' })
    await page.getByText('No team found on this network yet').waitFor()
    assert.equal(await page.evaluate(() => window.windowTitle), 'Lanchat: no teams on this network')
    // A host starts later: listed without anyone asking.
    const olive = { name: "Olive's Bakery", url: 'https://192.168.1.20:9991', authority: '3F2A 9C01 77B4 E0D5', conflict: false }
    const workshop = { name: 'Workshop', url: 'http://10.0.0.7:9991', authority: '', conflict: false }
    await emit({ teams: [olive], error: '' })
    await page.getByText('On this network:').waitFor()
    assert.deepEqual(await teams.allTextContents(), ["Olive's Bakery192.168.1.20:9991 · fingerprint 3F2A 9C01 77B4 E0D5"])
    assert.equal(await page.evaluate(() => window.windowTitle), 'Lanchat: 1 team on this network')
    await emit({ teams: [olive, workshop], error: '' })
    await teams.nth(1).waitFor()
    assert.deepEqual(await seriousViolations(page), [])
    await shot(page, 'welcome-teams.png')
    // One stops: gone.
    await emit({ teams: [workshop], error: '' })
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=welcome-teams] button').length === 1)
    assert.deepEqual(await teams.allTextContents(), ['Workshop10.0.0.7:9991 · plain HTTP, unverified'])
    await emit({ teams: [], error: 'no multicast route' })
    await page.getByText('Cannot look for teams: no multicast route').waitFor()
    assert.equal(await teams.count(), 0)
  } finally {
    await browser.close()
  }
})

// render fills app/trouble.html as app/trouble.go's template does (its
// fields are text, escaped).
function render(fields) {
  const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;')
  return readFileSync(`${app}/trouble.html`, 'utf8').replace(/\{\{\.(\w+)\}\}/g, (_, k) => escape(String(fields[k])))
}

test('when the saved team cannot be shown, the window says why and offers Retry and Choose another team', async () => {
  const browser = await launchBrowser()
  try {
    const { page, calls } = await windowPage(browser)
    let served = 0
    await page.route(`${origin}/**`, (route) => {
      served++
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: render({
        Title: 'cannot reach the team', Message: 'The team\'s host does not answer at http://192.168.1.20:9991.',
        Detail: 'dial tcp 192.168.1.20:9991: connect: no route to host',
        Hint: 'Its computer may be off, asleep or on another network, or its address may have changed.', AutoRetry: 'false',
      }) })
    })
    await page.goto(`${origin}/`)
    assert.match(await page.getByTestId('trouble-message').textContent(), /does not answer at http:\/\/192\.168\.1\.20:9991/)
    assert.equal(await page.getByTestId('trouble-detail').textContent(), 'dial tcp 192.168.1.20:9991: connect: no route to host')
    assert.equal(await page.evaluate(() => window.windowTitle), 'Lanchat: cannot reach the team')
    assert.deepEqual(await seriousViolations(page), [])

    // Retry while the host is still away: the page says so and stays.
    await page.evaluate(() => window.reconnectAnswers.push('still no answer at http://192.168.1.20:9991: connect: no route to host'))
    await page.getByTestId('trouble-retry').click()
    await page.getByText('still no answer at http://192.168.1.20:9991').waitFor()
    assert.equal(await page.getByTestId('trouble-retry').isDisabled(), false)
    assert.equal(served, 1)
    await shot(page, 'member-unreachable-retry.png')
    // Retry once it is back: the window loads the team again.
    await page.getByTestId('trouble-retry').click()
    await eventually(() => assert.equal(served, 2))
    // Choose another team forgets it and loads the first launch's page.
    await page.getByTestId('trouble-choose').click()
    await eventually(() => assert.equal(served, 3))
    assert.deepEqual(calls.map((c) => c[0]), ['Reconnect', 'Reconnect', 'LeaveTeam'])
  } finally {
    await browser.close()
  }
})

test('while the host is away, the window tries again by itself and goes back to the team once it answers', async () => {
  const browser = await launchBrowser()
  try {
    const { page, calls } = await windowPage(browser)
    await page.clock.install()
    let served = 0
    await page.route(`${origin}/**`, (route) => {
      served++
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: render({ Title: 'cannot reach the team',
        Message: 'The team\'s host does not answer at http://192.168.1.20:9991.', Detail: 'connection refused', Hint: '', AutoRetry: 'true' }) })
    })
    await page.goto(`${origin}/`)
    await page.evaluate(() => window.reconnectAnswers.push('still no answer'))
    await page.clock.runFor(5000)
    await eventually(() => assert.equal(calls.length, 1))
    // Still away: the page stays, says nothing, and tries again later.
    assert.equal(await page.getByTestId('trouble-status').textContent(), '')
    assert.equal(served, 1)
    await page.clock.runFor(5000)
    await eventually(() => assert.equal(served, 2))
    assert.deepEqual(calls, [['Reconnect'], ['Reconnect']])
  } finally {
    await browser.close()
  }
})
