// The compatibility contract: real requests against a real lanchatd, every
// answer and every event validated against Zulip's OpenAPI description of the
// feature level the server announces (../shared/openapi/zulip-9.0-fl277.yaml
// at 277, zulip-10.0-fl371.yaml above it; openapi.mjs chooses, and holds the
// validator and translation). The only extra fields allowed are the product
// spec's, listed with their sections in openapi-amendments.mjs.
// LANCHAT_OPENAPI_LEVEL=<level> holds the server to another level's yaml, to
// see what a climb still has to fix before the announcement is raised.
//
// Which endpoints: every row docs/api-coverage.md marks done whose path the
// yaml describes; each needs a success and every error the yaml documents for
// it (by code). Which events: every type (and op) the coverage page lists under
// "Events emitted", caught on queues registered for every event type the yaml
// knows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startLanchatd } from './lanchatd.mjs';
import { loadZulipOpenAPI, repoRoot } from './openapi.mjs';

// Errors the yaml documents that Lanchat cannot be brought to answer, with why
// (also listed under the deliberate differences in docs/api-coverage.md).
const UNCAUSABLE = [
  { op: 'PATCH /messages/{message_id}', status: 400, code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', why: 'Lanchat sets no time limit on moving messages' },
  { op: 'POST /mobile_push/test_notification', status: 400, code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN', why: "the push bouncer's answer: Lanchat reaches no push bouncer" },
  { op: 'POST /invites', status: 400, code: 'BAD_REQUEST', why: '"You do not have permission to subscribe other users to channels." needs can_add_subscribers_group (level 341, which replaced invite_to_stream_policy) applied to invitations, which Lanchat does not do' },
  { op: 'POST /invites/multiuse', status: 400, code: 'BAD_REQUEST', why: 'the same can_add_subscribers_group refusal' },
];

let api; // Zulip's description at the level the server announces (before())
const PASSWORD = 'lanchat-dev';

let server;
const keys = {};
const ids = {};
const results = []; // {op, status, code, problems}
const events = []; // {who, event}
let heartbeat;

// call sends one request as `who` (a dev user's short name, {email, key}, or
// null for no credentials) and returns {status, body}. Parameters go as Zulip
// clients send them: strings raw, everything else as JSON text; in the query
// string for GET, urlencoded in the body otherwise.
async function call(who, method, path, params = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  const url = new URL(server.url + '/api/v1' + path);
  const init = { method, headers: authorization(who) };
  if (method === 'GET') url.search = form.toString();
  else if ([...form].length) init.body = form;
  const res = await fetch(url, init);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

function authorization(who) {
  if (!who) return {};
  const { email, key } = typeof who === 'string' ? { email: `${who}@example.com`, key: keys[who] } : who;
  return { Authorization: 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64') };
}

// check makes one call for the yaml operation `op` and records it; it
// returns the body. `status` is the status the case means to cause.
async function check(op, who, method, path, params, status = 200) {
  const res = await call(who, method, path, params);
  return record(op, res, status);
}

// record validates an answer against the schema of the status it came with
// and keeps the problems found, with the operation and the answer's code.
function record(op, res, meant) {
  const problems = [];
  if (res.status !== meant) problems.push(`status ${res.status}, meant ${meant}: ${JSON.stringify(res.body).slice(0, 300)}`);
  const ptr = schemaFor(op, res.status, res.body);
  // Events are checked one by one against their own type's schema (below).
  const envelope = op === 'GET /events' && Array.isArray(res.body?.events) ? { ...res.body, events: [] } : res.body;
  if (!ptr) problems.push(`no schema for status ${res.status}`);
  else problems.push(...api.validate(ptr, envelope).map(anyIndex));
  results.push({ op, status: res.status, code: res.body?.code, problems });
  return res.body;
}

// The schema an answer must meet: the operation's for that status when it
// documents the answer's code there; else, for an error, the schema of
// Zulip's common error with that code (/rest-error-handling; an unusable
// parameter is shaped as a missing one, with `var_name`), else its generic
// coded error.
function schemaFor(op, status, body) {
  const own = api.responsePointer(op, status);
  if (status === 200 || (own && documentedErrors(op).some((e) => e.status === status && e.code === body?.code))) return own;
  const common = COMMON_ERRORS[body?.code];
  if (common) return `#/components/schemas/${common}`;
  return own ?? '#/components/schemas/CodedError';
}
const COMMON_ERRORS = {
  REQUEST_VARIABLE_MISSING: 'MissingArgumentError',
  REQUEST_VARIABLE_INVALID: 'MissingArgumentError',
  INVALID_API_KEY: 'InvalidApiKeyError',
  USER_DEACTIVATED: 'UserDeactivatedError',
  RATE_LIMIT_HIT: 'RateLimitedError',
  BAD_NARROW: 'BadNarrowError',
};

before(async () => {
  server = await startLanchatd();
  const settings = await fetch(`${server.url}/api/v1/server_settings`).then((r) => r.json());
  const level = Number(process.env.LANCHAT_OPENAPI_LEVEL || settings.zulip_feature_level);
  api = loadZulipOpenAPI(level);
  console.log(`# feature level ${settings.zulip_feature_level} announced; held to ${api.path} (level ${level})`);
  for (const who of ['alice', 'bob', 'admin', 'guest']) {
    const res = await fetch(`${server.url}/api/v1/fetch_api_key`, {
      method: 'POST', body: new URLSearchParams({ username: `${who}@example.com`, password: PASSWORD }),
    }).then((r) => r.json());
    keys[who] = res.api_key;
    ids[who] = res.user_id;
  }
  // A heartbeat takes the server's 50 s; this poll waits for it while the rest runs.
  const reg = await call('bob', 'POST', '/register', { event_types: ['heartbeat'] });
  heartbeat = check('GET /events', 'bob', 'GET', '/events', { queue_id: reg.body.queue_id, last_event_id: -1 });
});

after(async () => {
  await server?.stop();
});

// ---- the coverage page and the yaml: what must be exercised ----

const coverage = readFileSync(resolve(repoRoot, 'docs/api-coverage.md'), 'utf8');
const normalize = (path) => path.replace(/^\/api\/v1/, '').replace(/\{[^}]*\}/g, '{}');

// The (method, normalized path) pairs of every row marked done.
function doneEndpoints() {
  const out = [];
  for (const line of coverage.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || cells[3] !== 'done') continue;
    let methods = [];
    for (const token of cells[1].match(/[A-Z]+(?:\/[A-Z]+)*|`[^`]+`/g) ?? []) {
      if (!token.startsWith('`')) methods = token.split('/');
      else for (const m of methods) out.push(`${m} ${normalize(token.slice(1, -1))}`);
    }
  }
  return out;
}

// Every yaml operation, keyed by (method, normalized path).
function yamlOperations() {
  const byKey = new Map();
  for (const [path, ops] of Object.entries(api.doc.paths)) {
    for (const method of Object.keys(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const key = `${method.toUpperCase()} ${normalize(path)}`;
      byKey.set(key, [...(byKey.get(key) ?? []), `${method.toUpperCase()} ${path}`]);
    }
  }
  return byKey;
}

// The errors the yaml documents for an operation: [{status, code}].
function documentedErrors(op) {
  const out = [];
  for (const status of Object.keys(api.operation(op).responses)) {
    if (status === '200') continue;
    const ptr = api.responsePointer(op, status);
    const schema = ptr && at(ptr);
    for (const variant of schema?.oneOf ?? [schema]) out.push({ status: Number(status), code: exampleCode(variant) });
  }
  return out;
}
const at = (ptr) => ptr.slice(2).split('/').reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], api.doc);
function exampleCode(schema) {
  if (!schema) return undefined;
  if (schema.$ref) return exampleCode(at(schema.$ref));
  if (schema.example?.code) return schema.example.code;
  for (const part of schema.allOf ?? []) {
    const code = exampleCode(part);
    if (code) return code;
  }
  return undefined;
}

// The event types and ops the coverage page says Lanchat emits.
function emittedEvents() {
  const section = coverage.split('## Events emitted')[1].split('\n## ')[0].replace(/\s+/g, ' ');
  const out = [];
  for (const m of section.matchAll(/`(\w+)`(?: \(([^)]*)\))?/g)) {
    const ops = (m[2] ?? '').split('/').map((s) => s.trim()).filter((s) => /^[a-z_]+$/.test(s));
    const opsOfType = ['add', 'remove', 'update', 'delete', 'create', 'peer_add', 'peer_remove', 'add_members', 'remove_members'];
    const realOps = ops.filter((o) => opsOfType.includes(o));
    if (realOps.length) for (const op of realOps) out.push(`${m[1]}/${op}`);
    else out.push(m[1]);
  }
  return out;
}

