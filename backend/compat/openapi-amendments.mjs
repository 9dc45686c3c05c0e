// Amendments to this process's parsed copy of Zulip's OpenAPI description at
// feature level 218 (../shared/openapi/zulip-8.0-dev-fl218.yaml stays as it
// is). Two kinds, kept apart:
//
// CHANGELOG: Zulip's API changelog entries from 219 to 277 (Zulip 9.0, the
// level Lanchat announces) that touch an endpoint or event Lanchat serves.
// Entries about things Lanchat does not serve (drafts, custom profile
// fields...) or that this yaml does
// not describe (invites, push devices: backend/api/changelog_test.go checks
// those) are left out.
//
// LANCHAT: fields Lanchat sends that the yaml does not list, kept because
// Zulip clients ignore unknown fields (each listed in docs/api-coverage.md
// with its reason).
//
// ERRATA (at the end): the yaml's own errors.

// success is an operation's 200 schema; a shared one (a $ref to
// components.responses, or to a schema) is copied into the operation first,
// so an amendment changes that operation only.
function success(doc, op) {
  const [method, path] = op.split(' ');
  const responses = doc.paths[path][method.toLowerCase()].responses;
  const deref = (node) => (node.$ref ? node.$ref.slice(2).split('/').reduce((o, k) => o[k], doc) : node);
  if (responses['200'].$ref) responses['200'] = structuredClone(deref(responses['200']));
  const content = responses['200'].content['application/json'];
  if (content.schema.$ref) content.schema = structuredClone(deref(content.schema));
  return content.schema;
}

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
const streams = (doc) => [...objects(doc, ['stream_id', 'history_public_to_subscribers'])];
const userGroups = (doc) => [...objects(doc, ['members', 'direct_subgroup_ids', 'is_system_group'])];

// groupSetting is a group-setting value (Zulip 9.0's GroupSettingValue): a
// group's ID or a set of users and groups.
const groupSetting = { anyOf: [{ type: 'integer' }, { type: 'object', additionalProperties: false, properties: { direct_members: { type: 'array', items: { type: 'integer' } }, direct_subgroups: { type: 'array', items: { type: 'integer' } } } }] };

