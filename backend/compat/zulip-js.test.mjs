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

test('sends a stream message and reads it back', async () => {
  const sent = await alice.messages.send({ type: 'stream', to: 'general', topic: 'zulip-js', content: 'hello from **zulip-js**' });
  assert.equal(sent.result, 'success');
  const res = await alice.messages.retrieve({
    anchor: 'newest', num_before: 5, num_after: 0,
    narrow: [{ operator: 'stream', operand: 'general' }, { operator: 'topic', operand: 'zulip-js' }],
  });
  assert.equal(res.result, 'success');
  assert.equal(res.found_newest, true);
  const last = res.messages.at(-1);
  assert.equal(last.id, sent.id);
  assert.equal(last.sender_email, 'alice@example.com');
  assert.equal(last.subject, 'zulip-js');
  assert.ok(last.flags.includes('read'), 'the sender reads her own message');
});

test('sends a private message by email list and flags it', async () => {
  const sent = await alice.messages.send({ type: 'private', to: ['bob@example.com'], content: 'psst' });
  assert.equal(sent.result, 'success');
  const flagged = await alice.messages.flags.add({ flag: 'starred', messages: [sent.id] });
  assert.equal(flagged.result, 'success');
  assert.deepEqual(flagged.messages, [sent.id]);
  const res = await alice.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] });
  assert.deepEqual(res.messages.map((m) => m.id), [sent.id]);
  assert.equal(res.messages[0].type, 'private');
});

test('an incoming webhook bot sends messages and is refused everything else, as by Zulip', async () => {
  const dev = await fetch(`${server.url}/api/v1/dev_fetch_api_key`, {
    method: 'POST', body: new URLSearchParams({ username: 'webhook-bot@example.com' }),
  }).then((r) => r.json());
  const hook = await zulipInit({ username: 'webhook-bot@example.com', apiKey: dev.api_key, realm: server.url });
  const sent = await hook.messages.send({ type: 'stream', to: 'general', topic: 'deploys', content: 'deployed' });
  assert.equal(sent.result, 'success');
  const me = await hook.users.me.getProfile();
  assert.deepEqual(me, { result: 'error', msg: 'This API is not available to incoming webhook bots.', code: 'UNAUTHORIZED' });
  const res = await alice.messages.retrieve({ anchor: sent.id, num_before: 0, num_after: 0 });
  assert.equal(res.messages[0].sender_email, 'webhook-bot@example.com');
});

test('lists subscriptions and topics', async () => {
  const subs = await alice.streams.subscriptions.retrieve();
  assert.equal(subs.result, 'success');
  const general = subs.subscriptions.find((s) => s.name === 'general');
  assert.ok(general);
  const topics = await alice.streams.topics.retrieve({ stream_id: general.stream_id });
  assert.equal(topics.result, 'success');
  assert.ok(topics.topics.some((t) => t.name === 'zulip-js'));
});

test('registers a queue and receives a message event by long-polling', async () => {
  const bob = await zulipInit({ username: 'bob@example.com', password: 'lanchat-dev', realm: server.url });
  const reg = await bob.queues.register({ event_types: ['message'] });
  assert.equal(reg.result, 'success');
  assert.equal(reg.last_event_id, -1);
  assert.ok(reg.zulip_version);
  const polled = bob.events.retrieve({ queue_id: reg.queue_id, last_event_id: reg.last_event_id });
  const sent = await alice.messages.send({ type: 'private', to: ['bob@example.com'], content: 'ping @**Bob Brown**' });
  const res = await polled;
  assert.equal(res.result, 'success');
  const event = res.events.find((e) => e.type === 'message');
  assert.ok(event, `message event in ${JSON.stringify(res.events)}`);
  assert.equal(event.message.id, sent.id);
  assert.equal(event.message.content, 'ping @**Bob Brown**', 'raw markdown: apply_markdown defaults to false');
  const gone = await bob.queues.deregister({ queue_id: reg.queue_id });
  assert.equal(gone.result, 'success');
});

test('POSTs without parameters (an empty multipart body) are answered', async () => {
  const reg = await alice.queues.register({});
  assert.equal(reg.result, 'success', JSON.stringify(reg));
  assert.equal(reg.zulip_feature_level, 371);
  const read = await alice.callEndpoint('/mark_all_as_read', 'POST', {});
  assert.equal(read.result, 'success', JSON.stringify(read));
});

test('lists custom emoji after an upload', async () => {
  // A 1×1 PNG, uploaded as multipart like any client would.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  // zulip-js replaces the global FormData with a polyfill, so the body is built by hand.
  const boundary = 'lanchat-compat-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const auth = Buffer.from(`alice@example.com:${alice.config.apiKey}`).toString('base64');
  const up = await fetch(`${server.url}/api/v1/realm/emoji/dot`, {
    method: 'POST', body, headers: { Authorization: `Basic ${auth}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  });
  assert.equal((await up.json()).result, 'success');
  const res = await alice.emojis.retrieve();
  assert.equal(res.result, 'success');
  const dot = Object.values(res.emoji).find((e) => e.name === 'dot');
  assert.ok(dot, JSON.stringify(res.emoji));
  assert.equal(dot.deactivated, false);
  assert.equal(res.emoji[dot.id].id, dot.id);
  assert.ok(dot.source_url.startsWith('/user_avatars/'));
});
