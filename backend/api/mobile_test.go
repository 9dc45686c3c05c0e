package api_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/domain"
)

// shape is what a client's JSON parser requires of an object: each key's
// kind ("int", "str", "bool", "list", "map", a leading "?" when null or
// absence is accepted), a nested shape, or list{shape} for a list of
// objects. The shapes below transcribe the generated parsers of Zulip's
// mobile app (zulip-flutter, lib/api/model/*.g.dart and lib/api/route/),
// where a non-nullable cast of a missing field fails the whole parse.
type shape map[string]any

// list is a list whose elements have the shape.
type list struct{ of shape }

// mapOf is an object whose every value has the shape.
type mapOf struct{ of shape }

func checkShape(t *testing.T, path string, v any, s shape) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: want an object, got %T %v", path, v, v)
		return
	}
	for key, want := range s {
		checkValue(t, path+"."+key, obj[key], want)
	}
}

func checkValue(t *testing.T, path string, got any, want any) {
	t.Helper()
	switch w := want.(type) {
	case shape:
		checkShape(t, path, got, w)
	case list:
		items, ok := got.([]any)
		if !ok {
			t.Errorf("%s: want a list, got %T %v", path, got, got)
			return
		}
		for i, item := range items {
			checkShape(t, fmt.Sprintf("%s[%d]", path, i), item, w.of)
		}
	case mapOf:
		m, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: want an object, got %T %v", path, got, got)
			return
		}
		for k, item := range m {
			checkShape(t, path+"."+k, item, w.of)
		}
	case string:
		kind, nullable := w, false
		if kind[0] == '?' {
			kind, nullable = kind[1:], true
		}
		if got == nil {
			if !nullable {
				t.Errorf("%s: missing or null, the parser needs %s", path, kind)
			}
			return
		}
		ok := false
		switch kind {
		case "int":
			f, isNum := got.(float64)
			ok = isNum && f == float64(int64(f))
		case "str":
			_, ok = got.(string)
		case "bool":
			_, ok = got.(bool)
		case "list":
			_, ok = got.([]any)
		case "map":
			_, ok = got.(map[string]any)
		}
		if !ok {
			t.Errorf("%s: want %s, got %T %v", path, kind, got, got)
		}
	}
}

