// Streams and people, as a Zulip user finds them: the stream browser and
// stream creation, previewing a stream one is not in, stream settings, the
// user card and people search, and the settings and administration pages;
// axe-core finds no serious or critical problem in any of them.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, seriousViolations, shot, signIn, startServer } from './harness.mjs'

let server, browser, admin, bob, adminApi, bobApi, aliceApi

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
  admin = await newPage(browser)
  bob = await newPage(browser)
  await signIn(admin, server.url, 'admin@example.com')
  await signIn(bob, server.url, 'bob@example.com')
  adminApi = await apiClient(server.url, 'admin@example.com')
  bobApi = await apiClient(server.url, 'bob@example.com')
  aliceApi = await apiClient(server.url, 'alice@example.com')
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

// A one-pixel PNG, for avatar and emoji uploads.
const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const sidebarStream = (page, name) => page.locator(`[data-testid=stream-row][data-stream="${name}"]`)
const browsed = (page, name) => page.locator(`[data-testid=browse-stream][data-stream="${name}"]`)

async function subscribedNames(client) {
  return (await client.call('GET', '/api/v1/users/me/subscriptions')).subscriptions.map((s) => s.name).sort()
}

test('the stream browser lists every visible stream; subscribe, unsubscribe and create by name', async () => {
  await bob.getByTestId('browse-streams').click()
  const browser = bob.getByTestId('stream-browser')
  await browser.waitFor()
  assert.equal(await browsed(bob, 'random').getAttribute('data-subscribed'), 'false')
  assert.equal(await browsed(bob, 'general').getAttribute('data-subscribed'), 'true')
  // Each stream's subscriber count (Zulip 9.0's stream objects have none: GET /streams/{id}/members).
  const general = (await bobApi.call('GET', '/api/v1/streams')).streams.find((s) => s.name === 'general').stream_id
  const members = (await bobApi.call('GET', `/api/v1/streams/${general}/members`)).subscribers.length
  await eventually(async () => assert.equal(await browsed(bob, 'general').getByTestId('browse-count').textContent(), `${members} subscribers`))
  assert.deepEqual(await seriousViolations(bob), [])
  await shot(bob, 'stream-browser.png')

  // Subscribing by keyboard: the button takes focus and Enter presses it.
  await browsed(bob, 'random').getByTestId('browse-toggle').focus()
  await bob.keyboard.press('Enter')
  await eventually(async () => assert.equal(await browsed(bob, 'random').getAttribute('data-subscribed'), 'true'))
  await sidebarStream(bob, 'random').waitFor()
  assert.deepEqual(await subscribedNames(bobApi), ['general', 'random'])

  await bob.getByTestId('streams-tab-subscribed').click()
  await browsed(bob, 'random').getByTestId('browse-toggle').click()
  await browsed(bob, 'random').waitFor({ state: 'detached' })
  await sidebarStream(bob, 'random').waitFor({ state: 'detached' })

  // Filtering by name or description.
  await bob.getByTestId('streams-tab-all').click()
  await bob.getByTestId('browse-filter').fill('anything goes')
  assert.deepEqual(await bob.getByTestId('browse-stream').evaluateAll((rows) => rows.map((r) => r.dataset.stream)), ['random'])
  await bob.getByTestId('browse-filter').fill('')

  // A private stream with a description, Alice chosen by name.
  await bob.getByTestId('streams-tab-create').click()
  await bob.getByTestId('create-stream-name').fill('design')
  await bob.getByTestId('create-stream-description').fill('Pixels and fonts')
  await bob.getByTestId('create-stream-private').check()
  await bob.getByTestId('create-stream-find').fill('ali')
  assert.deepEqual(await bob.getByTestId('create-stream-member').evaluateAll((rows) => rows.map((r) => r.dataset.email)), ['alice@example.com'])
  await bob.locator('[data-testid=create-stream-member][data-email="alice@example.com"] input').check()
  assert.deepEqual(await seriousViolations(bob), [])
  await bob.getByTestId('create-stream-submit').click()
  await bob.getByTestId('narrow-title').filter({ hasText: '#design' }).waitFor()
  await sidebarStream(bob, 'design').waitFor()
  assert.ok((await subscribedNames(aliceApi)).includes('design'))
  const design = (await aliceApi.call('GET', '/api/v1/users/me/subscriptions')).subscriptions.find((s) => s.name === 'design')
  assert.equal(design.invite_only, true)
  assert.equal(design.description, 'Pixels and fonts')

  // A taken name is refused in words, not codes.
  await bob.getByTestId('browse-streams').click()
  await bob.getByTestId('streams-tab-create').click()
  await bob.getByTestId('create-stream-submit').click()
  assert.equal(await bob.getByTestId('create-stream-error').textContent(), 'Give the stream a name.')
  await bob.keyboard.press('Escape')
})

