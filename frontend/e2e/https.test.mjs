// HTTPS on the LAN with lanchatd's own certificate authority: Chromium,
// checking certificates as it does for anyone (ignoreHTTPSErrors: false),
// trusts the host once the authority offered over plain HTTP is in its
// certificate database (a temporary NSS database made with certutil, as a
// person's "install the certificate" step does), and only then.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchBrowser, signIn, startServer } from './harness.mjs'

// homeWithNSS is a HOME whose NSS database (Chromium's on Linux) trusts
// the given authority certificates as issuers of server certificates.
function homeWithNSS(authorities) {
  const home = mkdtempSync(join(tmpdir(), 'lanchat-home-'))
  const db = join(home, '.pki', 'nssdb')
  mkdirSync(db, { recursive: true })
  execFileSync('certutil', ['-N', '-d', `sql:${db}`, '--empty-password'])
  authorities.forEach((der, i) => {
    const file = join(home, `ca${i}.crt`)
    writeFileSync(file, der)
    execFileSync('certutil', ['-A', '-d', `sql:${db}`, '-n', `lanchat-${i}`, '-t', 'C,,', '-i', file])
  })
  return home
}

test('Chromium trusts the host over HTTPS once its authority is installed', async () => {
  const server = await startServer({ flags: ['--tls', 'auto'] })
  const secure = server.url.replace(/^http:/, 'https:')
  const homes = []
  try {
    const res = await fetch(`${server.url}/lanchat-ca.crt`)
    assert.equal(res.headers.get('content-type'), 'application/x-x509-ca-cert')
    const authority = Buffer.from(await res.arrayBuffer())

    // Without the authority the page does not open.
    homes.push(homeWithNSS([]))
    const stranger = await launchBrowser({ env: { ...process.env, HOME: homes[0] } })
    try {
      const page = await (await stranger.newContext({ ignoreHTTPSErrors: false })).newPage()
      await assert.rejects(page.goto(secure), /ERR_CERT_AUTHORITY_INVALID/)
    } finally {
      await stranger.close()
    }

    homes.push(homeWithNSS([authority]))
    const member = await launchBrowser({ env: { ...process.env, HOME: homes[1] } })
    try {
      const page = await (await member.newContext({ ignoreHTTPSErrors: false })).newPage()
      page.setDefaultTimeout(10000)
      await signIn(page, secure, 'alice@example.com')
      assert.deepEqual(await page.evaluate(() => [location.protocol, window.isSecureContext]), ['https:', true])
    } finally {
      await member.close()
    }
  } finally {
    homes.forEach((h) => rmSync(h, { recursive: true, force: true }))
    await server.stop()
  }
})
