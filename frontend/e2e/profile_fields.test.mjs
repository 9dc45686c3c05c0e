// Custom profile fields in Chromium against a real lanchatd: an
// administrator adds them in the organization's settings, a person fills
// them in under Settings › Profile, and others see them on the user card.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, eventually, launchBrowser, newPage, shot, signIn, startServer } from './harness.mjs'

let server, browser

before(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

test('an administrator adds fields, bob fills them in, alice sees them on his card', async () => {
  const admin = await newPage(browser)
  await signIn(admin, server.url, 'admin@example.com')
  await admin.getByTestId('settings-button').click()
  await admin.getByTestId('settings-tab-profile-fields').click()
  await admin.getByTestId('profile-field-name').fill('Desk')
  await admin.getByTestId('profile-field-hint').fill('Floor and room')
  await admin.getByTestId('profile-field-new-required').check()
  await admin.getByTestId('profile-field-add').click()
  await admin.getByTestId('profile-field-row').filter({ hasText: 'Desk' }).waitFor()
  await admin.getByTestId('profile-field-type').selectOption('3')
  await admin.getByTestId('profile-field-name').fill('Team')
  await admin.getByTestId('profile-field-options').fill('Kitchen\nFront desk')
  await admin.getByTestId('profile-field-add').click()
  await admin.getByTestId('profile-field-row').filter({ hasText: 'Team' }).waitFor()
  // A bad field is refused in plain words, not added.
  await admin.getByTestId('profile-field-type').selectOption('1')
  await admin.getByTestId('profile-field-name').fill('Desk')
  await admin.getByTestId('profile-field-add').click()
  assert.match(await admin.getByTestId('settings-status').textContent(), /already exists/)
  await admin.getByRole('button', { name: 'Move Team up' }).click()
  await eventually(async () => assert.deepEqual(
    (await admin.getByTestId('profile-field-row').allTextContents()).map((t) => t.split(/List|Short/)[0]),
    ['Team', 'DeskFloor and room']))
  await shot(admin, 'settings-profile-fields.png')
  const fields = (await (await apiClient(server.url, 'admin@example.com')).call('GET', '/api/v1/realm/profile_fields')).custom_fields
  assert.deepEqual(fields.map((f) => [f.name, f.type, f.required]), [['Team', 3, false], ['Desk', 1, true]])
  const [team, desk] = fields

  const bob = await newPage(browser)
  await signIn(bob, server.url, 'bob@example.com')
  await bob.getByTestId('settings-button').click()
  await bob.getByTestId('settings-tab-profile').click()
  await bob.getByTestId(`profile-field-${desk.id}`).fill('3rd floor, room 12')
  await bob.getByTestId(`profile-field-${team.id}`).selectOption({ label: 'Front desk' })
  await bob.getByTestId('profile-fields-save').click()
  await eventually(async () => assert.equal(await bob.getByTestId('settings-status').textContent(), 'Profile saved.'))

  const alice = await newPage(browser)
  await signIn(alice, server.url, 'alice@example.com')
  await (await apiClient(server.url, 'bob@example.com')).send('general', 'desks', 'Where do I sit?')
  await alice.goto(`${server.url}/#narrow/stream/1-general/topic/desks`)
  await alice.getByTestId('message').filter({ hasText: 'Where do I sit?' }).getByTestId('message-sender').click()
  await alice.getByTestId('user-card').waitFor()
  assert.deepEqual(await alice.getByTestId('user-card-field').allTextContents(), ['Front desk', '3rd floor, room 12'])
  await shot(alice, 'user-card-profile-fields.png')

  // A value bob clears leaves his card at once, through the event.
  await alice.keyboard.press('Escape')
  await bob.getByTestId(`profile-field-${desk.id}`).fill('')
  await bob.getByTestId('profile-fields-save').click()
  await eventually(async () => assert.equal(await bob.getByTestId('settings-status').textContent(), 'Profile saved.'))
  await alice.getByTestId('message').filter({ hasText: 'Where do I sit?' }).getByTestId('message-sender').click()
  await eventually(async () => assert.deepEqual(await alice.getByTestId('user-card-field').allTextContents(), ['Front desk']))

  // A field the administrator makes not editable by users (level 296) turns read-only for bob, through the event.
  // The box shows the click at once and keeps it while the change is on its way: here it takes a second to reach
  // the server, and the box had gone back to checked (the status line cleared, the row drawn again) until the event.
  const slow = async (route) => { await new Promise((r) => setTimeout(r, 1000)); await route.continue() }
  await admin.route('**/api/v1/realm/profile_fields/*', slow)
  const editable = admin.getByTestId('profile-field-row').filter({ hasText: 'Desk' }).getByTestId('profile-field-editable')
  await editable.uncheck()
  await admin.waitForTimeout(300)
  assert.equal(await editable.isChecked(), false, 'shown unchecked while the change is on its way')
  await admin.unroute('**/api/v1/realm/profile_fields/*', slow)
  await eventually(async () => assert.equal(await bob.getByTestId(`profile-field-${desk.id}`).isDisabled(), true))
  assert.equal(await bob.getByTestId(`profile-field-${team.id}`).isDisabled(), false)
})