var (
	mobileServerSettings = shape{
		"authentication_methods": "map", "zulip_feature_level": "int", "zulip_version": "str", "zulip_merge_base": "?str",
		"push_notifications_enabled": "bool", "is_incompatible": "bool", "email_auth_enabled": "bool",
		"require_email_format_usernames": "bool", "realm_uri": "str", "realm_name": "str", "realm_icon": "str",
		"realm_description": "str", "realm_web_public_access_enabled": "?bool",
	}
	mobileUser = shape{
		"user_id": "int", "delivery_email": "?str", "email": "str", "full_name": "str", "date_joined": "str",
		"is_active": "bool", "is_bot": "bool", "bot_type": "?int", "bot_owner_id": "?int", "role": "int",
		"timezone": "str", "avatar_url": "?str", "avatar_version": "int", "profile_data": "?map",
	}
	mobileStream = shape{
		"stream_id": "int", "name": "str", "description": "str", "rendered_description": "str", "date_created": "int",
		"first_message_id": "?int", "invite_only": "bool", "is_web_public": "bool", "history_public_to_subscribers": "bool",
		"message_retention_days": "?int", "stream_post_policy": "?int", "stream_weekly_traffic": "?int",
	}
	mobileSubscription = func() shape {
		s := shape{"pin_to_top": "bool", "is_muted": "bool", "color": "str", "desktop_notifications": "?bool",
			"email_notifications": "?bool", "wildcard_mentions_notify": "?bool", "push_notifications": "?bool",
			"audible_notifications": "?bool"}
		for k, v := range mobileStream {
			s[k] = v
		}
		return s
	}()
	mobileSnapshot = shape{
		"queue_id": "?str", "last_event_id": "int", "zulip_feature_level": "int", "zulip_version": "str",
		"zulip_merge_base": "str", "alert_words": "list",
		"custom_profile_fields":                 list{shape{"id": "int", "type": "int", "order": "int", "name": "str", "hint": "str", "field_data": "str"}},
		"email_address_visibility":              "?int",
		"server_presence_ping_interval_seconds": "int", "server_presence_offline_threshold_seconds": "int",
		"muted_users": list{shape{"id": "int"}},
		"presences":   mapOf{shape{"active_timestamp": "int", "idle_timestamp": "int"}},
		"realm_emoji": mapOf{shape{"id": "str", "name": "str", "source_url": "str", "still_url": "?str", "deactivated": "bool", "author_id": "?int"}},
		"realm_user_groups": list{shape{"id": "int", "members": "list", "direct_subgroup_ids": "list", "name": "str",
			"description": "str", "is_system_group": "bool"}},
		"recent_private_conversations": list{shape{"max_message_id": "int", "user_ids": "list"}},
		"subscriptions":                list{mobileSubscription},
		"unread_msgs": shape{"count": "int", "mentions": "list", "old_unreads_missing": "bool",
			"pms":     list{shape{"other_user_id": "int", "unread_message_ids": "list"}},
			"streams": list{shape{"topic": "str", "stream_id": "int", "unread_message_ids": "list"}},
			"huddles": list{shape{"user_ids_string": "str", "unread_message_ids": "list"}}},
		"streams":                                  list{mobileStream},
		"user_status":                              "map",
		"user_settings":                            shape{"twenty_four_hour_time": "bool", "display_emoji_reaction_users": "?bool", "emojiset": "str", "presence_enabled": "bool"},
		"user_topics":                              list{shape{"stream_id": "int", "topic_name": "str", "last_updated": "int", "visibility_policy": "int"}},
		"realm_wildcard_mention_policy":            "int",
		"realm_mandatory_topics":                   "bool",
		"realm_waiting_period_threshold":           "int",
		"realm_allow_message_editing":              "bool",
		"realm_message_content_edit_limit_seconds": "?int",
		"realm_presence_disabled":                  "bool",
		"realm_enable_read_receipts":               "bool",
		"realm_default_external_accounts":          mapOf{shape{"name": "str", "text": "str", "hint": "str", "url_pattern": "str"}},
		"max_file_upload_size_mib":                 "int",
		"server_emoji_data_url":                    "str",
		"realm_users":                              list{mobileUser},
		"realm_non_active_users":                   list{mobileUser},
		"cross_realm_bots":                         list{mobileUser},
	}
	mobileMessage = shape{
		"client": "str", "content": "str", "content_type": "str", "id": "int", "is_me_message": "bool",
		"last_edit_timestamp": "?int", "reactions": list{shape{"emoji_name": "str", "emoji_code": "str", "reaction_type": "str", "user_id": "int"}},
		"recipient_id": "int", "sender_email": "str", "sender_full_name": "str", "sender_id": "int",
		"sender_realm_str": "str", "timestamp": "int", "flags": "list", "submessages": "list", "type": "str",
		"match_content": "?str", "match_subject": "?str",
	}
)

// checkMobileMessage adds what depends on the message's kind: a stream
// message's stream and topic, a DM's participants, and a move's entries in
// edit_history, which the app reads as topic beside prev_topic.
func checkMobileMessage(t *testing.T, path string, v any) {
	t.Helper()
	checkShape(t, path, v, mobileMessage)
	m, _ := v.(map[string]any)
	if m["type"] == "stream" {
		checkShape(t, path, v, shape{"stream_id": "int", "subject": "str", "display_recipient": "str"})
	} else {
		checkShape(t, path, v, shape{"display_recipient": list{shape{"id": "int", "email": "str", "full_name": "str"}}})
	}
	history, _ := m["edit_history"].([]any)
	for i, e := range history {
		entry, _ := e.(map[string]any)
		if entry["prev_topic"] != nil {
			checkShape(t, fmt.Sprintf("%s.edit_history[%d]", path, i), entry, shape{"topic": "str", "prev_topic": "str"})
		}
		if entry["prev_stream"] != nil {
			checkShape(t, fmt.Sprintf("%s.edit_history[%d]", path, i), entry, shape{"stream": "int", "prev_stream": "int"})
		}
	}
}

