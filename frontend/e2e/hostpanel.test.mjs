// The desktop host panel, driven in Chromium with the window's Go bridge
// stood in for by a script: the panel must show the join addresses and QR
// code (and, with HTTPS, the certificate authority to install), hand back a created account's password and one issued to an existing account, show a backup's progress
// while it runs, and list the host's recent errors. (The Go side of each bound method is tested in
// app/host_test.go; the real window under Xvfb in app/desktop_test.go.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { launchBrowser, newPage, signIn, startServer } from './harness.mjs'

// bridge is what Wails injects into the window: window.go.app.App with the
// bound methods, and window.runtime.EventsOn for events from Go.
function bridge() {
  const listeners = {}
  window.hostCalls = []
  window.runtime = {
    EventsOn(name, cb) {
      (listeners[name] ??= []).push(cb)
      return () => { listeners[name] = listeners[name].filter((f) => f !== cb) }
    },
  }
  let finishBackup
  window.recentErrors = []
  window.windowTitles = []
  window.emitHostEvent = (name, data) => (listeners[name] ?? []).forEach((cb) => cb(data))
  window.finishBackup = (path) => finishBackup(path)
  window.go = {
    app: {
      App: {
        SetupToken: async () => '',
        HostInfo: async () => window.hostInfo ?? ({
          running: true, version: 'test', addresses: ['http://192.168.1.20:9991', 'http://10.0.0.5:9991'],
          joinUrl: 'http://192.168.1.20:9991', dataDir: '/home/olive/.local/share/lanchat',
          authorityUrl: 'http://192.168.1.20:9991/lanchat-ca.crt', listen: '0.0.0.0:9991', unreachable: null,
          authority: '3F2A 9C01 77B4 E0D5',
        }),
        CreateAccount: async (fullName, email, role) => {
          window.hostCalls.push({ fullName, email, role })
          return { email, password: 'generated-secret' }
        },
        IssuePassword: async (email) => {
          window.hostCalls.push({ issue: email })
          return { email, password: 'issued-secret' }
        },
        Backup: () => new Promise((resolve) => { finishBackup = resolve }),
        OpenDataFolder: async () => {},
        // As app.App.RecentErrors answers: logring.Entry, newest first.
        RecentErrors: async () => window.recentErrors,
        Notify: async () => {},
        SetTitle: async (title) => { window.windowTitles.push(title) },
      },
    },
  }
}

