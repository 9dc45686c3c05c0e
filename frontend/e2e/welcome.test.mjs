// The desktop app's first-launch page (app/welcome.html), in Chromium with
// the window's Go bridge stood in for by a script, as in hostpanel.test.mjs:
// hosting from an export shows the import's progress, then its summary and
// a password for the host's own account; joining asks first, showing the
// address joined and the host's fingerprint to compare. (The Go side is tested in app/import_test.go and
// app/join_test.go; the real window under Xvfb in app/desktop_test.go.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchBrowser, newPage, seriousViolations, shot } from './harness.mjs'

const welcome = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../app/welcome.html'), 'utf8')

function bridge() {
  const listeners = {}
  window.hostCalls = []
  window.runtime = { EventsOn(name, cb) { (listeners[name] ??= []).push(cb); return () => {} } }
  window.emitHostEvent = (name, data) => (listeners[name] ?? []).forEach((cb) => cb(data))
  let finishImport
  window.finishImport = (status) => finishImport(status)
  window.go = {
    app: {
      App: {
        Teams: async () => [],
        WatchTeams: async () => {},
        SetTitle: async () => {},
        HostTeam: async () => {},
        CheckTeam: async (address) => {
          window.hostCalls.push({ check: address })
          const team = window.checks?.[address]
          if (!team) throw new Error('no team answers at ' + address)
          return team
        },
        JoinTeam: async (address, authority) => { window.hostCalls.push({ join: address, authority }); throw new Error('joined') },
        ChooseExport: async (format) => { window.hostCalls.push({ choose: format }); return { file: 'mattermost_export.zip', name: 'Acme' } },
        HostFromExport: (format, name) => { window.hostCalls.push({ import: format, name }); return new Promise((resolve) => { finishImport = resolve }) },
        IssuePassword: async (email) => { window.hostCalls.push({ issue: email }); return { email, password: 'issued-secret' } },
      },
    },
  }
}

test('first launch: host from an export, with progress, summary and a password; join by address', async () => {
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await page.addInitScript(bridge)
    // Served as the window serves it (app/welcome.go), so that the bridge's
    // script runs first.
    await page.route('http://welcome.test/', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: welcome }))
    await page.goto('http://welcome.test/')
    assert.deepEqual(await seriousViolations(page), [])

    await page.getByTestId('welcome-address').fill('http://192.168.1.20:9991')
    await page.getByTestId('welcome-join').click()
    await page.getByText('no team answers at http://192.168.1.20:9991').waitFor()

    await page.getByTestId('welcome-import-mattermost').check()
    await page.getByTestId('welcome-import').click()
    // The name field offers the export's own name.
    assert.equal(await page.getByTestId('welcome-import-name').inputValue(), 'Acme')
    await page.getByTestId('welcome-import-name').fill('Acme on the LAN')
    await page.getByTestId('welcome-import-host').click()
    await page.getByTestId('welcome-import-progress').waitFor()
    await page.evaluate(() => window.emitHostEvent('import:progress', { state: 'running', format: 'mattermost', phase: 'messages',
      records: 12400, bytes: 5.2e6, total_bytes: 13e6, remaining_seconds: 95 }))
    await page.getByText('12,400 records written · 5.2 MB of 13.0 MB · about 2 min left').waitFor()
    assert.equal(await page.getByTestId('welcome-import-host').isDisabled(), true)
    await shot(page, 'welcome-import-progress.png')

    await page.evaluate(() => window.finishImport({ state: 'done', format: 'mattermost', summary: { users: 14, streams: 6, messages: 31000,
      reactions: 820, files: 57, emoji: 3, user_groups: 2, linkifiers: 0,
      skipped: [{ record: 'posts[77]', reason: 'a reply to a post that is not in the export' }] } }))
    const summary = page.getByTestId('welcome-import-summary')
    await summary.waitFor()
    assert.equal(await page.locator('[data-testid=welcome-import-count][data-kind=Messages] td').textContent(), '31,000')
    await page.getByText('1 record was left out').click()
    await page.getByText('posts[77]: a reply to a post that is not in the export').waitFor()
    await page.getByTestId('welcome-claim-email').fill('olive@acme.test')
    await page.getByTestId('welcome-claim').click()
    await page.getByTestId('welcome-claimed').getByText('issued-secret').waitFor()
    assert.deepEqual(await seriousViolations(page), [])
    await shot(page, 'welcome-import-summary.png')
    assert.deepEqual(await page.evaluate(() => window.hostCalls),
      [{ check: 'http://192.168.1.20:9991' }, { choose: 'mattermost' }, { import: 'mattermost', name: 'Acme on the LAN' }, { issue: 'olive@acme.test' }])
  } finally {
    await browser.close()
  }
})

