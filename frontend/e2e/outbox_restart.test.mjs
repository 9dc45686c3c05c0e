// Sending never loses words: a message sent while the server is down waits
// in the outbox (kept in local storage, shown as waiting), and is delivered
// exactly once when the server is back, even across a reload of the page.
// The server is killed (SIGKILL, no goodbye) and started again on the same
// address and data.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiClient, eventually, lanchatd, launchBrowser, newPage, openTopicAt, signIn } from './harness.mjs'

const data = mkdtempSync(join(tmpdir(), 'lanchat-outbox-'))
let proc, url, browser

// freePort asks the system for a port nobody uses, to start the server on
// the same address twice.
const freePort = () => new Promise((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)) })
})

async function start(port) {
  proc = spawn(lanchatd, ['serve', '--addr', `127.0.0.1:${port}`, '--data', data, '--dev', '--login-failures', '-1'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`lanchatd did not start:\n${log}`)), 15000)
    proc.stderr.on('data', (c) => { log += c; if (/listening on http/.test(log)) { clearTimeout(timer); ok() } })
    proc.once('exit', (code) => fail(new Error(`lanchatd exited with ${code}:\n${log}`)))
  })
}

async function kill() {
  const exited = new Promise((r) => proc.once('exit', r))
  proc.kill('SIGKILL')
  await exited
}

let port
before(async () => {
  port = await freePort()
  url = `http://127.0.0.1:${port}`
  await start(port)
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
  if (proc?.exitCode === null) await kill()
  rmSync(data, { recursive: true, force: true })
})

test('a message sent while the server is killed waits in the outbox and is delivered exactly once after the restart', async () => {
  const alice = await newPage(browser)
  await signIn(alice, url, 'alice@example.com')
  const api = await apiClient(url, 'alice@example.com')
  const general = (await api.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  await openTopicAt(alice, general, 'general', 'outbox')
  await kill()
  await alice.getByTestId('compose-content').fill('Words that must not be lost')
  await alice.getByTestId('compose-send').click()
  // Shown at once, waiting; the compose box is free; kept in local storage.
  const echo = alice.getByTestId('outbox-message').filter({ hasText: 'Words that must not be lost' })
  await echo.waitFor()
  assert.match(await echo.getByTestId('outbox-sending').textContent(), /^(sending…|waiting for the server…)$/) // Zulip's local echo
  assert.equal(await alice.getByTestId('compose-content').inputValue(), '')
  const kept = await alice.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('lanchat.outbox.')).map(([, v]) => JSON.parse(v)).flat())
  assert.deepEqual(kept.map((i) => i.content), ['Words that must not be lost'])
  // A second one while it is still down: both go, in order.
  await alice.getByTestId('compose-content').fill('And these too')
  await alice.getByTestId('compose-send').click()
  await alice.getByTestId('outbox-message').nth(1).waitFor()
  await start(port)
  const messages = alice.getByTestId('message')
  await messages.filter({ hasText: 'Words that must not be lost' }).waitFor({ timeout: 30000 })
  await messages.filter({ hasText: 'And these too' }).waitFor({ timeout: 30000 })
  await eventually(async () => assert.equal(await alice.getByTestId('outbox-message').count(), 0))
  // Once, even after the page has had time to retry, and after a reload.
  await new Promise((r) => setTimeout(r, 2000))
  await alice.reload()
  await messages.filter({ hasText: 'And these too' }).waitFor()
  const sent = await api.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [['stream', 'general'], ['topic', 'outbox']], apply_markdown: false })
  assert.deepEqual(sent.messages.map((m) => m.content), ['Words that must not be lost', 'And these too'])
  assert.equal(await alice.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('lanchat.outbox.') && JSON.parse(localStorage[k]).length).length), 0)
})

test('a message in the outbox of a page reloaded while the server is down is sent once the server is back', async () => {
  const bob = await newPage(browser)
  await signIn(bob, url, 'bob@example.com')
  const api = await apiClient(url, 'bob@example.com')
  const general = (await api.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  await openTopicAt(bob, general, 'general', 'outbox reload')
  await kill()
  await bob.getByTestId('compose-content').fill('Typed before the reload')
  await bob.getByTestId('compose-send').click()
  await bob.getByTestId('outbox-message').waitFor()
  // Reloaded while the server is down: the browser shows its own error page.
  await bob.reload().catch(() => {})
  await start(port)
  await bob.goto(`${url}/#narrow/channel/${general}-general/topic/outbox.20reload`)
  const again = bob
  await again.getByTestId('message').filter({ hasText: 'Typed before the reload' }).waitFor({ timeout: 30000 })
  await new Promise((r) => setTimeout(r, 1500))
  const sent = await api.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [['stream', 'general'], ['topic', 'outbox reload']], apply_markdown: false })
  assert.deepEqual(sent.messages.map((m) => m.content), ['Typed before the reload'])
})

test('a message the server refuses stays in the outbox with the reason, to edit, retry or discard', async () => {
  const page = await newPage(browser)
  await signIn(page, url, 'alice@example.com')
  await page.getByTestId('compose-stream').fill('no-such-stream')
  await page.getByTestId('compose-topic').fill('t')
  await page.getByTestId('compose-content').fill('Into the void')
  await page.getByTestId('compose-send').click()
  const unsent = page.getByTestId('compose-unsent')
  await unsent.filter({ hasText: 'no-such-stream' }).waitFor()
  await unsent.getByTestId('unsent-edit').click()
  assert.equal(await page.getByTestId('compose-content').inputValue(), 'Into the void')
  assert.equal(await unsent.count(), 0)
})

test('a conversation opened while the server is down loads once the server is back', async () => {
  const carol = await newPage(browser)
  await signIn(carol, url, 'alice@example.com')
  const api = await apiClient(url, 'alice@example.com')
  const general = (await api.call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  await api.send('general', 'opened while away', 'Here before the host went')
  await kill()
  // The conversation's first page fails: the server is away.
  await carol.evaluate((hash) => { location.hash = hash }, `#narrow/channel/${general}-general/topic/opened.20while.20away`)
  await new Promise((r) => setTimeout(r, 1500))
  await start(port)
  // Its events resume (a message comes), and the conversation shows whole.
  await api.send('general', 'opened while away', 'Sent once it was back')
  await carol.getByTestId('message').filter({ hasText: 'Sent once it was back' }).waitFor({ timeout: 30000 })
  await carol.getByTestId('message').filter({ hasText: 'Here before the host went' }).waitFor()
})