export const CHANGELOG = [
  {
    level: 222,
    change: 'realm_user update events for (de)activation carry {user_id, is_active}',
    apply(doc) {
      event(doc, 'realm_user', 'update').properties.person.oneOf.push({
        type: 'object', additionalProperties: false, required: ['user_id', 'is_active'],
        properties: { user_id: { type: 'integer' }, is_active: { type: 'boolean' } },
      });
    },
  },
  {
    level: 222,
    change: 'realm_bot update events for (de)activation carry {user_id, is_active}',
    apply(doc) {
      const bot = event(doc, 'realm_bot', 'update').properties.bot;
      const variant = { type: 'object', additionalProperties: false, required: ['user_id', 'is_active'], properties: { user_id: { type: 'integer' }, is_active: { type: 'boolean' } } };
      event(doc, 'realm_bot', 'update').properties.bot = { anyOf: [bot, variant] };
    },
  },
  {
    level: 226,
    change: 'subscription objects lose email_address',
    apply(doc) {
      for (const s of streams(doc)) delete s.properties.email_address;
    },
  },
  {
    level: 254,
    change: 'stream and subscription objects gain creator_id (required where the object lists what it requires, as at 277)',
    apply(doc) {
      for (const s of streams(doc)) {
        s.properties.creator_id = { type: 'integer', nullable: true };
        if (s.required && !s.required.includes('creator_id')) s.required.push('creator_id');
      }
    },
  },
  {
    level: 257,
    change: 'server_settings and register gain realm_url (realm_uri stays as an alias)',
    apply(doc) {
      closed(success(doc, 'GET /server_settings')).properties.realm_url = { type: 'string' };
      closed(success(doc, 'POST /register')).properties.realm_url = { type: 'string' };
    },
  },
  {
    level: 263,
    change: 'register gains presence_last_update_id',
    apply(doc) {
      closed(success(doc, 'POST /register')).properties.presence_last_update_id = { type: 'integer' };
    },
  },
  {
    level: 219,
    change: 'user_settings default_view and escape_navigates_to_default_view renamed web_home_view and web_escape_navigates_to_home_view',
    apply(doc) {
      const settings = closed(success(doc, 'POST /register')).properties.user_settings;
      for (const [from, to] of [['default_view', 'web_home_view'], ['escape_navigates_to_default_view', 'web_escape_navigates_to_home_view']]) {
        settings.properties[to] = settings.properties[from];
        delete settings.properties[from];
      }
    },
  },
  {
    level: 270,
    change: 'register loses realm_private_message_policy (now direct_message_*_group)',
    apply(doc) {
      delete closed(success(doc, 'POST /register')).properties.realm_private_message_policy;
    },
  },
  {
    level: 219,
    change: 'register gains the settings of levels 219-275 (automatically_follow_topics_where_mentioned 235, web_font_size_px and web_line_height_percent 245, receives_typing_notifications 253, web_navigate_to_sent_message 268, web_channel_default_view 269, web_animate_image_previews 275)',
    apply(doc) {
      Object.assign(closed(success(doc, 'POST /register')).properties.user_settings.properties, {
        automatically_follow_topics_where_mentioned: { type: 'boolean' },
        web_font_size_px: { type: 'integer' },
        web_line_height_percent: { type: 'integer' },
        receives_typing_notifications: { type: 'boolean' },
        web_navigate_to_sent_message: { type: 'boolean' },
        web_channel_default_view: { type: 'integer' },
        web_animate_image_previews: { type: 'string', enum: ['always', 'on_hover', 'never'] },
      });
    },
  },
  {
    level: 221,
    change: 'register gains realm settings of levels 221-281 (server_supported_permission_settings 221, realm_can_access_all_users_group 225, realm_push_notifications_enabled_end_timestamp 231, realm_zulip_update_announcements_stream_id 242, realm_require_unique_names 246, the group settings of 264, 266, 270, 280 and 281); 241 renames the notification streams and 233 hotspots to onboarding_steps',
    apply(doc) {
      const register = closed(success(doc, 'POST /register')).properties;
      Object.assign(register, {
        server_supported_permission_settings: { type: 'object' },
        realm_can_access_all_users_group: groupSetting,
        realm_push_notifications_enabled_end_timestamp: { type: 'integer', nullable: true },
        realm_zulip_update_announcements_stream_id: { type: 'integer' },
        realm_require_unique_names: { type: 'boolean' },
        realm_can_create_public_channel_group: groupSetting,
        realm_can_create_private_channel_group: groupSetting,
        realm_direct_message_initiator_group: groupSetting,
        realm_direct_message_permission_group: groupSetting,
        realm_can_create_web_public_channel_group: groupSetting,
        realm_can_delete_any_message_group: groupSetting,
      });
      for (const [from, to] of [['realm_notifications_stream_id', 'realm_new_stream_announcements_stream_id'], ['realm_signup_notifications_stream_id', 'realm_signup_announcements_stream_id'], ['hotspots', 'onboarding_steps']]) {
        register[to] = register[from];
        delete register[from];
      }
    },
  },
  {
    level: 233,
    change: 'hotspots become onboarding_steps, objects {type, name} (register and the onboarding_steps event)',
    apply(doc) {
      const step = { type: 'object', additionalProperties: false, properties: { type: { type: 'string' }, name: { type: 'string' } } };
      closed(success(doc, 'POST /register')).properties.onboarding_steps.items = step;
      const variant = event(doc, 'hotspots');
      variant.properties.type = { allOf: [{ $ref: '#/components/schemas/EventTypeSchema' }, { enum: ['onboarding_steps'] }] };
      variant.properties.onboarding_steps = { type: 'array', items: step };
      delete variant.properties.hotspots;
    },
  },
  {
    level: 258,
    change: "user groups' can_mention_group may be a group-setting object as well as a group ID",
    apply(doc) {
      for (const g of userGroups(doc)) if (g.properties.can_mention_group) {
        g.properties.can_mention_group = { anyOf: [{ type: 'integer' }, { type: 'object' }] };
      }
      event(doc, 'user_group', 'update').properties.data.properties.can_mention_group = { anyOf: [{ type: 'integer' }, { type: 'object' }] };
    },
  },
  {
    level: 264,
    change: 'realm update_dict events carry the group settings of 225 (can_access_all_users_group), 264, 266 and 270 (channel creation, direct messages), a group ID or a group-setting object',
    apply(doc) {
      Object.assign(event(doc, 'realm', 'update_dict').properties.data.properties, {
        can_access_all_users_group: { type: 'integer' },
        can_create_public_channel_group: groupSetting,
        can_create_private_channel_group: groupSetting,
        direct_message_initiator_group: groupSetting,
        direct_message_permission_group: groupSetting,
      });
    },
  },
  {
    level: 243,
    change: 'register\'s realm_authentication_methods maps each method to {enabled, available, unavailable_reason}',
    apply(doc) {
      closed(success(doc, 'POST /register')).properties.realm_authentication_methods = {
        type: 'object',
        additionalProperties: { type: 'object', additionalProperties: false, properties: { enabled: { type: 'boolean' }, available: { type: 'boolean' }, unavailable_reason: { type: 'string' } } },
      };
    },
  },
  {
    level: 262,
    change: 'GET /users/{user_id}/status: one person\'s status, or "No such user"',
    apply(doc) {
      const status = { type: 'object', additionalProperties: false, properties: { away: { type: 'boolean' }, status_text: { type: 'string' }, emoji_name: { type: 'string' }, emoji_code: { type: 'string' }, reaction_type: { type: 'string' } } };
      doc.paths['/users/{user_id}/status'] = {
        get: {
          operationId: 'get-user-status',
          parameters: [{ $ref: '#/components/parameters/UserId' }],
          responses: {
            200: { description: 'Success.', content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/JsonSuccessBase' }, { additionalProperties: false, properties: { result: {}, msg: {}, ignored_parameters_unsupported: {}, status } }] } } } },
            400: { description: 'No such user.', content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/CodedError' }, { example: { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' } }] } } } },
          },
        },
      };
    },
  },
  {
    level: 272,
    change: 'POST /user_uploads answers url beside the deprecated uri',
    apply(doc) {
      closed(success(doc, 'POST /user_uploads')).properties.url = { type: 'string' };
    },
  },
  {
    level: 273,
    change: 'register gains server_thumbnail_formats',
    apply(doc) {
      closed(success(doc, 'POST /register')).properties.server_thumbnail_formats = { type: 'array', items: { type: 'object' } };
    },
  },
  {
    level: 346,
    change: 'Zulip 10.0 levels 346-371 Lanchat serves: the realm settings of 348, 350, 352, 358, 363 and 367 (register and update_dict), server_can_summarize_topics and hide_ai_features (350), ignored_because_not_subscribed_channels (355), can_subscribe_group on streams (357), realm_billing and is_billing_admin gone (363), last_moved_timestamp (365), navigation_tour_video_url (369)',
    apply(doc) {
      const register = closed(success(doc, 'POST /register')).properties;
      Object.assign(register, {
        realm_enable_guest_user_dm_warning: { type: 'boolean' },
        server_can_summarize_topics: { type: 'boolean' },
        realm_can_summarize_topics_group: groupSetting,
        realm_can_mention_many_users_group: groupSetting,
        realm_message_edit_history_visibility_policy: { type: 'string', enum: ['all', 'moves', 'none'] },
        realm_can_manage_billing_group: groupSetting,
        realm_billing: { type: 'object', additionalProperties: false, properties: { has_pending_sponsorship_request: { type: 'boolean' } } },
        realm_can_resolve_topics_group: groupSetting,
        navigation_tour_video_url: { type: 'string', nullable: true },
      });
      delete register.is_billing_admin;
      for (const u of [...objects(doc, ['is_billing_admin', 'is_guest'])]) delete u.properties.is_billing_admin;
      register.user_settings.properties.hide_ai_features = { type: 'boolean' };
      Object.assign(event(doc, 'realm', 'update_dict').properties.data.properties, {
        can_summarize_topics_group: groupSetting,
        can_mention_many_users_group: groupSetting,
        can_manage_billing_group: groupSetting,
        can_resolve_topics_group: groupSetting,
      });
      for (const op of ['POST /messages/flags', 'POST /messages/flags/narrow']) {
        closed(success(doc, op)).properties.ignored_because_not_subscribed_channels = { type: 'array', items: { type: 'integer' } };
      }
      for (const st of streams(doc)) st.properties.can_subscribe_group = groupSetting;
      for (const m of [...objects(doc, ['last_edit_timestamp'])]) m.properties.last_moved_timestamp = { type: 'integer' };
      // 356: include_all is everyone's, so GET /streams has no error left.
      delete doc.paths['/streams'].get.responses['400'];
      // 351: typing_edit_message.
      const recipient = { type: 'object', additionalProperties: false, properties: { type: { type: 'string', enum: ['direct', 'channel'] }, channel_id: { type: 'integer' }, topic: { type: 'string' }, user_ids: { type: 'array', items: { type: 'integer' } } } };
      success(doc, 'GET /events').allOf.find((x) => x.properties?.events).properties.events.items.oneOf.push({
        type: 'object', additionalProperties: false,
        properties: { id: { type: 'integer' }, type: { type: 'string', enum: ['typing_edit_message'] }, op: { type: 'string', enum: ['start', 'stop'] }, sender_id: { type: 'integer' }, message_id: { type: 'integer' }, recipient },
      });
    },
  },
];