// TestMobileAppStart replays what Zulip's mobile app sends when it adds an
// account and opens it, and checks every answer against what its parsers
// require.
func TestMobileAppStart(t *testing.T) {
	s := apitest.Start(t)
	// Something moved and something sent directly, so the fetch holds both kinds.
	admin := s.Login("admin@example.com")
	moved := send(t, admin, streamMsg("general", "to move", "moving soon"))
	admin.Patch(msgPath(moved, ""), apitest.Form{"topic": "moved"}).OK()
	send(t, admin, apitest.Form{"type": "private", "to": "alice@example.com", "content": "hi"})

	anon := s.Anonymous()
	settings := anon.Get("/api/v1/server_settings", nil).OK()
	checkShape(t, "server_settings", settings.Body, mobileServerSettings)
	if level := settings.Int("zulip_feature_level"); level < 277 || settings.Str("zulip_version") != domain.ZulipVersion || settings.Str("chat_version") == "" {
		t.Errorf("the app refuses feature levels below 277: %s", settings.Raw)
	}

	login := anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "alice@example.com", "password": domain.DevPassword}).OK()
	checkShape(t, "fetch_api_key", login.Body, shape{"api_key": "str", "email": "str", "user_id": "int"})
	alice := s.As(login.Str("email"), login.Str("api_key"))

	reg := alice.Post("/api/v1/register", apitest.Form{
		"apply_markdown": true, "slim_presence": true,
		"client_capabilities": `{"notification_settings_null":true,"bulk_message_deletion":true,"user_avatar_url_field_optional":true,"stream_typing_notifications":false,"user_settings_object":true}`,
	}).OK()
	checkShape(t, "register", reg.Body, mobileSnapshot)
	if reg.Int("event_queue_longpoll_timeout_seconds") != 90 {
		t.Errorf("event_queue_longpoll_timeout_seconds %v, want Zulip's 90", reg.Body["event_queue_longpoll_timeout_seconds"])
	}
	for key := range reg.Body["presences"].(map[string]any) {
		if _, err := strconv.Atoi(key); err != nil {
			t.Errorf("presences keyed by %q, the app parses user IDs", key)
		}
	}
	switch reg.Body["user_settings"].(map[string]any)["emojiset"] {
	case "google", "google-blob", "twitter", "text":
	default:
		t.Errorf("emojiset %v is none the app knows", reg.Body["user_settings"])
	}

	// The emoji data, fetched without credentials.
	emojiURL, ok := strings.CutPrefix(reg.Str("server_emoji_data_url"), s.URL)
	if !ok {
		t.Fatalf("server_emoji_data_url %q is not on %s", reg.Str("server_emoji_data_url"), s.URL)
	}
	emoji := anon.Get(emojiURL, nil)
	if emoji.Status != 200 {
		t.Fatalf("server_emoji_data_url: %d %s", emoji.Status, emoji.Raw)
	}
	names, _ := emoji.Body["code_to_names"].(map[string]any)
	if smile, _ := names["1f642"].([]any); len(names) < 1000 || len(smile) == 0 || smile[0] != "smile" {
		t.Errorf("code_to_names: %d codes, 1f642 → %v", len(names), names["1f642"])
	}

	msgs := alice.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 100, "num_after": 0,
		"narrow": "[]", "apply_markdown": true, "client_gravatar": false}).OK()
	checkShape(t, "messages", msgs.Body, shape{"anchor": "int", "found_newest": "bool", "found_oldest": "bool",
		"found_anchor": "bool", "history_limited": "bool", "messages": "list"})
	sawMove := false
	for i, m := range msgs.List("messages") {
		checkMobileMessage(t, fmt.Sprintf("messages[%d]", i), m)
		sawMove = sawMove || m.(map[string]any)["edit_history"] != nil
	}
	if !sawMove {
		t.Errorf("the fetch should hold the moved message")
	}

	send(t, admin, streamMsg("general", "moved", "after start"))
	evs := alice.Get("/api/v1/events", apitest.Form{"queue_id": reg.Str("queue_id"), "last_event_id": reg.Int("last_event_id")}).OK()
	events := evs.List("events")
	if len(events) == 0 {
		t.Fatalf("no event after a message: %s", evs.Raw)
	}
	for i, e := range events {
		checkShape(t, fmt.Sprintf("events[%d]", i), e, shape{"id": "int", "type": "str"})
		if ev := e.(map[string]any); ev["type"] == "message" {
			checkShape(t, fmt.Sprintf("events[%d]", i), ev, shape{"flags": "list", "message": "map"})
			// The app reads the event's flags into its message.
			m := ev["message"].(map[string]any)
			m["flags"] = ev["flags"]
			checkMobileMessage(t, fmt.Sprintf("events[%d].message", i), m)
		}
	}
}

