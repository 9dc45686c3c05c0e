// People and custom emoji through the real zulip-js client, unmodified,
// against a real lanchatd: an administrator creates an account, the new
// person signs in, is listed, uploads an emoji that everyone's list shows,
// and is shut out at once when deactivated.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLanchatd } from './lanchatd.mjs';

// zulip-js replaces the global FormData with a Node polyfill when it loads;
// the upload below keeps the built-in one, which the built-in fetch sends.
const NativeFormData = globalThis.FormData;
const { default: zulipInit } = await import('zulip-js');

let server;
let admin;
let carol;
let carolID;

before(async () => {
  server = await startLanchatd();
  admin = await zulipInit({ username: 'admin@example.com', password: 'lanchat-dev', realm: server.url });
});

after(async () => {
  await server?.stop();
});

test('an administrator creates an account that signs in and is listed', async () => {
  const created = await admin.users.create({ email: 'carol@example.com', password: 'carol-secret', full_name: 'Carol Cole' });
  assert.equal(created.result, 'success', JSON.stringify(created));
  carolID = created.user_id;
  assert.equal(typeof carolID, 'number');

  carol = await zulipInit({ username: 'carol@example.com', password: 'carol-secret', realm: server.url });
  assert.equal(carol.config.apiKey.length, 32);
  const res = await carol.users.retrieve();
  assert.equal(res.result, 'success');
  const me = res.members.find((m) => m.email === 'carol@example.com');
  assert.ok(me, JSON.stringify(res.members));
  assert.equal(me.user_id, carolID);
  assert.equal(me.full_name, 'Carol Cole');
  assert.equal(me.is_active, true);
  assert.equal(me.role, 400);
  assert.ok(me.avatar_url.startsWith('/avatar/'), me.avatar_url);
});

test('a member may not create accounts', async () => {
  const res = await carol.users.create({ email: 'dave@example.com', password: 'dave-secret', full_name: 'Dave' });
  assert.equal(res.result, 'error');
  assert.equal(res.msg, 'Must be an organization administrator');
});

test('lists a custom emoji uploaded over HTTP, with its author and image', async () => {
  // A 1×1 GIF, uploaded as one multipart file as any client would.
  const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
  const form = new NativeFormData();
  form.append('file', new Blob([gif]), 'wave.gif');
  const auth = { Authorization: `Basic ${Buffer.from(`carol@example.com:${carol.config.apiKey}`).toString('base64')}` };
  const up = await fetch(`${server.url}/api/v1/realm/emoji/Carol%20Wave`, { method: 'POST', body: form, headers: auth });
  assert.equal((await up.json()).result, 'success');

  const res = await admin.emojis.retrieve();
  assert.equal(res.result, 'success');
  const wave = Object.values(res.emoji).find((e) => e.name === 'carol_wave');
  assert.ok(wave, JSON.stringify(res.emoji));
  assert.equal(res.emoji[wave.id].id, wave.id);
  assert.equal(wave.deactivated, false);
  assert.equal(wave.author_id, carolID);
  assert.deepEqual(wave.author, { id: carolID, email: 'carol@example.com', full_name: 'Carol Cole' });

  const img = await fetch(server.url + wave.source_url, { headers: auth });
  assert.equal(img.status, 200);
  assert.equal(img.headers.get('content-type'), 'image/gif');
  assert.deepEqual(Buffer.from(await img.arrayBuffer()), gif);
});

test('a deactivated account is refused at once and listed as inactive', async () => {
  const off = await admin.callEndpoint(`/users/${carolID}`, 'DELETE');
  assert.equal(off.result, 'success', JSON.stringify(off));
  const refused = await carol.users.retrieve();
  assert.equal(refused.result, 'error');
  assert.equal(refused.code, 'USER_DEACTIVATED');
  const res = await admin.users.retrieve();
  assert.equal(res.members.find((m) => m.user_id === carolID).is_active, false);
});