test('joining shows the address and the fingerprint to compare first; a listed team whose host presents another fingerprint is not joined', async () => {
  const browser = await launchBrowser()
  try {
    const page = await newPage(browser)
    await page.addInitScript(bridge)
    await page.addInitScript(() => {
      window.checks = {
        'https://10.0.0.5:9991': { url: 'https://10.0.0.5:9991', address: '10.0.0.5:9991', name: "Olive's Bakery", authority: '3F2A 9C01 77B4 E0D5' },
        // Announced with the real host's fingerprint; its host presents its own.
        'https://10.0.0.66:9991': { url: 'https://10.0.0.66:9991', address: '10.0.0.66:9991', name: "Olive's Bakery", authority: '0000 1111 2222 3333' },
        'http://10.0.0.7:9991': { url: 'http://10.0.0.7:9991', address: '10.0.0.7:9991', name: 'Workshop', authority: '' },
      }
    })
    await page.route('http://welcome.test/', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: welcome }))
    await page.goto('http://welcome.test/')
    await page.evaluate(() => window.emitHostEvent('teams', { error: '', teams: [
      { name: "Olive's Bakery", url: 'https://10.0.0.5:9991', authority: '3F2A 9C01 77B4 E0D5', conflict: true },
      { name: "Olive's Bakery", url: 'https://10.0.0.66:9991', authority: '3F2A 9C01 77B4 E0D5', conflict: false },
      { name: "Olive's Bakery", url: 'https://10.0.0.99:9991', authority: '4444 5555 6666 7777', conflict: true },
      { name: 'Workshop', url: 'http://10.0.0.7:9991', authority: '', conflict: false },
    ] }))
    const teams = page.getByTestId('welcome-team')
    await teams.nth(3).waitFor()
    assert.deepEqual(await teams.locator('small:not(.conflict)').allTextContents(), ['10.0.0.5:9991 · fingerprint 3F2A 9C01 77B4 E0D5',
      '10.0.0.66:9991 · fingerprint 3F2A 9C01 77B4 E0D5', '10.0.0.99:9991 · fingerprint 4444 5555 6666 7777', '10.0.0.7:9991 · plain HTTP, unverified'])
    assert.equal(await page.getByTestId('welcome-team-conflict').count(), 2)
    await shot(page, 'welcome-teams-conflict.png')

    // The real host: its address and fingerprint, to compare, then Join.
    await teams.nth(0).click()
    const confirm = page.getByTestId('welcome-confirm')
    await confirm.waitFor()
    assert.equal(await page.getByTestId('welcome-confirm-address').textContent(), '10.0.0.5:9991')
    assert.equal(await page.getByTestId('welcome-confirm-fingerprint').textContent(), '3F2A 9C01 77B4 E0D5')
    assert.equal(await page.getByTestId('welcome-confirm-mismatch').isHidden(), true)
    assert.equal(await page.getByTestId('welcome-confirm-plain').isHidden(), true)
    assert.deepEqual(await seriousViolations(page), [])
    await shot(page, 'welcome-confirm.png')
    await page.getByTestId('welcome-confirm-join').click()
    await page.getByText('joined').waitFor()

    // A spoofer announcing the real fingerprint: its host presents another.
    await teams.nth(1).click()
    await page.getByTestId('welcome-confirm-mismatch').waitFor()
    assert.match(await page.getByTestId('welcome-confirm-mismatch').textContent(),
      /announced with the fingerprint 3F2A 9C01 77B4 E0D5, but the host at 10\.0\.0\.66:9991 presents 0000 1111 2222 3333/)
    assert.equal(await page.getByTestId('welcome-confirm-join').isHidden(), true)

    // Plain HTTP: said so, nothing to compare.
    await teams.nth(3).click()
    await page.getByTestId('welcome-confirm-plain').waitFor()
    assert.equal(await page.getByTestId('welcome-confirm-fingerprint').isHidden(), true)
    assert.equal(await page.getByTestId('welcome-confirm-join').isHidden(), false)
    await page.getByTestId('welcome-confirm-cancel').click()
    assert.equal(await confirm.isHidden(), true)
    assert.deepEqual((await page.evaluate(() => window.hostCalls)).filter((c) => c.join), [{ join: 'https://10.0.0.5:9991', authority: '3F2A 9C01 77B4 E0D5' }])
  } finally {
    await browser.close()
  }
})
