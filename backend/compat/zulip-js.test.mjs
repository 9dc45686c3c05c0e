// The real zulip-js client, unmodified, against a real lanchatd.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import zulipInit from 'zulip-js';
import { startLanchatd } from './lanchatd.mjs';

let server;
let alice;

before(async () => {
  server = await startLanchatd();
  // Password login: zulip-js calls POST /fetch_api_key itself.
  alice = await zulipInit({ username: 'alice@example.com', password: 'lanchat-dev', realm: server.url });
});

after(async () => {
  await server?.stop();
});

test('logs in with a password through fetch_api_key', () => {
  assert.equal(typeof alice.config.apiKey, 'string');
  assert.equal(alice.config.apiKey.length, 32);
});

test('reads server settings with the version fields clients check', async () => {
  const res = await alice.server.settings();
  assert.equal(res.result, 'success');
  assert.equal(res.realm_name, 'Lanchat Dev');
  assert.ok(res.zulip_version);
  assert.ok(res.chat_version);
  assert.ok(res.zulip_feature_level >= 1);
});

test('lists users', async () => {
  const res = await alice.users.retrieve({ client_gravatar: true });
  assert.equal(res.result, 'success');
  const emails = res.members.map((m) => m.email).sort();
  assert.deepEqual(emails, [
    'admin@example.com', 'alice@example.com', 'bob@example.com',
    'echo-bot@example.com', 'guest@example.com', 'webhook-bot@example.com',
  ]);
  const bot = res.members.find((m) => m.email === 'webhook-bot@example.com');
  assert.equal(bot.bot_type, 2);
});

test('reads its own profile', async () => {
  const res = await alice.users.me.getProfile();
  assert.equal(res.result, 'success');
  assert.equal(res.email, 'alice@example.com');
  assert.equal(res.full_name, 'Alice Anders');
});

test('lists user groups', async () => {
  const res = await alice.callEndpoint('/user_groups', 'GET', {});
  assert.equal(res.result, 'success');
  const eng = res.user_groups.find((g) => g.name === 'engineering');
  assert.ok(eng, 'engineering group present');
  assert.equal(eng.members.length, 2);
});

test('a wrong password yields no key', async () => {
  const z = await zulipInit({ username: 'alice@example.com', password: 'nope', realm: server.url });
  assert.equal(z.config.apiKey, undefined);
});
