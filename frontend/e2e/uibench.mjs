// The UI's weight and speed, for `make bench` (not a test: it asserts
// nothing and prints a Markdown section). Against a real lanchatd on
// loopback, in Debian's Chromium:
//   - first load: bytes on the wire (compressed, headers included) for the
//     sign-in page, its script, style and everything it fetches, cold cache;
//   - message list: from navigation to a topic's first message on screen,
//     signed in, cold cache, median of several runs.
import { apiClient, launchBrowser, signIn, startServer } from './harness.mjs'

const runs = Number(process.env.UIBENCH_RUNS ?? 9)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const server = await startServer()
const browser = await launchBrowser()
try {
  const general = (await (await apiClient(server.url, 'alice@example.com')).call('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id
  const bytes = []
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    let total = 0
    cdp.on('Network.loadingFinished', (e) => { total += e.encodedDataLength })
    await page.goto(server.url, { waitUntil: 'networkidle' })
    await page.getByTestId('login-email').waitFor()
    bytes.push(total)
    await context.close()
  }
  const times = []
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await signIn(page, server.url, 'alice@example.com')
    await page.goto('about:blank')
    await page.goto(`${server.url}/#narrow/channel/${general}-general/topic/lunch`, { waitUntil: 'commit' })
    // Measured in the page, from the navigation's start to the first frame
    // that has a message in it.
    times.push(Math.round(await (await page.waitForFunction(() => document.querySelector('[data-testid=message]') && performance.now(), null, { polling: 'raf' })).jsonValue()))
    await context.close()
  }
  console.log('## Web UI weight and speed\n')
  console.log(`\`make bench\` (frontend/e2e/uibench.mjs), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${runs} runs each, Chromium on loopback, cold cache:\n`)
  console.log('| figure | median | min | max | target |')
  console.log('|---|---|---|---|---|')
  console.log(`| first load on the wire (sign-in page and all it fetches) | ${(median(bytes) / 1024).toFixed(1)} KB | ${(Math.min(...bytes) / 1024).toFixed(1)} KB | ${(Math.max(...bytes) / 1024).toFixed(1)} KB | ≤ 60 KB |`)
  console.log(`| navigation to a topic's messages on screen (signed in) | ${median(times)} ms | ${Math.min(...times)} ms | ${Math.max(...times)} ms | ≤ 300 ms |`)
} finally {
  await browser.close()
  await server.stop()
}
