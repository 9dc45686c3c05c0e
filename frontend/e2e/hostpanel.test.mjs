// The desktop host panel, driven in Chromium with the window's Go bridge
// stood in for by a script: the panel must show the join addresses and QR
// code, hand back a created account's password, and show a backup's
// progress while it runs. (The Go side of each bound method is tested in
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
  window.emitHostEvent = (name, data) => (listeners[name] ?? []).forEach((cb) => cb(data))
  window.finishBackup = (path) => finishBackup(path)
  window.go = {
    app: {
      App: {
        SetupToken: async () => '',
        HostInfo: async () => ({
          running: true, version: 'test', addresses: ['http://192.168.1.20:9991', 'http://10.0.0.5:9991'],
          joinUrl: 'http://192.168.1.20:9991', dataDir: '/home/olive/.local/share/lanchat',
        }),
        CreateAccount: async (fullName, email, role) => {
          window.hostCalls.push({ fullName, email, role })
          return { email, password: 'generated-secret' }
        },
        Backup: () => new Promise((resolve) => { finishBackup = resolve }),
        OpenDataFolder: async () => {},
      },
    },
  }
}

test('the host panel shows join addresses, creates accounts and shows backup progress', async () => {
  const server = await startServer()
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await page.addInitScript(bridge)
    await signIn(page, server.url, 'admin@example.com')
    await page.getByTestId('host-button').click()
    const panel = page.getByTestId('host-panel')
    await panel.waitFor()
    assert.equal(await page.getByTestId('host-status').textContent(), 'Serving Lanchat test')
    assert.deepEqual(await page.getByTestId('host-addresses').locator('li').allTextContents(),
      ['http://192.168.1.20:9991', 'http://10.0.0.5:9991'])
    assert.match(await page.getByTestId('host-qr').getAttribute('src'), /^data:image\/png;base64,/)
    assert.equal(await page.getByTestId('host-data-dir').textContent(), '/home/olive/.local/share/lanchat')

    await page.getByTestId('host-create-name').fill('  Nina New ')
    await page.getByTestId('host-create-email').fill('nina@example.com')
    await page.getByTestId('host-create-role').selectOption('guest')
    await page.getByTestId('host-create-submit').click()
    await page.getByTestId('host-created').waitFor()
    assert.match(await page.getByTestId('host-created').textContent(), /nina@example\.com.*generated-secret/)
    assert.deepEqual(await page.evaluate(() => window.hostCalls), [{ fullName: 'Nina New', email: 'nina@example.com', role: 'guest' }])

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
  } finally {
    await browser.close()
    await server.stop()
  }
})