// ---- the requests ----

test('responses conform to the yaml', { timeout: 90000 }, async () => {
  // Queues for every event type the yaml knows, for three people.
  const allTypes = [...new Set(api.eventVariants().flatMap((v) => v.types))];
  const queues = {};
  for (const who of ['alice', 'bob', 'admin']) {
    const reg = await check('POST /register', who, 'POST', '/register', { event_types: allTypes, apply_markdown: true, client_gravatar: true });
    queues[who] = reg.queue_id;
  }
  await check('POST /register', 'alice', 'POST', '/register', {});
  await check('POST /register', 'guest', 'POST', '/register', { narrow: [['stream', 'general']], client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true, user_settings_object: true } });

  await runEndpoints();

  // Drain every queue.
  for (const [who, queue] of Object.entries(queues)) {
    const body = await check('GET /events', who, 'GET', '/events', { queue_id: queue, last_event_id: -1, dont_block: true });
    for (const event of body.events ?? []) events.push({ who, event });
    await check('DELETE /events', who, 'DELETE', '/events', { queue_id: queue });
  }
  await check('GET /events', 'alice', 'GET', '/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true }, 400);
  await check('DELETE /events', 'alice', 'DELETE', '/events', { queue_id: 'no-such-queue' }, 400);
  const beat = await heartbeat;
  for (const event of beat.events ?? []) events.push({ who: 'bob', event });

  // Last, as it shuts this address out of password logins for a minute.
  const wrong = { username: 'bob@example.com', password: 'wrong' };
  for (let i = 0; i < 20 && (await call(null, 'POST', '/fetch_api_key', wrong)).status === 401; i++);
  await check('POST /fetch_api_key', null, 'POST', '/fetch_api_key', wrong, 429);

  const failures = texts(dedupe(results.flatMap((r) => r.problems.map((p) => ({ op: r.op, text: `${r.op} → ${r.status}: ${p}` })))));
  assert.deepEqual(failures, []);
});

