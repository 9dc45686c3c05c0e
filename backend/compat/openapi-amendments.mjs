// Amendments to this process's parsed copy of Zulip's OpenAPI description
// (the yaml files in ../shared/openapi stay as they are). Two kinds, kept
// apart:
//
// SPEC: the product spec's own fields that Zulip's description does not list
// (../shared/spec/api-spec.md; where the spec says otherwise, the spec wins
// and its fields stay beside Zulip's). Each cites its section. These are the
// only extra fields an answer or event may carry: nothing else is added here.
//
// ERRATA (at the end): where the yaml's schema contradicts its own text or
// example, or what Zulip sends.
//
// Each amendment applies to every yaml openapi.mjs may load (9.0, 10.0), so
// the same list holds whichever level the server announces.

// success is an operation's 200 schema; a shared one (a $ref to
// components.responses, or to a schema) is copied into the operation first,
// so an amendment changes that operation only.
function success(doc, op) {
  const [method, path] = op.split(' ');
  const responses = doc.paths[path][method.toLowerCase()].responses;
  if (responses['200'].$ref) responses['200'] = structuredClone(deref(doc, responses['200']));
  const content = responses['200'].content['application/json'];
  if (content.schema.$ref) content.schema = structuredClone(deref(doc, content.schema));
  return content.schema;
}

// deref is the node a $ref names, or the node itself.
const deref = (doc, node) => (node.$ref ? node.$ref.slice(2).split('/').reduce((o, k) => o[k], doc) : node);

// The closed object part of a schema: itself, or its allOf branch that lists
// properties with additionalProperties false.
function closed(schema) {
  if (schema.properties && schema.additionalProperties === false) return schema;
  const part = schema.allOf?.find((s) => s.properties && s.additionalProperties === false);
  if (!part) throw new Error('amendment target is not a closed object schema');
  return part;
}

const event = (doc, type, op) =>
  success(doc, 'GET /events').allOf.find((s) => s.properties?.events).properties.events.items.oneOf.find((v) => {
    const enums = (s) => [...(s?.enum ?? []), ...(s?.allOf ?? []).flatMap(enums)];
    const prop = (key) => [v, ...(v.allOf ?? [])].map((s) => s.properties?.[key]).find(Boolean);
    return enums(prop('type')).includes(type) && (!op || enums(prop('op')).includes(op));
  });

const ref = (doc, name) => doc.components.schemas[name];

// objects yields every object schema in the description whose properties
// include all of `keys` (the yaml repeats a shape's property list wherever it
// closes it with additionalProperties: false).
function* objects(node, keys) {
  if (node === null || typeof node !== 'object') return;
  if (node.properties && keys.every((k) => k in node.properties)) yield node;
  for (const child of Object.values(node)) yield* objects(child, keys);
}
// Subscription objects: streams with the viewer's settings for them.
const subscriptions = (doc) => [...objects(doc, ['stream_id', 'history_public_to_subscribers', 'pin_to_top'])];