// POST /messages/flags/narrow marks what a narrow holds, as the mobile app
// does for "mark as read" on a stream or topic and "mark unread from here".
func TestUpdateFlagsForNarrow(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	unread := func() []int64 {
		ids, _ := history(t, bob, apitest.Form{"anchor": "oldest", "num_before": 0, "num_after": 1000,
			"narrow": `[["channel","general"],["is","unread"]]`})
		return ids
	}
	before := unread()
	if len(before) < 2 {
		t.Fatalf("the demo should leave bob unread messages in general: %v", before)
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"update_message_flags"}})
	res := bob.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": "oldest", "num_before": 0, "num_after": 5000,
		"narrow": `[["channel","general"]]`, "op": "add", "flag": "read"}).OK()
	checkShape(t, "flags/narrow", res.Body, shape{"processed_count": "int", "updated_count": "int",
		"first_processed_id": "?int", "last_processed_id": "?int", "found_oldest": "bool", "found_newest": "bool"})
	if res.Int("updated_count") != int64(len(before)) || res.Int("processed_count") < res.Int("updated_count") || res.Body["found_newest"] != true {
		t.Errorf("mark general read: %s (had %d unread)", res.Raw, len(before))
	}
	if left := unread(); len(left) != 0 {
		t.Errorf("still unread: %v", left)
	}
	if evs := q.next(); len(evs) != 1 || evs[0]["op"] != "add" || evs[0]["flag"] != "read" {
		t.Errorf("events %v", evs)
	}
	// Mark unread from the second of them on.
	res = bob.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": before[1], "include_anchor": true, "num_before": 0,
		"num_after": 5000, "narrow": `[["channel","general"]]`, "op": "remove", "flag": "read"}).OK()
	from, _ := history(t, bob, apitest.Form{"anchor": before[1], "num_before": 0, "num_after": 1000, "narrow": `[["channel","general"]]`})
	if res.Int("first_processed_id") != before[1] || !slices.Equal(unread(), from) {
		t.Errorf("mark unread from %d: %s, unread now %v, want %v", before[1], res.Raw, unread(), from)
	}
	bob.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": "newest", "num_before": 0, "num_after": 0,
		"narrow": "[]", "op": "add", "flag": "mentioned"}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": "newest", "num_before": 0, "op": "add", "flag": "read", "narrow": "[]"}).Fails(400, "REQUEST_VARIABLE_MISSING")
}

// POST /user_topics sets a topic's visibility policy, as the mobile app
// mutes, unmutes and follows topics.
func TestUserTopics(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	generalID := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_topic"}})
	policy := func() any {
		for _, ut := range registerQueue(t, bob, nil).state.List("user_topics") {
			if m := ut.(map[string]any); m["topic_name"] == "lunch" {
				return m["visibility_policy"]
			}
		}
		return nil
	}
	for _, want := range []int{3, 3, 1, 2, 0} {
		bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": generalID, "topic": "lunch", "visibility_policy": want}).OK()
		got := policy()
		if want == 0 && got != nil || want != 0 && got != float64(want) {
			t.Errorf("after setting %d: %v", want, got)
		}
	}
	if evs := q.next(); len(evs) != 5 || evs[0]["visibility_policy"] != float64(3) {
		t.Errorf("user_topic events %v", evs)
	}
	if got, _ := history(t, bob, apitest.Form{"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": `[["is","followed"]]`}); len(got) != 0 {
		t.Errorf("followed after inherit: %v", got)
	}
	bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": generalID, "topic": "lunch", "visibility_policy": 4}).Fails(400, "REQUEST_VARIABLE_INVALID")
	bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": 999, "topic": "lunch", "visibility_policy": 1}).Fails(400, "BAD_REQUEST")
}