async function runEndpoints() {
  // Sign-in and server settings.
  await check('GET /server_settings', null, 'GET', '/server_settings');
  await check('POST /fetch_api_key', null, 'POST', '/fetch_api_key', { username: 'alice@example.com', password: PASSWORD });
  await check('POST /fetch_api_key', null, 'POST', '/fetch_api_key', { username: 'alice@example.com', password: 'wrong' }, 401);
  await check('POST /dev_fetch_api_key', null, 'POST', '/dev_fetch_api_key', { username: 'echo-bot@example.com' });
  await check('POST /dev_fetch_api_key', null, 'POST', '/dev_fetch_api_key', { username: 'nobody@example.com' }, 401);

  // Zulip's common errors (/rest-error-handling; Zulip answers a wrong API key with 401, where the yaml says 400).
  await check('GET /users/me', { email: 'alice@example.com', key: 'x'.repeat(32) }, 'GET', '/users/me', {}, 401);
  await check('GET /users/me', null, 'GET', '/users/me', {}, 401);
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'x' }, 400);
  await check('GET /messages', 'alice', 'GET', '/messages', { anchor: 'newest', num_before: 'many', num_after: 0 }, 400);

  // Users.
  await check('GET /users', 'alice', 'GET', '/users', {});
  await check('GET /users', 'alice', 'GET', '/users', { client_gravatar: false, include_custom_profile_fields: true });
  await check('GET /users/me', 'alice', 'GET', '/users/me', {});
  await check('GET /users/{user_id}', 'alice', 'GET', `/users/${ids.bob}`, {});
  await check('GET /users/{user_id}', 'alice', 'GET', '/users/9999', {}, 400);
  const carol = await check('POST /users', 'admin', 'POST', '/users', { email: 'carol@example.com', password: 'carol-secret', full_name: 'Carol Cole' });
  ids.carol = carol.user_id;
  keys.carol = (await check('POST /fetch_api_key', null, 'POST', '/fetch_api_key', { username: 'carol@example.com', password: 'carol-secret' })).api_key;
  await check('POST /users', 'admin', 'POST', '/users', { email: 'carol@example.com', password: 'carol-secret', full_name: 'Carol Again' }, 400);
  await check('PATCH /users/{user_id}', 'admin', 'PATCH', `/users/${ids.carol}`, { full_name: 'Carol Cooper' });
  await check('PATCH /users/{user_id}', 'admin', 'PATCH', `/users/${ids.carol}`, { role: 7 }, 400);
  await check('PATCH /users/{user_id}', 'admin', 'PATCH', '/users/9999', { full_name: 'Nobody' }, 400);
  await check('DELETE /users/{user_id}', 'admin', 'DELETE', `/users/${ids.admin}`, {}, 400);
  await check('DELETE /users/{user_id}', 'admin', 'DELETE', `/users/${ids.carol}`, {});
  await check('GET /users/me', 'carol', 'GET', '/users/me', {}, 401);
  await check('POST /users/{user_id}/reactivate', 'admin', 'POST', `/users/${ids.carol}/reactivate`, {});
  await check('PATCH /settings', 'alice', 'PATCH', '/settings', { full_name: 'Alice Anders' });
  await check('GET /users/me/alert_words', 'alice', 'GET', '/users/me/alert_words', {});
  await check('POST /users/me/alert_words', 'alice', 'POST', '/users/me/alert_words', { alert_words: ['coffee'] });
  await check('POST /users/me/alert_words', 'alice', 'POST', '/users/me/alert_words', { alert_words: ['x'.repeat(101)] }, 400);
  await check('DELETE /users/me/alert_words', 'alice', 'DELETE', '/users/me/alert_words', { alert_words: ['coffee'] });
  await check('POST /users/me/muted_users/{muted_user_id}', 'alice', 'POST', `/users/me/muted_users/${ids.bob}`, {});
  for (const who of [ids.bob, ids.alice, 9999]) { // already muted, oneself, nobody
    await check('POST /users/me/muted_users/{muted_user_id}', 'alice', 'POST', `/users/me/muted_users/${who}`, {}, 400);
  }
  await check('DELETE /users/me/muted_users/{muted_user_id}', 'alice', 'DELETE', `/users/me/muted_users/${ids.bob}`, {});
  for (const who of [ids.bob, 9999]) { // not muted, nobody
    await check('DELETE /users/me/muted_users/{muted_user_id}', 'alice', 'DELETE', `/users/me/muted_users/${who}`, {}, 400);
  }
  // A bot deactivated is a realm_bot update (level 222); /bots is not in the yaml.
  const helper = (await call('admin', 'POST', '/bots', { full_name: 'Helper Bot', short_name: 'helper' })).body.user_id;
  await call('admin', 'DELETE', `/bots/${helper}`);
  await check('GET /users/{user_id}/status', 'alice', 'GET', `/users/${ids.bob}/status`, {});
  await check('GET /users/{user_id}/status', 'alice', 'GET', '/users/9999/status', {}, 400);
  await check('POST /mobile_push/test_notification', 'alice', 'POST', '/mobile_push/test_notification', {});
  await check('POST /mobile_push/test_notification', 'alice', 'POST', '/mobile_push/test_notification', { token: 'not-a-device' }, 400);

  // User groups.
  await check('GET /user_groups', 'alice', 'GET', '/user_groups', {});
  await check('POST /user_groups/create', 'alice', 'POST', '/user_groups/create', { name: 'design', description: 'The design team', members: [ids.alice] });
  await check('POST /user_groups/create', 'alice', 'POST', '/user_groups/create', { name: 'design', description: 'Again', members: [ids.alice] }, 400);
  const groups = await call('alice', 'GET', '/user_groups');
  const design = groups.body.user_groups.find((g) => g.name === 'design').id;
  await check('PATCH /user_groups/{user_group_id}', 'alice', 'PATCH', `/user_groups/${design}`, { description: 'Designers' });
  await check('PATCH /user_groups/{user_group_id}', 'alice', 'PATCH', `/user_groups/${design}`, { name: 'engineering' }, 400);
  await check('POST /user_groups/{user_group_id}/members', 'alice', 'POST', `/user_groups/${design}/members`, { add: [ids.bob] });
  await check('GET /user_groups/{user_group_id}/members', 'alice', 'GET', `/user_groups/${design}/members`, {});
  await check('POST /user_groups/{user_group_id}/members', 'alice', 'POST', `/user_groups/${design}/members`, { delete: [ids.bob] });
  const engineering = groups.body.user_groups.find((g) => g.name === 'engineering').id;
  const moderators = groups.body.user_groups.find((g) => g.name === 'role:moderators').id;
  await check('PATCH /user_groups/{user_group_id}', 'alice', 'PATCH', `/user_groups/${design}`, { can_mention_group: { new: { direct_members: [ids.alice], direct_subgroups: [moderators] } } });
  await check('POST /user_groups/{user_group_id}/subgroups', 'alice', 'POST', `/user_groups/${design}/subgroups`, { add: [engineering] });
  await check('GET /user_groups/{user_group_id}/subgroups', 'alice', 'GET', `/user_groups/${design}/subgroups`, {});
  await check('GET /user_groups/{user_group_id}/members/{user_id}', 'alice', 'GET', `/user_groups/${design}/members/${ids.alice}`, {});
  await check('POST /user_groups/{user_group_id}/subgroups', 'alice', 'POST', `/user_groups/${design}/subgroups`, { delete: [engineering] });
  // Groups are deactivated, not deleted (levels 290, 294), and not while a setting names them (298).
  const everyone = groups.body.user_groups.find((g) => g.name === 'role:everyone').id;
  await call('alice', 'PATCH', `/user_groups/${engineering}`, { can_mention_group: { new: design } });
  await check('POST /user_groups/{user_group_id}/deactivate', 'alice', 'POST', `/user_groups/${design}/deactivate`, {}, 400);
  await call('alice', 'PATCH', `/user_groups/${engineering}`, { can_mention_group: { new: everyone } });
  await check('POST /user_groups/{user_group_id}/deactivate', 'alice', 'POST', `/user_groups/${design}/deactivate`, {});
  await check('POST /user_groups/{user_group_id}/deactivate', 'alice', 'POST', '/user_groups/9999/deactivate', {}, 400);
  // Saved snippets and export consent (levels 297, 293, 295).
  const snippet = await check('POST /saved_snippets', 'alice', 'POST', '/saved_snippets', { title: 'Hello', content: 'Hello there' });
  await check('POST /saved_snippets', 'alice', 'POST', '/saved_snippets', { title: '', content: 'Hello there' }, 400);
  await check('GET /saved_snippets', 'alice', 'GET', '/saved_snippets', {});
  await check('PATCH /saved_snippets/{saved_snippet_id}', 'alice', 'PATCH', `/saved_snippets/${snippet.saved_snippet_id}`, { title: 'Hello again' });
  await check('PATCH /saved_snippets/{saved_snippet_id}', 'bob', 'PATCH', `/saved_snippets/${snippet.saved_snippet_id}`, { title: 'Not mine' }, 404);
  await check('DELETE /saved_snippets/{saved_snippet_id}', 'alice', 'DELETE', `/saved_snippets/${snippet.saved_snippet_id}`, {});
  await check('DELETE /saved_snippets/{saved_snippet_id}', 'alice', 'DELETE', `/saved_snippets/${snippet.saved_snippet_id}`, {}, 404);
  await call('alice', 'PATCH', '/settings', { allow_private_data_export: true });
  await check('GET /export/realm/consents', 'admin', 'GET', '/export/realm/consents', {});

  // Streams and subscriptions.
  await check('GET /streams', 'alice', 'GET', '/streams', {});
  await check('GET /streams', 'alice', 'GET', '/streams', { include_all: true, include_can_access_content: true });
  await check('GET /get_stream_id', 'alice', 'GET', '/get_stream_id', { stream: 'general' });
  await check('GET /get_stream_id', 'alice', 'GET', '/get_stream_id', { stream: 'nowhere' }, 400);
  ids.general = (await call('alice', 'GET', '/get_stream_id', { stream: 'general' })).body.stream_id;
  await check('GET /streams/{stream_id}', 'alice', 'GET', `/streams/${ids.general}`, {});
  await check('GET /streams/{stream_id}', 'alice', 'GET', '/streams/9999', {}, 400);
  await check('POST /streams/{stream_id}/delete_topic', 'admin', 'POST', `/streams/${ids.general}/delete_topic`, { topic_name: 'nothing here' });
  await check('POST /streams/{stream_id}/delete_topic', 'alice', 'POST', `/streams/${ids.general}/delete_topic`, { topic_name: 'nothing here' }, 400);
  await check('GET /users/me/subscriptions', 'alice', 'GET', '/users/me/subscriptions', {});
  await check('GET /users/me/subscriptions', 'alice', 'GET', '/users/me/subscriptions', { include_subscribers: true });
  await check('POST /users/me/subscriptions', 'alice', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'design', description: 'Shapes' }] });
  await check('POST /users/me/subscriptions', 'alice', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: ['bob@example.com'] });
  await check('POST /users/me/subscriptions', 'guest', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] }, 400);
  ids.design = (await call('alice', 'GET', '/get_stream_id', { stream: 'design' })).body.stream_id;
  await check('POST /users/me/subscriptions/properties', 'alice', 'POST', '/users/me/subscriptions/properties', { subscription_data: [{ stream_id: ids.design, property: 'color', value: '#76ce90' }, { stream_id: ids.design, property: 'pin_to_top', value: true }] });
  await check('PATCH /users/me/subscriptions/muted_topics', 'alice', 'PATCH', '/users/me/subscriptions/muted_topics', { stream_id: ids.general, topic: 'lunch', op: 'add' });
  await check('PATCH /users/me/subscriptions/muted_topics', 'alice', 'PATCH', '/users/me/subscriptions/muted_topics', { stream_id: ids.general, topic: 'lunch', op: 'remove' });
  await check('PATCH /users/me/subscriptions/muted_topics', 'alice', 'PATCH', '/users/me/subscriptions/muted_topics', { stream_id: ids.general, topic: 'lunch', op: 'remove' }, 400);
  await check('GET /streams/{stream_id}/members', 'alice', 'GET', `/streams/${ids.design}/members`, {});
  await check('GET /streams/{stream_id}/members', 'alice', 'GET', '/streams/9999/members', {}, 400);
  await check('GET /users/me/{stream_id}/topics', 'alice', 'GET', `/users/me/${ids.general}/topics`, {});
  await check('GET /users/{user_id}/subscriptions/{stream_id}', 'alice', 'GET', `/users/${ids.bob}/subscriptions/${ids.design}`, {});
  await check('GET /users/{user_id}/subscriptions/{stream_id}', 'alice', 'GET', `/users/9999/subscriptions/${ids.general}`, {}, 400);
  await check('GET /users/me/{stream_id}/topics', 'alice', 'GET', '/users/me/9999/topics', {}, 400);
  await check('PATCH /streams/{stream_id}', 'admin', 'PATCH', `/streams/${ids.design}`, { description: 'Shapes and colours', new_name: 'design-team' });
  await check('PATCH /streams/{stream_id}', 'admin', 'PATCH', `/streams/${ids.design}`, { can_remove_subscribers_group: moderators });
  await check('PATCH /streams/{stream_id}', 'admin', 'PATCH', '/streams/9999', { description: 'x' }, 400);
  // "Invalid parameters": a public stream's history is public to its subscribers.
  await check('PATCH /streams/{stream_id}', 'admin', 'PATCH', `/streams/${ids.design}`, { history_public_to_subscribers: false }, 400);
  // bob, not alice: a stream's creator administers it (level 325).
  await check('PATCH /streams/{stream_id}', 'bob', 'PATCH', `/streams/${ids.design}`, { description: 'mine' }, 400);
  await check('DELETE /users/me/subscriptions', 'bob', 'DELETE', '/users/me/subscriptions', { subscriptions: ['design-team'] });
  await check('DELETE /users/me/subscriptions', 'bob', 'DELETE', '/users/me/subscriptions', { subscriptions: ['nowhere'] }, 400);

  // Messages.
  const sent = await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'conformance', content: 'Hello @**Bob Brown** :wave: **bold** http://example.com' });
  ids.msg = sent.id;
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'nowhere', topic: 'x', content: 'x' }, 400);
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'private', to: ['nobody@example.com'], content: 'x' }, 400);
  const dm = await check('POST /messages', 'alice', 'POST', '/messages', { type: 'private', to: [ids.bob], content: 'psst coffee?' });
  ids.dm = dm.id;
  await check('GET /messages', 'alice', 'GET', '/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false });
  await check('GET /messages', 'bob', 'GET', '/messages', { anchor: 'first_unread', num_before: 5, num_after: 5, narrow: [{ operator: 'stream', operand: 'general' }] });
  await check('GET /messages', 'alice', 'GET', '/messages', { anchor: ids.msg, num_before: 0, num_after: 0, narrow: [{ operator: 'search', operand: 'bold' }] });
  await check('GET /messages', 'alice', 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'bogus', operand: 'x' }] }, 400);
  await check('GET /messages/{message_id}', 'alice', 'GET', `/messages/${ids.msg}`, {});
  await check('GET /messages/{message_id}', 'alice', 'GET', '/messages/999999', {}, 400);
  await check('PATCH /messages/{message_id}', 'alice', 'PATCH', `/messages/${ids.msg}`, { content: 'Hello again @**Bob Brown**' });
  await check('PATCH /messages/{message_id}', 'alice', 'PATCH', `/messages/${ids.msg}`, { topic: 'conformance moved', propagate_mode: 'change_one' });
  await check('PATCH /messages/{message_id}', 'bob', 'PATCH', `/messages/${ids.msg}`, { content: 'not mine' }, 400);
  await check('PATCH /messages/{message_id}', 'alice', 'PATCH', `/messages/${ids.msg}`, { content: 'late' , stream_id: 9999 }, 400);
  await check('GET /messages/{message_id}/history', 'alice', 'GET', `/messages/${ids.msg}/history`, {});
  await check('GET /messages/{message_id}/history', 'alice', 'GET', '/messages/999999/history', {}, 400);
  await check('POST /messages/{message_id}/reactions', 'bob', 'POST', `/messages/${ids.msg}/reactions`, { emoji_name: 'octopus' });
  await check('POST /messages/{message_id}/reactions', 'bob', 'POST', `/messages/${ids.msg}/reactions`, { emoji_name: 'octopus' }, 400);
  await check('POST /messages/{message_id}/reactions', 'bob', 'POST', `/messages/${ids.msg}/reactions`, { emoji_name: 'octopus', emoji_code: 'ffff' }, 400);
  await check('DELETE /messages/{message_id}/reactions', 'bob', 'DELETE', `/messages/${ids.msg}/reactions`, { emoji_name: 'octopus' });
  await check('DELETE /messages/{message_id}/reactions', 'bob', 'DELETE', `/messages/${ids.msg}/reactions`, { emoji_name: 'octopus' }, 400);
  await check('DELETE /messages/{message_id}/reactions', 'bob', 'DELETE', `/messages/${ids.msg}/reactions`, { emoji_name: 'no_such_emoji' }, 400);
  // A poll: its message carries the widget submessage, and a vote sends the
  // submessage event. POST /submessage itself is not in the yaml.
  const poll = await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'conformance poll', content: '/poll Tea?\nYes\nNo' });
  const vote = await call('bob', 'POST', '/submessage', { message_id: String(poll.id), msg_type: 'widget', content: '{"type":"vote","key":"canned,0","vote":1}' });
  assert.equal(vote.status, 200, JSON.stringify(vote.body));
  await check('GET /messages/{message_id}', 'bob', 'GET', `/messages/${poll.id}`, {});
  await check('POST /messages/flags', 'bob', 'POST', '/messages/flags', { messages: [ids.msg], op: 'add', flag: 'starred' });
  await check('POST /messages/flags', 'bob', 'POST', '/messages/flags', { messages: [ids.msg], op: 'add', flag: 'read' });
  await check('POST /messages/flags', 'bob', 'POST', '/messages/flags', { messages: [ids.msg], op: 'remove', flag: 'read' });
  await check('POST /messages/render', 'alice', 'POST', '/messages/render', { content: '**hi** $$x^2$$' });
  await check('POST /mark_topic_as_read', 'bob', 'POST', '/mark_topic_as_read', { stream_id: ids.general, topic_name: 'conformance moved' });
  await check('POST /mark_stream_as_read', 'bob', 'POST', '/mark_stream_as_read', { stream_id: ids.general });
  await check('POST /mark_all_as_read', 'bob', 'POST', '/mark_all_as_read', {});
  await check('POST /typing', 'alice', 'POST', '/typing', { op: 'start', to: [ids.bob] });
  await check('POST /typing', 'alice', 'POST', '/typing', { op: 'stop', to: [ids.bob] });
  await check('POST /typing', 'alice', 'POST', '/typing', { type: 'stream', op: 'start', stream_id: ids.general, topic: 'conformance moved' });
  await check('POST /typing', 'alice', 'POST', '/typing', { op: 'start', to: [9999] }, 400);
  await check('POST /messages/{message_id}/typing', 'alice', 'POST', `/messages/${ids.msg}/typing`, { op: 'start' });
  await check('DELETE /messages/{message_id}', 'admin', 'DELETE', `/messages/${ids.dm}`, {}, 400);
  await check('DELETE /messages/{message_id}', 'alice', 'DELETE', `/messages/${ids.msg}`, {}, 400);
  await check('DELETE /messages/{message_id}', 'admin', 'DELETE', `/messages/${ids.msg}`, {});

  // The organization (PATCH /realm is partial and not in the yaml; it causes realm/update and, for a group
  // setting, realm/update_dict).
  await call('admin', 'PATCH', '/realm', { description: 'Conformance' });
  const members = (await call('admin', 'GET', '/user_groups')).body.user_groups.find((g) => g.name === 'role:members').id;
  await call('admin', 'PATCH', '/realm', { can_create_private_channel_group: { new: { direct_members: [ids.alice], direct_subgroups: [members] } } });

  // Scheduled messages (they cause scheduled_messages add/update/remove) and read receipts.
  const later = Math.floor(Date.now() / 1000) + 3600;
  const scheduled = await check('POST /scheduled_messages', 'alice', 'POST', '/scheduled_messages', { type: 'stream', to: ids.general, topic: 'conformance later', content: 'Later', scheduled_delivery_timestamp: later });
  await check('POST /scheduled_messages', 'alice', 'POST', '/scheduled_messages', { type: 'stream', to: ids.general, topic: 'x', content: 'x', scheduled_delivery_timestamp: 1000 }, 400);
  await check('POST /scheduled_messages', 'alice', 'POST', '/scheduled_messages', { type: 'stream', to: 9999, topic: 'x', content: 'x', scheduled_delivery_timestamp: later }, 400);
  await check('GET /scheduled_messages', 'alice', 'GET', '/scheduled_messages', {});
  await check('PATCH /scheduled_messages/{scheduled_message_id}', 'alice', 'PATCH', `/scheduled_messages/${scheduled.scheduled_message_id}`, { content: 'Later still', scheduled_delivery_timestamp: later + 60 });
  await check('PATCH /scheduled_messages/{scheduled_message_id}', 'alice', 'PATCH', `/scheduled_messages/${scheduled.scheduled_message_id}`, { scheduled_delivery_timestamp: 1000 }, 400);
  await check('PATCH /scheduled_messages/{scheduled_message_id}', 'alice', 'PATCH', `/scheduled_messages/${scheduled.scheduled_message_id}`, { type: 'stream', to: 9999 }, 400);
  await check('PATCH /scheduled_messages/{scheduled_message_id}', 'bob', 'PATCH', `/scheduled_messages/${scheduled.scheduled_message_id}`, { content: 'x' }, 404);
  await check('DELETE /scheduled_messages/{scheduled_message_id}', 'alice', 'DELETE', `/scheduled_messages/${scheduled.scheduled_message_id}`, {});
  await check('DELETE /scheduled_messages/{scheduled_message_id}', 'alice', 'DELETE', `/scheduled_messages/${scheduled.scheduled_message_id}`, {}, 404);
  await check('GET /messages/{message_id}/read_receipts', 'alice', 'GET', `/messages/${ids.dm}/read_receipts`, {}, 400);
  await call('admin', 'PATCH', '/realm', { enable_read_receipts: true });
  await check('GET /messages/{message_id}/read_receipts', 'alice', 'GET', `/messages/${ids.dm}/read_receipts`, {});

  // Presence.
  await check('POST /users/me/presence', 'alice', 'POST', '/users/me/presence', { status: 'active', new_user_input: true });
  await check('GET /users/{user_id_or_email}/presence', 'bob', 'GET', '/users/alice@example.com/presence', {});
  await check('GET /realm/presence', 'bob', 'GET', '/realm/presence', {});

  // Streams, administered.
  await check('DELETE /streams/{stream_id}', 'admin', 'DELETE', `/streams/${ids.design}`, {});
  await check('DELETE /streams/{stream_id}', 'admin', 'DELETE', `/streams/${ids.design}`, {}, 400);

  // Custom emoji, linkifiers, uploads, attachments.
  await check('GET /realm/emoji', 'alice', 'GET', '/realm/emoji', {});
  await checkUpload('POST /realm/emoji/{emoji_name}', 'alice', '/realm/emoji/dot');
  await check('DELETE /realm/emoji/{emoji_name}', 'alice', 'DELETE', '/realm/emoji/dot', {});
  await check('DELETE /realm/emoji/{emoji_name}', 'alice', 'DELETE', '/realm/emoji/nothing_here', {}, 404);
  await check('GET /realm/linkifiers', 'alice', 'GET', '/realm/linkifiers', {});
  const linkifier = await check('POST /realm/filters', 'admin', 'POST', '/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/{id}' });
  await check('PATCH /realm/filters/{filter_id}', 'admin', 'PATCH', `/realm/filters/${linkifier.id}`, { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/t/{id}' });
  await check('DELETE /realm/filters/{filter_id}', 'admin', 'DELETE', `/realm/filters/${linkifier.id}`, {});
  const second = await check('POST /realm/filters', 'admin', 'POST', '/realm/filters', { pattern: '!(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/b/{id}' });
  const third = await check('POST /realm/filters', 'admin', 'POST', '/realm/filters', { pattern: '~(?P<id>[0-9]+)', url_template: 'https://tracker.example.com/c/{id}' });
  await check('PATCH /realm/linkifiers', 'admin', 'PATCH', '/realm/linkifiers', { ordered_linkifier_ids: [third.id, second.id] });
  const playground = await check('POST /realm/playgrounds', 'admin', 'POST', '/realm/playgrounds', { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' });
  await check('DELETE /realm/playgrounds/{playground_id}', 'admin', 'DELETE', `/realm/playgrounds/${playground.id}`, {});

  // Custom profile fields (levels 244, 252), and a value, for its realm_user event.
  const desk = await check('POST /realm/profile_fields', 'admin', 'POST', '/realm/profile_fields', { name: 'Desk', hint: 'Floor and room', field_type: 1, required: true });
  const team = await check('POST /realm/profile_fields', 'admin', 'POST', '/realm/profile_fields', { name: 'Team', field_type: 3, field_data: { a: { text: 'Kitchen', order: '1' } }, display_in_profile_summary: true });
  await check('PATCH /realm/profile_fields', 'admin', 'PATCH', '/realm/profile_fields', { order: [team.id, desk.id] });
  await check('GET /realm/profile_fields', 'alice', 'GET', '/realm/profile_fields', {});
  await call('alice', 'PATCH', '/users/me/profile_data', { data: [{ id: desk.id, value: '3rd floor' }] });

  // Default streams (level 200).
  await check('POST /default_streams', 'admin', 'POST', '/default_streams', { stream_id: ids.general });
  await check('POST /default_streams', 'admin', 'POST', '/default_streams', { stream_id: 9999 }, 400);
  await check('POST /users/me/subscriptions', 'admin', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true });
  ids.vault = (await call('admin', 'GET', '/get_stream_id', { stream: 'vault' })).body.stream_id;
  await check('POST /default_streams', 'admin', 'POST', '/default_streams', { stream_id: ids.vault }, 400);
  await check('DELETE /default_streams', 'admin', 'DELETE', '/default_streams', { stream_id: ids.general });
  await check('DELETE /default_streams', 'admin', 'DELETE', '/default_streams', { stream_id: 9999 }, 400);
  await check('POST /users/me/subscriptions', 'admin', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }], is_default_stream: true });

  await check('GET /streams/{stream_id}/email_address', 'alice', 'GET', `/streams/${ids.general}/email_address`, {});
  await check('GET /streams/{stream_id}/email_address', 'alice', 'GET', '/streams/9999/email_address', {}, 400);

  await invitations();
  await pushDevices();
  // POST /users/me/onboarding_steps (not in the yaml) causes an onboarding_steps event.
  await call('alice', 'POST', '/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' });

  ids.upload = (await checkUpload('POST /user_uploads', 'alice', '/user_uploads')).url;
  ids.attachment = (await check('GET /attachments', 'alice', 'GET', '/attachments', {})).attachments[0].id;

  await mobileRoutesAndDefects();
  await wildcardMentionPolicy();
}