test('the window follows the page title and notification clicks; the host panel shows join addresses, creates accounts, shows backup progress and lists recent errors', async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await page.addInitScript(bridge)
    await signIn(page, server.url, 'admin@example.com')
    // The window takes the page's title (with its unread count), and a
    // click on a native notification opens its conversation.
    await page.waitForFunction(() => window.windowTitles.at(-1) === document.title && document.title !== 'Lanchat')
    await page.evaluate(() => window.emitHostEvent('notification:open', '#narrow/stream/1-general'))
    assert.equal(await page.evaluate(() => location.hash), '#narrow/stream/1-general')

    await page.getByTestId('host-button').click()
    const panel = page.getByTestId('host-panel')
    await panel.waitFor()
    assert.equal(await page.getByTestId('host-status').textContent(), 'Serving Lanchat test')
    assert.deepEqual(await page.getByTestId('host-addresses').locator('li').allTextContents(),
      ['http://192.168.1.20:9991', 'http://10.0.0.5:9991'])
    assert.match(await page.getByTestId('host-qr').getAttribute('src'), /^data:image\/png;base64,/)
    assert.equal(await page.getByTestId('host-data-dir').textContent(), '/home/olive/.local/share/lanchat')
    assert.equal(await page.getByTestId('host-unreachable').count(), 0)
    // The fingerprint members compare when they join.
    assert.equal(await page.getByTestId('host-fingerprint').textContent(), '3F2A 9C01 77B4 E0D5')
    // The certificate authority to install, as its address and a QR code.
    assert.equal(await page.getByTestId('host-authority-url').textContent(), 'http://192.168.1.20:9991/lanchat-ca.crt')
    await page.getByTestId('host-authority-qr').waitFor()
    assert.match(await page.getByTestId('host-authority-qr').getAttribute('src'), /^data:image\/png;base64,/)

    await page.getByTestId('host-create-name').fill('  Nina New ')
    await page.getByTestId('host-create-email').fill('nina@example.com')
    await page.getByTestId('host-create-role').selectOption('guest')
    await page.getByTestId('host-create-submit').click()
    await page.getByTestId('host-created').waitFor()
    assert.match(await page.getByTestId('host-created').textContent(), /nina@example\.com.*generated-secret/)
    assert.deepEqual(await page.evaluate(() => window.hostCalls), [{ fullName: 'Nina New', email: 'nina@example.com', role: 'guest' }])

    // An imported person gets a password.
    await page.getByTestId('host-issue-email').fill(' ana@slack.test ')
    await page.getByTestId('host-issue-submit').click()
    await page.getByTestId('host-issued').waitFor()
    assert.match(await page.getByTestId('host-issued').textContent(), /ana@slack\.test.*issued-secret/)
    assert.deepEqual((await page.evaluate(() => window.hostCalls)).at(-1), { issue: 'ana@slack.test' })

    // While the backup runs the button is disabled and the bar follows
    // the progress events; when it ends the bar goes and the path shows.
    await page.getByTestId('host-backup').click()
    const bar = page.getByTestId('backup-progress')
    await bar.waitFor()
    assert.equal(await page.getByTestId('host-backup').isDisabled(), true)
    await page.evaluate(() => window.emitHostEvent('backup:progress', { done: 3, total: 10 }))
    await page.waitForFunction(() => document.querySelector('[data-testid=backup-progress]')?.value === 3)
    assert.equal(await bar.getAttribute('max'), '10')
    await page.evaluate(() => window.emitHostEvent('backup:progress', { done: 10, total: 10 }))
    await page.waitForFunction(() => document.querySelector('[data-testid=backup-progress]')?.value === 10)
    await page.evaluate(() => window.finishBackup('/home/olive/lanchat-2026-11-23.tar'))
    await page.getByText('Backup written to /home/olive/lanchat-2026-11-23.tar').waitFor()
    assert.equal(await bar.count(), 0)
    assert.equal(await page.getByTestId('host-backup').isDisabled(), false)

    // No errors yet, then a refused webhook and a failed request appear
    // on refresh, newest first.
    await page.getByTestId('host-errors-none').waitFor()
    await page.evaluate(() => {
      window.recentErrors = [
        { time: '2026-11-23T16:20:05Z', level: 'ERROR', message: 'request', attrs: 'method=GET route=/api/v1/messages status=500 err="disk I/O"' },
        { time: '2026-11-23T16:20:01Z', level: 'WARN', message: 'request', attrs: 'method=POST route=/api/v1/external/{integration} status=400 bot=webhook-bot@example.com code=BAD_REQUEST error="Malformed JSON"' },
      ]
    })
    await page.getByTestId('host-errors-refresh').click()
    const items = page.getByTestId('host-errors').locator('li')
    await items.nth(1).waitFor()
    const texts = await items.allTextContents()
    assert.match(texts[0], /ERROR request method=GET route=\/api\/v1\/messages status=500 err="disk I\/O"$/)
    assert.match(texts[1], /WARN request method=POST route=\/api\/v1\/external\/\{integration\} status=400 .*error="Malformed JSON"$/)
    assert.equal(await page.getByTestId('host-errors-none').count(), 0)
  } finally {
    await browser.close()
    await server.stop()
  }
})

test('a host listening on loopback only says nobody else can join, and how to open it', async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await page.addInitScript(bridge)
    await page.addInitScript(() => {
      window.hostInfo = {
        running: true, version: 'test', addresses: [], unreachable: ['http://192.168.1.20:9991'], listen: '127.0.0.1:9991',
        joinUrl: 'http://127.0.0.1:9991', dataDir: '/data', authorityUrl: '',
      }
    })
    await signIn(page, server.url, 'admin@example.com')
    await page.getByTestId('host-button').click()
    const hint = page.getByTestId('host-unreachable')
    await hint.waitFor()
    assert.match(await hint.textContent(), /listens only on 127\.0\.0\.1:9991.*http:\/\/192\.168\.1\.20:9991.*--addr 0\.0\.0\.0:9991/)
    assert.equal(await page.getByTestId('host-addresses').locator('li').count(), 0)
    assert.equal(await page.getByTestId('host-authority').count(), 0)
  } finally {
    await browser.close()
    await server.stop()
  }
})