// The `with` operator narrows to a message's conversation as it is now, so
// a topic link keeps working after the topic moves.
func TestNarrowWith(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	first := send(t, alice, streamMsg("general", "plans", "one"))
	second := send(t, alice, streamMsg("general", "plans", "two"))
	send(t, alice, streamMsg("general", "other", "elsewhere"))
	alice.Patch(msgPath(first, ""), apitest.Form{"topic": "✔ plans", "propagate_mode": "change_all"}).OK()
	with := func(narrow string) []int64 {
		ids, _ := history(t, bob, apitest.Form{"anchor": "newest", "num_before": 100, "num_after": 0, "narrow": narrow})
		return ids
	}
	// Resolving the topic posted its notice there, as Zulip does.
	notice := with(`[["channel","general"],["topic","✔ plans"]]`)
	if len(notice) != 3 {
		t.Fatalf("the resolved topic: %v", notice)
	}
	resolved := []int64{first, second, notice[2]}
	if got := with(fmt.Sprintf(`[{"operator":"with","operand":%d}]`, first)); !slices.Equal(got, resolved) {
		t.Errorf("with %d: %v", first, got)
	}
	// The old topic in the link gives way to the message's conversation.
	if got := with(fmt.Sprintf(`[["channel","general"],["topic","plans"],["with","%d"]]`, second)); !slices.Equal(got, resolved) {
		t.Errorf("with beside the old topic: %v", got)
	}
	dm := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "psst"})
	if got := with(fmt.Sprintf(`[["with",%d]]`, dm)); !slices.Equal(got, []int64{dm}) {
		t.Errorf("with a DM: %v", got)
	}
	secret := send(t, alice, streamMsg("secret", "x", "hidden"))
	bob.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": fmt.Sprintf(`[["with",%d]]`, secret)}).Fails(400, "BAD_NARROW")
}

// PATCH /settings takes the display settings the mobile app changes; they
// persist into register's user_settings and reach the user's queues.
// enter_sends, which the web compose box follows, is a setting of one's own
// like the others: on at first, changed by PATCH /settings, announced.
func TestEnterSendsSetting(t *testing.T) {
	checkNewSettings(t, apitest.Start(t), map[string][2]any{"enter_sends": {true, false}})
}

func TestDisplaySettings(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_settings"}})
	bob.Patch("/api/v1/settings", apitest.Form{"twenty_four_hour_time": true, "display_emoji_reaction_users": false,
		"emojiset": "google", "presence_enabled": false}).OK()
	got := registerQueue(t, bob, nil).state.Body["user_settings"].(map[string]any)
	if got["twenty_four_hour_time"] != true || got["display_emoji_reaction_users"] != false || got["emojiset"] != "google" || got["presence_enabled"] != false {
		t.Errorf("user_settings after the change: %v", got)
	}
	if evs := q.next(); len(evs) != 4 || evs[0]["type"] != "user_settings" || evs[0]["op"] != "update" {
		t.Errorf("events %v", evs)
	}
	if other := registerQueue(t, s.Login("alice@example.com"), nil).state.Body["user_settings"].(map[string]any); other["twenty_four_hour_time"] != false {
		t.Errorf("alice's settings changed too: %v", other)
	}
	bob.Patch("/api/v1/settings", apitest.Form{"emojiset": "comic"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	bob.Patch("/api/v1/settings", apitest.Form{"twenty_four_hour_time": "maybe"}).Fails(400, "REQUEST_VARIABLE_INVALID")
}

// POST /users/me/status sets a status that register's user_status and the
// user_status event carry, as the mobile app shows and sets them.
func TestUserStatus(t *testing.T) {
	s := apitest.Start(t)
	bob, alice := s.Login("bob@example.com"), s.Login("alice@example.com")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"user_status"}})
	bob.Post("/api/v1/users/me/status", apitest.Form{"status_text": "at lunch", "emoji_name": "smile"}).OK()
	statuses := registerQueue(t, alice, nil).state.Body["user_status"].(map[string]any)
	got, _ := statuses[strconv.FormatInt(bobID, 10)].(map[string]any)
	if got["status_text"] != "at lunch" || got["emoji_name"] != "smile" || got["emoji_code"] != "1f642" || got["reaction_type"] != "unicode_emoji" {
		t.Errorf("user_status %v", statuses)
	}
	evs := q.next()
	if len(evs) != 1 || evs[0]["user_id"] != float64(bobID) || evs[0]["status_text"] != "at lunch" || evs[0]["emoji_code"] != "1f642" {
		t.Errorf("events %v", evs)
	}
	bob.Post("/api/v1/users/me/status", apitest.Form{"status_text": "", "emoji_name": ""}).OK()
	if statuses := registerQueue(t, alice, nil).state.Body["user_status"].(map[string]any); len(statuses) != 0 {
		t.Errorf("cleared status still listed: %v", statuses)
	}
	bob.Post("/api/v1/users/me/status", nil).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/users/me/status", apitest.Form{"status_text": strings.Repeat("x", 61)}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/users/me/status", apitest.Form{"emoji_name": "no_such_emoji"}).Fails(400, "BAD_REQUEST")
}
