// Test harness: a real lanchatd on a free loopback port with a fresh data
// directory, Debian's Chromium driven by playwright-core, and small API
// helpers for the other side of a conversation.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, mkdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crc32 } from 'node:zlib'
import { chromium } from 'playwright-core'

const here = dirname(fileURLToPath(import.meta.url))
export const lanchatd = process.env.LANCHATD ?? resolve(here, '../../build/bin/lanchatd')
export const screenshotDir = resolve(here, '../../docs/screenshots')
export const password = 'lanchat-dev'

// startServer runs lanchatd (with extra flags, if any) and resolves once it
// prints its address (and, on an empty store without --dev, its first-run
// setup address).
export async function startServer({ dev = true, flags = [] } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'lanchat-e2e-'))
  const args = ['serve', '--addr', '127.0.0.1:0', '--data', data, '--login-failures', '-1', ...flags]
  if (dev) args.push('--dev')
  const proc = spawn(lanchatd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  const ready = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`lanchatd did not start:\n${log}`)), 15000)
    proc.stderr.on('data', (chunk) => {
      log += chunk
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1]
      if (url && (dev || /open (http\S+#setup=\S+)/.test(log))) {
        clearTimeout(timer)
        ok({ url, setupUrl: /open (http\S+#setup=\S+)/.exec(log)?.[1] })
      }
    })
    proc.on('exit', (code) => fail(new Error(`lanchatd exited with ${code}:\n${log}`)))
  })
  const { url, setupUrl } = await ready
  return {
    url, setupUrl, data,
    async stop() {
      proc.kill('SIGTERM')
      await new Promise((r) => proc.once('exit', r))
      rmSync(data, { recursive: true, force: true })
    },
  }
}

// launchBrowser starts Chromium; env replaces its environment (a HOME
// with its own certificate database, for instance).
export async function launchBrowser({ env } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    env,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
}

export async function newPage(browser, { colorScheme = 'light', timezoneId } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme, timezoneId })
  const page = await context.newPage()
  page.setDefaultTimeout(10000)
  return page
}

export async function signIn(page, url, email) {
  await page.goto(url)
  await page.getByTestId('login-email').fill(email)
  await page.getByTestId('login-password').fill(password)
  await page.getByTestId('login-submit').click()
  await page.getByTestId('stream-list').waitFor()
}

// signedInPages opens a desktop-sized page for each email, signed in.
export async function signedInPages(browser, url, ...emails) {
  const pages = []
  for (const email of emails) {
    const page = await newPage(browser)
    await signIn(page, url, email)
    pages.push(page)
  }
  return pages
}

// phonePage opens a phone-sized touch page (390×844) signed in as email; on
// a phone, signing in lands on Inbox (Zulip's home view).
export async function phonePage(browser, url, email) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 })
  const page = await context.newPage()
  page.setDefaultTimeout(10000)
  await page.goto(url)
  await page.getByTestId('login-email').fill(email)
  await page.getByTestId('login-password').fill(password)
  await page.getByTestId('login-submit').click()
  await page.getByTestId('inbox-view').waitFor()
  return page
}

// startSession starts a server and a browser and signs each of emails in
// on a page of its own; stop() ends both.
export async function startSession(emails) {
  const server = await startServer()
  const browser = await launchBrowser()
  const pages = await signedInPages(browser, server.url, ...emails)
  return { server, browser, pages, async stop() { await browser.close(); await server.stop() } }
}

// fillSetup fills in first-run setup at a server's setup address, with the owner
// Olive Owner, up to the submit button (the setup test shoots the form).
export async function fillSetup(page, setupUrl, orgName) {
  await page.goto(setupUrl)
  await page.getByTestId('setup-org').fill(orgName)
  await page.getByTestId('setup-name').fill('Olive Owner')
  await page.getByTestId('setup-email').fill('olive@acme.test')
  await page.getByTestId('setup-password').fill('correct horse battery')
}

// openTopicAt narrows a page to a stream's topic by its address, and waits until it shows.
export async function openTopicAt(page, streamId, stream, topic) {
  await page.evaluate((h) => { location.hash = h }, `#narrow/channel/${streamId}-${stream}/topic/${encodeURIComponent(topic)}`)
  await page.getByTestId('narrow-title').filter({ hasText: topic }).waitFor()
}

// sendImage uploads a 192-pixel PNG under name from the page's compose box,
// sends it, and returns the preview in the last message.
export async function sendImage(page, name) {
  await page.getByTestId('compose-upload').setInputFiles({ name, mimeType: 'image/png', buffer: readFileSync(resolve(here, '../public/icons/icon-192.png')) })
  const content = page.getByTestId('compose-content')
  await eventually(async () => { if (!(await content.inputValue()).includes(`[${name}](/user_uploads/`)) throw new Error(`${name} is not linked yet`) })
  await page.getByTestId('compose-send').click()
  const preview = page.getByTestId('message').last().locator('.message_inline_image img')
  await preview.waitFor()
  return preview
}

export async function shot(page, name) {
  mkdirSync(screenshotDir, { recursive: true })
  await page.screenshot({ path: join(screenshotDir, name) })
}

// apiClient speaks the API as a bot or another user would.
export async function apiClient(url, email) {
  const key = await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password }) })
    .then((r) => r.json()).then((r) => r.api_key)
  const auth = 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64')
  const call = async (method, path, params = {}) => {
    const form = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v))
    const q = method === 'GET' ? `?${form}` : ''
    const r = await fetch(`${url}${path}${q}`, { method, headers: { Authorization: auth }, body: method === 'GET' ? undefined : form })
    const body = await r.json()
    if (body.result !== 'success') throw new Error(`${method} ${path}: ${body.msg}`)
    return body
  }
  return {
    call,
    send: (stream, topic, content) => call('POST', '/api/v1/messages', { type: 'stream', to: stream, topic, content }),
  }
}

// eventually retries an assertion until it passes or the time is up.
export async function eventually(check, timeout = 10000) {
  const until = Date.now() + timeout
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() > until) throw e
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

// seriousViolations runs axe-core in the page and returns its serious and
// critical findings, each as "rule: target".
const axeSource = readFileSync(resolve(here, 'node_modules/axe-core/axe.min.js'), 'utf8')
export async function seriousViolations(page) {
  // Evaluated through the debugging protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const found = await page.evaluate(async () => (await window.axe.run(document)).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`)))
  return found
}

// zipFiles packs files ({name: string|Buffer}) into a zip archive, stored
// uncompressed: enough for an export archive to import.
export function zipFiles(files) {
  const locals = []
  const centrals = []
  let offset = 0
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content)
    const fileName = Buffer.from(name)
    const crc = crc32(data)
    // Version 2.0, no flags, stored, no time, CRC, sizes, name length, no extra.
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0); head.writeUInt16LE(20, 4); head.writeUInt32LE(crc, 14)
    head.writeUInt32LE(data.length, 18); head.writeUInt32LE(data.length, 22); head.writeUInt16LE(fileName.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(head, fileName, data)
    centrals.push(central, fileName)
    offset += head.length + fileName.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(centrals.length / 2, 8); end.writeUInt16LE(centrals.length / 2, 10)
  end.writeUInt32LE(directory.length, 12); end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
