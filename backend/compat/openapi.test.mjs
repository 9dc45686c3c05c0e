// The validator itself: which yaml a level is held to, and that it refuses
// what the conformance test relies on it refusing (a missing required field,
// a field neither Zulip's description nor the product spec lists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { loadZulipOpenAPI, yamlFor } from './openapi.mjs';

test('a feature level is held to the yaml of the first release at or above it', () => {
  assert.equal(basename(yamlFor(277)), 'zulip-9.0-fl277.yaml');
  assert.equal(basename(yamlFor(278)), 'zulip-10.0-fl371.yaml');
  assert.equal(basename(yamlFor(371)), 'zulip-10.0-fl371.yaml');
  assert.throws(() => yamlFor(372), /no Zulip OpenAPI description for feature level 372/);
});

for (const level of [277, 371]) {
  let loaded;
  const load = () => (loaded ??= loadZulipOpenAPI(level));
  test(`at level ${level} the validator refuses a missing required field and an unknown one`, () => {
    const api = load();
    const ptr = api.responsePointer('GET /streams/{stream_id}', 200);
    // The yaml's own example of the answer, as Zulip sends it.
    const example = api.doc.paths['/streams/{stream_id}'].get.responses['200'].content['application/json'].schema.allOf
      .find((s) => s.example).example;
    assert.deepEqual(api.validate(ptr, example), []);

    const missing = structuredClone(example);
    delete missing.stream.creator_id;
    assert.deepEqual(api.validate(ptr, missing), ["/stream must have required property 'creator_id'"]);

    const unknown = structuredClone(example);
    unknown.stream.subscriber_count = 3;
    assert.deepEqual(api.validate(ptr, unknown), ["/stream must NOT have additional properties 'subscriber_count'"]);
  });

  test(`at level ${level} the spec's fields are the amendments, and no others`, () => {
    const api = load();
    const ptr = api.responsePointer('GET /server_settings', 200);
    const base = { result: 'success', msg: '', authentication_methods: {}, external_authentication_methods: [], zulip_feature_level: level, zulip_version: '9.0', zulip_merge_base: '', push_notifications_enabled: false, email_auth_enabled: true, require_email_format_usernames: true };
    assert.deepEqual(api.validate(ptr, { ...base, chat_version: '0.1.0', realm_logo: '/logo.png' }), []); // spec 4.21
    assert.deepEqual(api.validate(ptr, { ...base, lanchat_version: '0.1.0' }), ["/ must NOT have additional properties 'lanchat_version'"]);
  });
}