// Invitations by email and reusable links (they cause invites_changed events).
async function invitations() {
  await check('POST /invites', 'alice', 'POST', '/invites', { invitee_emails: 'dora@example.com', stream_ids: [ids.general] });
  await check('POST /invites', 'alice', 'POST', '/invites', { invitee_emails: 'bob@example.com, erin@example.com', stream_ids: [] }, 400);
  await check('POST /invites', 'alice', 'POST', '/invites', { invitee_emails: '', stream_ids: [] }, 400);
  await check('POST /invites', 'alice', 'POST', '/invites', { invitee_emails: 'fay@example.com', stream_ids: [9999] }, 400);
  // can_invite_users_group replaced invite_to_realm_policy (level 321).
  const groups = (await call('admin', 'GET', '/user_groups')).body.user_groups;
  const groupID = (name) => groups.find((g) => g.name === name).id;
  await call('admin', 'PATCH', '/realm', { can_invite_users_group: { new: groupID('role:administrators') } });
  await check('POST /invites', 'alice', 'POST', '/invites', { invitee_emails: 'gil@example.com', stream_ids: [] }, 400);
  await call('admin', 'PATCH', '/realm', { can_invite_users_group: { new: groupID('role:members') } });
  await check('POST /invites/multiuse', 'admin', 'POST', '/invites/multiuse', { stream_ids: [ids.general] });
  await check('POST /invites/multiuse', 'alice', 'POST', '/invites/multiuse', { stream_ids: [] }, 400);
  await check('POST /invites/multiuse', 'admin', 'POST', '/invites/multiuse', { stream_ids: [9999] }, 400);
  const invites = (await check('GET /invites', 'admin', 'GET', '/invites', {})).invites;
  const byEmail = invites.find((i) => i.email === 'dora@example.com').id;
  const link = invites.find((i) => i.is_multiuse).id;
  await check('DELETE /invites/{invite_id}', 'alice', 'DELETE', `/invites/${byEmail}`, {});
  await check('DELETE /invites/{invite_id}', 'alice', 'DELETE', '/invites/9999', {}, 400);
  await check('DELETE /invites/multiuse/{invite_id}', 'admin', 'DELETE', `/invites/multiuse/${link}`, {});
  await check('DELETE /invites/multiuse/{invite_id}', 'admin', 'DELETE', `/invites/multiuse/${link}`, {}, 400);
  await check('DELETE /invites/multiuse/{invite_id}', 'admin', 'DELETE', '/invites/multiuse/9999', {}, 400);
}