export const LANCHAT = [
  { field: 'chat_version in server_settings and register', why: "Lanchat's own version beside zulip_version",
    apply(doc) {
      closed(success(doc, 'GET /server_settings')).properties.chat_version = { type: 'string' };
      closed(success(doc, 'POST /register')).properties.chat_version = { type: 'string' };
    } },
  { field: 'realm_logo and realm_night_logo in server_settings', why: 'spec 4.21 lists them',
    apply(doc) {
      Object.assign(closed(success(doc, 'GET /server_settings')).properties, { realm_logo: { type: 'string' }, realm_night_logo: { type: 'string' } });
    } },
  { field: 'sender_short_name, subject_links and display_recipient[].short_name in message objects', why: 'spec 2.1 lists them beside Zulip\'s fields: the short names empty (the spec reserves sender_short_name for future use), subject_links the same list as topic_links',
    apply(doc) {
      for (const m of [...objects(doc, ['sender_realm_str', 'topic_links'])]) {
        Object.assign(m.properties, { sender_short_name: { type: 'string' }, subject_links: { type: 'array', items: { type: 'object' } } });
        for (const v of m.properties.display_recipient?.oneOf ?? []) if (v.items?.properties) v.items.properties.short_name = { type: 'string' };
      }
    } },
  { field: 'bot_type in GET /users/me', why: 'spec 2.5 user object field: null for people',
    apply(doc) {
      closed(success(doc, 'GET /users/me')).properties.bot_type = { type: 'integer', nullable: true };
    } },
  { field: 'is_archived and subscriber_count in stream and subscription objects', why: 'Zulip 10.0 fields (feature levels 315, 394), always false and the live count',
    apply(doc) {
      for (const s of streams(doc)) Object.assign(s.properties, { is_archived: { type: 'boolean' }, subscriber_count: { type: 'integer' } });
    } },
  { field: 'deactivated in user group objects', why: 'Zulip 10.0 field (feature level 290), always false',
    apply(doc) {
      for (const g of userGroups(doc)) g.properties.deactivated = { type: 'boolean' };
    } },
  { field: 'bot_owner (email) in user objects of bots', why: 'spec 2.5 lists it beside Zulip\'s bot_owner_id',
    apply(doc) {
      for (const u of objects(doc, ['user_id', 'bot_owner_id', 'is_bot'])) u.properties.bot_owner = { type: 'string' };
    } },
  { field: 'client and pushable in the per-client and aggregated objects of GET /users/{user}/presence', why: 'spec 2.6 lists them',
    apply(doc) {
      Object.assign(closed(success(doc, 'GET /users/{user_id_or_email}/presence')).properties.presence.additionalProperties.properties, { client: { type: 'string' }, pushable: { type: 'boolean' } });
    } },
  { field: 'author {id, email, full_name} in custom emoji objects', why: 'spec 2.7 lists it beside Zulip\'s author_id',
    apply(doc) {
      closed(ref(doc, 'RealmEmoji')).properties.author = { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' }, full_name: { type: 'string' } } };
    } },
  { field: 'not_subscribed in DELETE /users/me/subscriptions', why: 'spec 4.12 names it; not_removed carries the same names',
    apply(doc) {
      closed(success(doc, 'DELETE /users/me/subscriptions')).properties.not_subscribed = { type: 'array', items: { type: 'string' } };
    } },
  { field: 'filename in POST /user_uploads', why: 'Zulip 10.0 field (feature level 286)',
    apply(doc) {
      closed(success(doc, 'POST /user_uploads')).properties.filename = { type: 'string' };
    } },
  { field: 'group_id in POST /user_groups/create', why: 'Zulip 10.0 field (feature level 317): the new group\'s ID',
    apply(doc) {
      closed(success(doc, 'POST /user_groups/create')).properties.group_id = { type: 'integer' };
    } },
  { field: 'presence_last_update_id in GET /realm/presence', why: 'the same builder answers POST /users/me/presence, where Zulip 9.0 (feature level 263) has it',
    apply(doc) {
      closed(success(doc, 'GET /realm/presence')).properties.presence_last_update_id = { type: 'integer' };
    } },
];

// ERRATA: where the yaml's schema contradicts its own text.
export const ERRATA = [
  { error: "reaction events' user object names the ID user_id (the yaml's description says so; its schema has id)",
    apply(doc) {
      for (const op of ['add', 'remove']) {
        const variant = event(doc, 'reaction', op);
        const i = variant.allOf.findIndex((s) => s.$ref === '#/components/schemas/EmojiReactionBase');
        const base = structuredClone(ref(doc, 'EmojiReactionBase'));
        const user = base.allOf.find((s) => s.properties?.user).properties.user;
        user.properties = { user_id: { type: 'integer' }, email: { type: 'string' }, full_name: { type: 'string' } };
        variant.allOf[i] = base;
      }
    } },
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
];

export function amend(doc) {
  for (const a of [...ERRATA, ...CHANGELOG, ...LANCHAT]) a.apply(doc);
}