export const SPEC = [
  { spec: '4.21, 9', field: 'chat_version in server_settings and register',
    why: "the spec's version field, beside Zulip's zulip_version wherever that is sent",
    apply(doc) {
      closed(success(doc, 'GET /server_settings')).properties.chat_version = { type: 'string' };
      closed(success(doc, 'POST /register')).properties.chat_version = { type: 'string' };
    } },
  { spec: '4.21', field: 'realm_logo and realm_night_logo in server_settings',
    apply(doc) {
      Object.assign(closed(success(doc, 'GET /server_settings')).properties, { realm_logo: { type: 'string' }, realm_night_logo: { type: 'string' } });
    } },
  { spec: '2.1', field: 'sender_short_name, subject_links and display_recipient[].short_name in message objects',
    why: 'the short names empty (the spec reserves sender_short_name for future use), subject_links the same list as topic_links',
    apply(doc) {
      for (const m of [...objects(doc, ['sender_realm_str', 'topic_links'])]) {
        Object.assign(m.properties, { sender_short_name: { type: 'string' }, subject_links: { type: 'array', items: { type: 'object' } } });
        for (const v of m.properties.display_recipient?.oneOf ?? []) if (v.items?.properties) v.items.properties.short_name = { type: 'string' };
      }
    } },
  { spec: '2.4', field: 'email_address in subscription objects',
    why: 'Zulip 8.0 (feature level 226) moved it to GET /streams/{id}/email_address; the spec keeps it (empty: no email gateway)',
    apply(doc) {
      for (const s of subscriptions(doc)) s.properties.email_address = { type: 'string' };
    } },
  { spec: '2.4, 4.11', field: 'subscribers as email addresses in GET /users/me/subscriptions',
    why: 'the spec lists subscribers as emails there; register and events send user IDs, as the yaml has them',
    apply(doc) {
      const list = closed(success(doc, 'GET /users/me/subscriptions')).properties.subscriptions;
      list.items = structuredClone(deref(doc, list.items));
      for (const s of subscriptions(list)) s.properties.subscribers = { type: 'array', items: { type: 'string' } };
    } },
  { spec: '2.5', field: 'bot_type in GET /users/me', why: 'null for people',
    apply(doc) {
      closed(success(doc, 'GET /users/me')).properties.bot_type = { type: 'integer', nullable: true };
    } },
  { spec: '2.5', field: "bot_owner (email) in bots' user objects", why: "beside Zulip's bot_owner_id",
    apply(doc) {
      for (const u of objects(doc, ['user_id', 'bot_owner_id', 'is_bot'])) u.properties.bot_owner = { type: 'string' };
    } },
  { spec: '2.6', field: 'client and pushable in the per-client and aggregated objects of GET /users/{user}/presence',
    apply(doc) {
      Object.assign(closed(success(doc, 'GET /users/{user_id_or_email}/presence')).properties.presence.additionalProperties.properties, { client: { type: 'string' }, pushable: { type: 'boolean' } });
    } },
  { spec: '2.7', field: 'author {id, email, full_name} in custom emoji objects', why: "beside Zulip's author_id",
    apply(doc) {
      closed(ref(doc, 'RealmEmoji')).properties.author = { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' }, full_name: { type: 'string' } } };
    } },
  { spec: '4.12', field: 'not_subscribed in DELETE /users/me/subscriptions', why: 'not_removed carries the same names',
    apply(doc) {
      closed(success(doc, 'DELETE /users/me/subscriptions')).properties.not_subscribed = { type: 'array', items: { type: 'string' } };
    } },
];

// ERRATA: where the yaml's schema contradicts its own text or example.
export const ERRATA = [
  { error: "a rate-limit error's retry-after is a number of seconds with a fraction (the yaml's example; its schema says integer)",
    apply(doc) {
      closed(ref(doc, 'RateLimitedError')).properties['retry-after'] = { type: 'number' };
    } },
  { error: "Zulip's BAD_NARROW error carries desc (the data field of its BadNarrowOperatorError); the yaml has no schema for it",
    apply(doc) {
      doc.components.schemas.BadNarrowError = {
        allOf: [{ $ref: '#/components/schemas/CodedErrorBase' },
          { additionalProperties: false, properties: { result: {}, msg: {}, code: {}, desc: { type: 'string' } } }],
      };
    } },
  { error: "CANNOT_DEACTIVATE_GROUP_IN_USE carries objections (the yaml's example and text; its schema, CodedError, has none)",
    apply(doc) {
      const op = doc.paths['/user_groups/{user_group_id}/deactivate']?.post;
      if (!op) return; // level 290's route, not in 9.0's yaml
      const inUse = op.responses['400'].content['application/json'].schema.oneOf
        .find((v) => v.allOf.some((s) => s.example?.code === 'CANNOT_DEACTIVATE_GROUP_IN_USE'));
      inUse.allOf[0] = { allOf: [{ $ref: '#/components/schemas/CodedErrorBase' },
        { additionalProperties: false, properties: { result: {}, msg: {}, code: {}, objections: { type: 'array', items: { type: 'object' } } } }] };
    } },
];

export function amend(doc) {
  for (const a of [...ERRATA, ...SPEC]) a.apply(doc);
}