// Phones' push registrations, answered as a Zulip server without push notifications configured.
async function pushDevices() {
  const token = Buffer.from('conformance device').toString('base64');
  await check('POST /users/me/apns_device_token', 'bob', 'POST', '/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' });
  await check('POST /users/me/apns_device_token', 'bob', 'POST', '/users/me/apns_device_token', { token: '', appid: 'org.zulip.Zulip' }, 400);
  await check('POST /users/me/apns_device_token', 'bob', 'POST', '/users/me/apns_device_token', { token: 'abc', appid: 'org.zulip.Zulip' }, 400);
  await check('DELETE /users/me/apns_device_token', 'bob', 'DELETE', '/users/me/apns_device_token', { token });
  await check('DELETE /users/me/apns_device_token', 'bob', 'DELETE', '/users/me/apns_device_token', { token: '' }, 400);
  await check('DELETE /users/me/apns_device_token', 'bob', 'DELETE', '/users/me/apns_device_token', { token }, 400);
  await check('POST /users/me/android_gcm_reg_id', 'bob', 'POST', '/users/me/android_gcm_reg_id', { token: 'conformance-fcm' });
  await check('POST /users/me/android_gcm_reg_id', 'bob', 'POST', '/users/me/android_gcm_reg_id', { token: '' }, 400);
  await check('DELETE /users/me/android_gcm_reg_id', 'bob', 'DELETE', '/users/me/android_gcm_reg_id', { token: 'conformance-fcm' });
  await check('DELETE /users/me/android_gcm_reg_id', 'bob', 'DELETE', '/users/me/android_gcm_reg_id', { token: '' }, 400);
  await check('DELETE /users/me/android_gcm_reg_id', 'bob', 'DELETE', '/users/me/android_gcm_reg_id', { token: 'conformance-fcm' }, 400);
}