test('a link to a stream one is not in shows its messages and a Subscribe button', async () => {
  await aliceApi.send('random', 'plans', 'Preview me, please')
  await bob.goto(`${server.url}/#narrow/stream/2-random`)
  await bob.getByTestId('message').filter({ hasText: 'Preview me, please' }).waitFor()
  await bob.getByTestId('stream-preview').waitFor()
  assert.equal(await bob.getByText('No messages here yet.').count(), 0)
  await bob.getByTestId('preview-subscribe').click()
  await bob.getByTestId('stream-preview').waitFor({ state: 'detached' })
  await sidebarStream(bob, 'random').waitFor()
})

test('stream settings: one\'s color, mute, pin and notifications; name, description and privacy for administrators', async () => {
  await sidebarStream(bob, 'random').hover()
  await sidebarStream(bob, 'random').getByTestId('row-menu').click()
  await bob.getByTestId('stream-settings-open').click()
  const panel = bob.getByTestId('stream-settings')
  await panel.waitFor()
  assert.equal(await bob.getByTestId('stream-name').count(), 0) // not an administrator
  await bob.getByTestId('stream-color').evaluate((el) => { el.value = '#336699'; el.dispatchEvent(new Event('change', { bubbles: true })) })
  await bob.getByTestId('stream-pin_to_top').check()
  await bob.getByTestId('stream-desktop_notifications').check()
  await bob.getByTestId('stream-is_muted').check()
  await eventually(async () => {
    const sub = (await bobApi.call('GET', '/api/v1/users/me/subscriptions')).subscriptions.find((s) => s.name === 'random')
    assert.deepEqual([sub.color, sub.pin_to_top, sub.desktop_notifications, sub.is_muted], ['#336699', true, true, true])
  })
  // Pinned streams come first in the left bar.
  await eventually(async () => assert.equal(await bob.getByTestId('stream-row').first().getAttribute('data-stream'), 'random'))
  await bob.keyboard.press('Escape')
  await panel.waitFor({ state: 'detached' })

  await sidebarStream(admin, 'random').hover()
  await sidebarStream(admin, 'random').getByTestId('row-menu').click()
  await admin.getByTestId('stream-settings-open').click()
  await admin.getByTestId('stream-settings').waitFor()
  await admin.getByTestId('stream-description').fill('Off-topic chatter')
  assert.deepEqual(await seriousViolations(admin), [])
  await shot(admin, 'stream-settings.png')
  await admin.getByTestId('stream-save').click()
  await admin.getByTestId('stream-settings-status').filter({ hasText: 'Saved.' }).waitFor()
  await admin.getByTestId('stream-name').fill('watercooler')
  await admin.getByTestId('stream-save').click()
  await sidebarStream(bob, 'watercooler').waitFor()
  const stream = (await bobApi.call('GET', '/api/v1/streams')).streams.find((s) => s.stream_id === 2)
  assert.deepEqual([stream.name, stream.description], ['watercooler', 'Off-topic chatter'])
  await admin.keyboard.press('Escape')

  // Archiving asks first, then the stream leaves everyone's list.
  await adminApi.call('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'scratch' }] })
  await sidebarStream(admin, 'scratch').hover()
  await sidebarStream(admin, 'scratch').getByTestId('row-menu').click()
  await admin.getByTestId('stream-settings-open').click()
  await admin.getByTestId('stream-private').check()
  await admin.getByTestId('stream-save').click()
  await eventually(async () => assert.equal(await sidebarStream(admin, 'scratch').locator('.swatch').textContent(), '🔒'))
  await admin.getByTestId('stream-archive').click()
  await admin.getByTestId('stream-archive-confirm').click()
  await admin.getByTestId('stream-settings').waitFor({ state: 'detached' })
  await sidebarStream(admin, 'scratch').waitFor({ state: 'detached' })
  assert.equal((await adminApi.call('GET', '/api/v1/streams')).streams.some((s) => s.name === 'scratch'), false)
})

test('a user card opens from a name, an avatar or the people list, and leads to their messages', async () => {
  await bobApi.call('PATCH', '/api/v1/settings', { timezone: 'Asia/Tokyo' })
  await bobApi.send('general', 'cards', 'Who am I?')
  await admin.goto(`${server.url}/#narrow/stream/1-general/topic/cards`)
  const msg = admin.getByTestId('message').filter({ hasText: 'Who am I?' })
  await msg.getByTestId('message-sender').click()
  const card = admin.getByTestId('user-card')
  await card.waitFor()
  assert.equal(await admin.getByTestId('user-card-name').textContent(), 'Bob Brown')
  assert.equal(await admin.getByTestId('user-card-email').textContent(), 'bob@example.com')
  assert.equal(await admin.getByTestId('user-card-role').textContent(), 'Member')
  assert.match(await admin.getByTestId('user-card-presence').textContent(), /Active now/)
  const tokyo = new Date().toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Tokyo' })
  await eventually(async () => assert.match(await admin.getByTestId('user-card-time').textContent(), new RegExp(`${tokyo.slice(0, 2)}.*Asia/Tokyo`)))
  assert.deepEqual(await seriousViolations(admin), [])
  await shot(admin, 'user-card.png')
  await admin.keyboard.press('Escape')
  await card.waitFor({ state: 'detached' })

  // The avatar opens it too; "Send a direct message" opens the conversation.
  await msg.locator('img.avatar').click()
  await admin.getByTestId('user-card-dm').click()
  await admin.getByTestId('narrow-title').filter({ hasText: 'Direct messages with Bob Brown' }).waitFor()
  assert.match(await admin.evaluate(() => location.hash), /^#narrow\/dm\/bob/)
  assert.equal(await card.count(), 0)

  // People search narrows the right bar; a person's name opens the direct
  // messages with them (Enter on it too), their ⋮ their card, as in Zulip.
  await admin.locator('[data-testid=buddy-row][data-email="alice@example.com"]').getByTestId('buddy-dm').click()
  await admin.getByTestId('narrow-title').filter({ hasText: 'Direct messages with Alice Anders' }).waitFor()
  assert.equal(await card.count(), 0)
  await admin.getByTestId('people-search').fill('bob')
  assert.deepEqual(await admin.getByTestId('buddy-row').evaluateAll((rows) => rows.map((r) => r.dataset.email)), ['bob@example.com'])
  await admin.getByTestId('people-search').press('Tab')
  await admin.keyboard.press('Enter')
  await admin.getByTestId('narrow-title').filter({ hasText: 'Direct messages with Bob Brown' }).waitFor()
  assert.match(await admin.evaluate(() => location.hash), /^#narrow\/dm\/bob/)
  assert.equal(await card.count(), 0)
  await admin.getByTestId('buddy-profile').click()
  await card.waitFor()
  assert.equal(await admin.getByTestId('user-card-name').textContent(), 'Bob Brown')
  await admin.getByTestId('user-card-messages').click()
  await admin.getByTestId('narrow-title').filter({ hasText: 'sender:bob@example.com' }).waitFor()
  await admin.getByTestId('message').filter({ hasText: 'Who am I?' }).waitFor()
  assert.deepEqual([...new Set(await admin.getByTestId('message').evaluateAll((ms) => ms.map((m) => m.dataset.senderEmail)))], ['bob@example.com'])
  await admin.getByTestId('people-search').fill('nobody at all')
  await admin.getByText('Nobody matches.').waitFor()
  await admin.getByTestId('people-search').fill('')
})

test('settings: profile, password, notifications and a theme that follows the account', async () => {
  await bob.getByTestId('settings-button').click()
  await bob.getByTestId('settings-tab-profile').click()
  await bob.getByTestId('profile-name').fill('Bobby Brown')
  await bob.getByTestId('profile-name-save').click()
  await bob.getByTestId('settings-status').filter({ hasText: 'Name saved.' }).waitFor()
  assert.equal((await bobApi.call('GET', '/api/v1/users/me')).full_name, 'Bobby Brown')
  await bob.getByTestId('avatar-upload').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pixel })
  await bob.getByTestId('settings-status').filter({ hasText: 'Avatar updated.' }).waitFor()
  assert.equal((await bobApi.call('GET', '/api/v1/users/me')).avatar_version > 0, true)
  await bob.getByTestId('profile-timezone').selectOption('Europe/Paris')
  await bob.getByTestId('settings-status').filter({ hasText: 'Time zone saved.' }).waitFor()
  assert.equal((await bobApi.call('GET', '/api/v1/users/me')).timezone, 'Europe/Paris')

  // A wrong current password is answered in plain words.
  await bob.getByTestId('password-old').fill('not my password')
  await bob.getByTestId('password-new').fill('new-secret')
  await bob.getByTestId('password-save').click()
  assert.equal(await bob.getByTestId('settings-status').textContent(), 'The current password is wrong. Type it again.')
  await shot(bob, 'settings-profile.png')
  assert.deepEqual(await seriousViolations(bob), [])

  await bob.getByTestId('settings-tab-notifications').click()
  assert.equal(await bob.getByTestId('setting-enable_sounds').isChecked(), true)
  await bob.getByTestId('setting-enable_sounds').uncheck()
  await eventually(async () => {
    const state = await bobApi.call('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] })
    assert.equal(state.user_settings.enable_sounds, false)
  })
  await eventually(async () => assert.equal(await bob.getByTestId('setting-enable_sounds').isChecked(), false))

  // Dark here, dark in a fresh browser with no local storage.
  await bob.getByTestId('settings-tab-preferences').click()
  await bob.getByTestId('theme-toggle').click()
  await eventually(async () => assert.equal(await bob.evaluate(() => document.documentElement.dataset.theme), 'dark'))
  await bob.keyboard.press('Escape')
  const elsewhere = await newPage(browser, { colorScheme: 'light' })
  await signIn(elsewhere, server.url, 'bob@example.com')
  await eventually(async () => assert.equal(await elsewhere.evaluate(() => document.documentElement.dataset.theme), 'dark'))
  await elsewhere.context().close()
  await bob.getByTestId('settings-button').click()
  await bob.getByTestId('theme-toggle').click()
  await bob.keyboard.press('Escape')
  assert.equal(await bob.getByTestId('settings-tab-users').count(), 0) // administrators only
})

test('administration: organization, users, linkifiers, custom emoji and bots', async () => {
  await admin.getByTestId('settings-button').click()
  await admin.getByTestId('settings-tab-organization').click()
  await admin.getByTestId('org-name').fill('Lanchat Team')
  await admin.getByTestId('org-description').fill('Where the team talks.')
  await admin.getByTestId('org-save').click()
  await admin.getByTestId('settings-status').filter({ hasText: 'Organization saved.' }).waitFor()
  const realm = await (await fetch(`${server.url}/api/v1/server_settings`)).json()
  assert.deepEqual([realm.realm_name, realm.realm_description], ['Lanchat Team', 'Where the team talks.'])
  await eventually(async () => assert.match(await bob.title(), /Lanchat Team/))
  // A group-based permission, set to a system group and shown as the server has it.
  const permission = admin.getByTestId('permission-can_create_public_channel_group')
  assert.equal(await permission.inputValue(), 'role:members')
  await permission.selectOption('role:moderators')
  await admin.getByTestId('settings-status').filter({ hasText: 'Permission saved.' }).waitFor()
  const groups = (await adminApi.call('GET', '/api/v1/user_groups')).user_groups
  const setting = async () => (await adminApi.call('POST', '/api/v1/register', { fetch_event_types: ['realm'] })).realm_can_create_public_channel_group
  assert.equal(await setting(), groups.find((g) => g.name === 'role:moderators').id)
  await eventually(async () => assert.equal(await permission.inputValue(), 'role:moderators')) // the realm event reached the page
  await permission.selectOption('role:members')
  await eventually(async () => assert.equal(await setting(), groups.find((g) => g.name === 'role:members').id))

  await admin.getByTestId('settings-tab-users').click()
  await admin.getByTestId('new-user-name').fill('Carol Cole')
  await admin.getByTestId('new-user-email').fill('carol@example.com')
  await admin.getByTestId('new-user-password').fill('carol-pass')
  await admin.getByTestId('new-user-submit').click()
  const carol = admin.locator('[data-testid=admin-user][data-email="carol@example.com"]')
  await carol.waitFor()
  await carol.getByTestId('admin-user-role').selectOption('300')
  await eventually(async () => assert.equal((await adminApi.call('GET', '/api/v1/users')).members.find((u) => u.email === 'carol@example.com').role, 300))
  await carol.getByTestId('admin-user-deactivate').click()
  await admin.getByTestId('deactivate-confirm-button').click()
  await eventually(async () => assert.equal(await carol.getAttribute('data-active'), 'false'))
  assert.deepEqual(await seriousViolations(admin), [])
  await shot(admin, 'settings-admin.png')
  // The same address again is refused, in words.
  await admin.getByTestId('new-user-name').fill('Carol Again')
  await admin.getByTestId('new-user-email').fill('carol@example.com')
  await admin.getByTestId('new-user-password').fill('carol-pass')
  await admin.getByTestId('new-user-submit').click()
  await admin.locator('[data-testid=settings-status].form-error').waitFor()
  assert.equal(await admin.getByTestId('settings-status').textContent(), "Email 'carol@example.com' already in use. Use a different one.")
  await carol.getByTestId('admin-user-reactivate').click()
  await eventually(async () => assert.equal(await carol.getAttribute('data-active'), 'true'))
  // A person with no password (or a forgotten one) is given one.
  await carol.getByTestId('admin-user-password').click()
  const issued = (await admin.getByTestId('admin-issued-password').locator('code').textContent())
  const signedIn = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'carol@example.com', password: issued }) })
  assert.equal(signedIn.status, 200)
  await admin.getByTestId('users-filter').fill('carol')
  assert.deepEqual(await admin.getByTestId('admin-user').evaluateAll((rows) => rows.map((r) => r.dataset.email)), ['carol@example.com'])
  await admin.getByTestId('users-filter').fill('')

  await admin.getByTestId('settings-tab-linkifiers').click()
  await admin.getByTestId('linkifier-pattern').fill('#(?P<id>[0-9]+)')
  await admin.getByTestId('linkifier-template').fill('https://tracker.example/{id}')
  await admin.getByTestId('linkifier-add').click()
  await admin.getByTestId('linkifier').filter({ hasText: 'tracker.example' }).waitFor()
  await bobApi.send('general', 'cards', 'See #42')
  const linked = (await bobApi.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).messages[0]
  assert.match(linked.content, /href="https:\/\/tracker\.example\/42"/)
  await admin.getByTestId('linkifier-delete').click()
  await admin.getByTestId('linkifier').waitFor({ state: 'detached' })

  await admin.getByTestId('settings-tab-preferences').click()
  await admin.getByTestId('emoji-upload-name').fill('party_parrot')
  await admin.getByTestId('emoji-upload-file').setInputFiles({ name: 'p.png', mimeType: 'image/png', buffer: pixel })
  await admin.getByTestId('emoji-upload-submit').click()
  await admin.getByTestId('settings-tab-emoji').click()
  await admin.locator('[data-testid=admin-emoji][data-emoji-name=party_parrot]').getByTestId('admin-emoji-remove').click()
  await admin.locator('[data-testid=admin-emoji][data-emoji-name=party_parrot]').waitFor({ state: 'detached' })

  await admin.getByTestId('settings-tab-bots').click()
  await admin.getByTestId('bot-name').fill('Deploy Bot')
  await admin.getByTestId('bot-short-name').fill('deploy')
  await admin.getByTestId('bot-create').click()
  const bot = admin.getByTestId('bot').filter({ hasText: 'Deploy Bot' })
  await bot.waitFor()
  const key = await bot.getByTestId('bot-key').textContent()
  assert.match(key, /^\w{20,}$/)
  await bot.getByTestId('bot-regenerate').click()
  await eventually(async () => assert.notEqual(await bot.getByTestId('bot-key').textContent(), key))
  const email = await bot.getAttribute('data-email')
  const fresh = await bot.getByTestId('bot-key').textContent()
  const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { Authorization: 'Basic ' + Buffer.from(`${email}:${fresh}`).toString('base64') } })
  assert.equal(me.status, 200)
  await admin.keyboard.press('Escape')
})