// can_mention_many_users_group (level 352; wildcard_mention_policy before)
// refuses wildcards reaching more than 15 people, so a crowd joins #general
// and talks in one topic first.
async function wildcardMentionPolicy() {
  const groups = (await call('admin', 'GET', '/user_groups')).body.user_groups;
  const admins = groups.find((g) => g.name === 'role:administrators').id;
  await call('admin', 'PATCH', '/realm', { can_mention_many_users_group: { new: admins } });
  const crowd = [];
  for (let i = 0; i < 16; i++) {
    const email = `crowd${i}@example.com`;
    await call('admin', 'POST', '/users', { email, password: 'crowd-secret', full_name: `Crowd ${i}` });
    crowd.push({ email, key: (await call(null, 'POST', '/dev_fetch_api_key', { username: email })).body.api_key });
  }
  await call('admin', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: crowd.map((c) => c.email) });
  for (const who of crowd) await call(who, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'crowded', content: 'here' });
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'calm', content: 'hello @**all**' }, 400);
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'crowded', content: 'hello @**topic**' }, 400);
  const quiet = await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: 'general', topic: 'crowded', content: 'hello' });
  await check('PATCH /messages/{message_id}', 'alice', 'PATCH', `/messages/${quiet.id}`, { content: 'hello @**channel**' }, 400);
  await check('PATCH /messages/{message_id}', 'alice', 'PATCH', `/messages/${quiet.id}`, { content: 'hello @**topic**' }, 400);
}

// The routes Zulip's mobile app uses and the defects issue 19 found, each
// held to the yaml since.
async function mobileRoutesAndDefects() {
  // The mobile app's routes.
  await check('POST /messages/flags/narrow', 'bob', 'POST', '/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'stream', operand: 'general' }], op: 'add', flag: 'read' });
  await check('POST /user_topics', 'alice', 'POST', '/user_topics', { stream_id: ids.general, topic: 'lunch', visibility_policy: 1 });
  await check('POST /user_topics', 'alice', 'POST', '/user_topics', { stream_id: ids.general, topic: 'lunch', visibility_policy: 0 });
  await check('POST /users/me/status', 'alice', 'POST', '/users/me/status', { status_text: 'In a meeting', emoji_name: 'calendar' });
  for (const bad of [{}, { status_text: 'x'.repeat(61) }, { emoji_code: '1f4c5' }, { emoji_name: 'invalid' }, { emoji_name: 'calendar', emoji_code: 'zzzz' }, { emoji_name: 'calendar', emoji_code: '999', reaction_type: 'realm_emoji' }]) {
    await check('POST /users/me/status', 'alice', 'POST', '/users/me/status', bad, 400);
  }
  await check('GET /messages/matches_narrow', 'alice', 'GET', '/messages/matches_narrow', { msg_ids: [1, 2], narrow: [{ operator: 'stream', operand: 'general' }] });
  await check('GET /messages', 'alice', 'GET', '/messages', { anchor: 1, num_before: 0, num_after: 5, narrow: [{ operator: 'with', operand: 1 }] });
  await check('PATCH /settings', 'alice', 'PATCH', '/settings', { twenty_four_hour_time: true, display_emoji_reaction_users: true, emojiset: 'google', presence_enabled: true });
  // The defects found.
  await checkRequest('POST /mark_all_as_read', 'bob', 'POST', '/mark_all_as_read', '', 'multipart/form-data; boundary=zulip-js');
  await check('GET /user_uploads/{realm_id_str}/{filename}', 'alice', 'GET', ids.upload.replace(/^\/user_uploads/, '/user_uploads'), {});
  await check('DELETE /attachments/{attachment_id}', 'alice', 'DELETE', `/attachments/${ids.attachment}`, {});
  await check('DELETE /attachments/{attachment_id}', 'alice', 'DELETE', `/attachments/${ids.attachment}`, {}, 400);
  await check('DELETE /attachments/{attachment_id}', null, 'DELETE', `/attachments/${ids.attachment}`, {}, 401);
  await check('POST /messages', 'alice', 'POST', '/messages', { type: 'stream', to: [], topic: 'x', content: 'x' }, 400);
  await check('POST /register', 'alice', 'POST', '/register', { narrow: [['stream', 'no such stream']] });
  await check('POST /users/me/subscriptions', 'alice', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'random' }], principals: [ids.bob] });
}

// A 1×1 PNG sent as one multipart file.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
function checkUpload(op, who, path) {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'dot.png');
  return checkRequest(op, who, 'POST', path, form);
}

// checkRequest is check with a body built by the caller, meant to succeed.
async function checkRequest(op, who, method, path, body, contentType) {
  const headers = authorization(who);
  if (contentType) headers['Content-Type'] = contentType;
  const res = await fetch(server.url + '/api/v1' + path, { method, body, headers });
  return record(op, { status: res.status, body: await res.json() }, 200);
}

test('every event conforms to the yaml', { timeout: 90000 }, async () => {
  // Runs after the requests: node:test runs a file's tests in order.
  const variants = api.eventVariants();
  const failures = [];
  for (const { who, event } of events) {
    const candidates = variants.filter((v) => v.types.includes(event.type) && (v.ops.length === 0 || v.ops.includes(event.op)));
    const label = `event ${event.type}${event.op ? '/' + event.op : ''}`;
    if (!candidates.length) {
      failures.push({ op: label, text: `${label}: no schema (${JSON.stringify(event).slice(0, 200)})` });
      continue;
    }
    const errors = candidates.map((v) => api.validate(v.ptr, event));
    if (errors.every((e) => e.length)) {
      errors.forEach((e, i) => (errors[i] = e.map(anyIndex)));
      const best = errors.reduce((a, b) => (b.length < a.length ? b : a));
      failures.push({ op: label, text: `${label}: ${[...new Set(best)].join('; ')}`, example: JSON.stringify(event).slice(0, 300) });
    }
  }
  assert.deepEqual(texts(dedupe(failures)), []);
});

// anyIndex writes array indexes in an error's path as *, so one problem of
// many list items reads once.
const anyIndex = (text) => text.replace(/\/\d+(?=\/| )/g, '/*');

// dedupe keeps one failure per text (the same event reaches several queues).
function dedupe(failures) {
  const seen = new Map();
  for (const f of failures) if (!seen.has(f.text)) seen.set(f.text, f);
  return [...seen.values()].map((f) => (f.example ? { ...f, text: `${f.text} — ${f.example}` } : f));
}
const texts = (failures) => failures.map((f) => f.text);

test('every event type the coverage page lists was caused', () => {
  const seen = new Set(events.flatMap(({ event }) => [event.type, `${event.type}/${event.op}`]));
  const missing = emittedEvents().filter((e) => !seen.has(e));
  assert.deepEqual(missing, []);
});

test('every endpoint marked done that the yaml describes was exercised, with each documented error', () => {
  const yaml = yamlOperations();
  const missing = [];
  for (const key of new Set(doneEndpoints())) {
    const ops = yaml.get(key);
    if (!ops) continue;
    const exercised = ops.filter((op) => results.some((r) => r.op === op));
    if (!exercised.length) {
      missing.push({ op: key, text: `${key}: never called` });
      continue;
    }
    for (const op of exercised) {
      if (!results.some((r) => r.op === op && r.status === 200)) missing.push({ op, text: `${op}: no success` });
      const errors = documentedErrors(op);
      for (const { status, code } of errors) {
        const wanted = errors.filter((e) => e.status === status && e.code === code).length -
          UNCAUSABLE.filter((u) => u.op === op && u.status === status && u.code === code).length;
        const got = results.filter((r) => r.op === op && r.status === status && (!code || r.code === code)).length;
        if (got < wanted) missing.push({ op, text: `${op}: documented ${status} ${code ?? ''} not caused (${got} of ${wanted})` });
      }
    }
  }
  assert.deepEqual(texts(dedupe(missing)), []);
});
