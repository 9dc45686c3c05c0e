package api_test

import (
	"fmt"
	"testing"

	"lanchat/backend/apitest"
)

// changelogEarlyCases are rows for entries of levels 1–185 (Zulip 3.0 to
// 7.0), below the suite's first level: those an audit of the whole
// changelog sampled, so that what it found stays checked.
func changelogEarlyCases() []changelogCase {
	return []changelogCase{
		{"level 1: gitlab in server_settings' authentication_methods", func(t *testing.T, s *apitest.Server) {
			methods := s.Anonymous().Get("/api/v1/server_settings", nil).OK().Body["authentication_methods"].(map[string]any)
			if v, ok := methods["gitlab"]; !ok || v != false {
				t.Errorf("authentication_methods %v", methods)
			}
		}},
		{"level 2: reactions name who reacted by a top-level user_id", checkReactionUserID},
		{"level 3: every register answers zulip_version and zulip_feature_level", func(t *testing.T, s *apitest.Server) {
			r := s.Login("bob@example.com").Post("/api/v1/register", apitest.Form{"event_types": []string{"message"}}).OK()
			if r.Body["zulip_version"] != "10.0" || r.Body["zulip_feature_level"] != float64(371) {
				t.Errorf("register %v", r.Body)
			}
		}},
		{"level 4: the server's limits in register", checkRegisterFields("realm", map[string]any{
			"development_environment":         true, // the test server runs with --dev
			"server_generation":               1,
			"password_min_length":             6,
			"password_min_guesses":            0,
			"max_file_upload_size_mib":        25,
			"max_avatar_file_size_mib":        5,
			"server_inline_image_preview":     true,
			"server_inline_url_embed_preview": false,
			"server_avatar_changes_disabled":  false,
			"server_name_changes_disabled":    false,
		})},
		{"level 4 and 212: jitsi_server_url is realm_jitsi_server_url || server_jitsi_server_url", checkJitsiServerURL},
		{"level 8 and 59: is_owner and role in user objects", checkOwnerAndRole},
		{"level 15: spoilers", func(t *testing.T, s *apitest.Server) {
			got := s.Login("bob@example.com").Post("/api/v1/messages/render", apitest.Form{"content": "```spoiler Plot\nThe end.\n```"}).OK().Str("rendered")
			want := `<div class="spoiler-block"><div class="spoiler-header">` + "\n<p>Plot</p>\n" +
				`</div><div class="spoiler-content" aria-hidden="true">` + "\n<p>The end.</p>\n</div></div>"
			if got != want {
				t.Errorf("rendered %q, want %q", got, want)
			}
		}},
		{"level 55: realm_giphy_rating and giphy_rating_options (GIPHY disabled)", checkRegisterFields("realm", map[string]any{
			"realm_giphy_rating":   0,
			"giphy_rating_options": map[string]any{"disabled": map[string]any{"name": "GIPHY integration disabled", "id": 0}},
		})},
		{"level 78: PATCH /settings answers the parameters it ignored", func(t *testing.T, s *apitest.Server) {
			bob := s.Login("bob@example.com")
			checkIgnored(t, bob.Patch("/api/v1/settings", apitest.Form{"invalid_setting": "value"}), "invalid_setting")
			checkIgnored(t, bob.Patch("/api/v1/settings", apitest.Form{"enable_sounds": false, "invalid_setting": "value"}), "invalid_setting")
			if got := registerState(t, bob, "user_settings")["user_settings"].(map[string]any); got["enable_sounds"] != false {
				t.Errorf("enable_sounds %v beside an ignored parameter", got["enable_sounds"])
			}
			checkIgnored(t, bob.Patch("/api/v1/settings", apitest.Form{"enable_sounds": true}))
		}},
		{"level 80: PATCH /settings/display and /settings/notifications are aliases of PATCH /settings", func(t *testing.T, s *apitest.Server) {
			bob := s.Login("bob@example.com")
			bob.Patch("/api/v1/settings/display", apitest.Form{"left_side_userlist": true}).OK()
			bob.Patch("/api/v1/settings/notifications", apitest.Form{"enable_sounds": false}).OK()
			got := registerState(t, bob, "user_settings")["user_settings"].(map[string]any)
			if got["left_side_userlist"] != true || got["enable_sounds"] != false {
				t.Errorf("user_settings %v", got)
			}
		}},
		{"level 90: no sender_ids in unread_msgs' streams", func(t *testing.T, s *apitest.Server) {
			unread := registerState(t, s.Login("bob@example.com"), "message", "update_message_flags")["unread_msgs"].(map[string]any)
			streams := unread["streams"].([]any)
			if len(streams) == 0 {
				t.Fatalf("no unread stream messages: %v", unread)
			}
			for _, st := range streams {
				if _, ok := st.(map[string]any)["sender_ids"]; ok {
					t.Errorf("sender_ids in %v", st)
				}
			}
		}},
		{"level 98: is_web_public on creating a stream: web-public channels are not enabled", func(t *testing.T, s *apitest.Server) {
			admin := s.Login("admin@example.com")
			r := admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"window"}]`, "is_web_public": true}).Fails(400, "BAD_REQUEST")
			if r.Msg() != "Web-public channels are not enabled." {
				t.Errorf("msg %q", r.Msg())
			}
			admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "window"}).Fails(400, "BAD_REQUEST")
			// Only streams the request creates are refused.
			admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"general"}]`, "is_web_public": true}).OK()
			admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"window"}]`, "is_web_public": false}).OK()
		}},
		{"level 111: POST /users/me/subscriptions/properties answers ignored parameters, not subscription_data", func(t *testing.T, s *apitest.Server) {
			bob := s.Login("bob@example.com")
			general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
			r := bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{
				"subscription_data": []map[string]any{{"property": "pin_to_top", "stream_id": general, "value": true}},
				"invalid_parameter": []map[string]any{{"property": "pin_to_top", "stream_id": general, "value": false}},
			})
			checkIgnored(t, r, "invalid_parameter")
			if _, ok := r.Body["subscription_data"]; ok {
				t.Errorf("the answer has subscription_data: %v", r.Body)
			}
		}},
		{"level 133: no role in subscription objects", func(t *testing.T, s *apitest.Server) {
			bob := s.Login("bob@example.com")
			subs := append(registerState(t, bob, "subscription")["subscriptions"].([]any),
				bob.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions")...)
			for _, sub := range subs {
				if _, ok := sub.(map[string]any)["role"]; ok {
					t.Errorf("role in %v", sub)
				}
			}
		}},
		{"level 136: PATCH /streams/{id} takes history_public_to_subscribers alone and refuses a public stream with protected history", checkStreamHistoryChange},
		{"level 159 and 162: a time limit on moving messages, announced: none", checkRegisterFields("realm", map[string]any{
			"realm_move_messages_within_stream_limit_seconds":   nil,
			"realm_move_messages_between_streams_limit_seconds": nil,
		})},
		{"level 163: realm_email_address_visibility removed", checkRegisterFields("realm", map[string]any{"realm_email_address_visibility": notSent{}})},
		{"level 166: realm_str on POST /messages is ignored", func(t *testing.T, s *apitest.Server) {
			s.Login("bob@example.com").Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "hi", "realm_str": "elsewhere"}).OK()
		}},
		{"level 167: every endpoint's success answers the parameters it ignored", func(t *testing.T, s *apitest.Server) {
			bob := s.Login("bob@example.com")
			send := apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "hi"}
			checkIgnored(t, bob.Post("/api/v1/messages", send))
			send["realm_str"], send["zz_unknown"] = "elsewhere", "1"
			checkIgnored(t, bob.Post("/api/v1/messages", send), "realm_str", "zz_unknown")
			// The message history's answer, written apart from the others.
			history := apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": []any{}}
			checkIgnored(t, bob.Get("/api/v1/messages", history))
			history["use_first_unread_anchor_typo"] = true
			checkIgnored(t, bob.Get("/api/v1/messages", history), "use_first_unread_anchor_typo")
			checkIgnored(t, bob.Get("/api/v1/users/me", apitest.Form{"include_everything": true}), "include_everything")
			queue := bob.Post("/api/v1/register", apitest.Form{"event_types": []string{"message"}, "queue_shape": "long"})
			checkIgnored(t, queue, "queue_shape")
			// A long-poll's answer too.
			poll := apitest.Form{"queue_id": queue.Str("queue_id"), "last_event_id": -1, "dont_block": true, "wait_longer": true}
			checkIgnored(t, bob.Get("/api/v1/events", poll), "wait_longer")
		}},
	}
}

// checkReactionUserID: a reaction in a message and in its event names who
// reacted by user_id.
func checkReactionUserID(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "hi"}).OK().Int("id")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"reaction"}})
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	bob.Post(fmt.Sprintf("/api/v1/messages/%d/reactions", id), apitest.Form{"emoji_name": "smile"}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["user_id"] != float64(bobID) {
		t.Errorf("events %v", evs)
	}
	reactions := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)["reactions"].([]any)
	if len(reactions) != 1 || reactions[0].(map[string]any)["user_id"] != float64(bobID) {
		t.Errorf("reactions %v", reactions)
	}
}

// checkJitsiServerURL: the deprecated jitsi_server_url follows the
// organization's Jitsi server, and is absent while there is none (the server
// configures none).
func checkJitsiServerURL(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	if got, ok := registerState(t, bob, "realm")["jitsi_server_url"]; ok {
		t.Errorf("jitsi_server_url %v with no Jitsi server", got)
	}
	admin.Patch("/api/v1/realm", apitest.Form{"jitsi_server_url": "https://meet.lan"}).OK()
	if got := registerState(t, bob, "realm")["jitsi_server_url"]; got != "https://meet.lan" {
		t.Errorf("jitsi_server_url %v", got)
	}
}

// checkOwnerAndRole: every user object says is_owner and role, in Zulip's
// numbers, on each of the endpoints that return them.
func checkOwnerAndRole(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	alice := admin.Get("/api/v1/users/alice@example.com", nil).OK().Body["user"].(map[string]any)
	if alice["is_owner"] != false || alice["role"] != float64(400) {
		t.Errorf("alice %v", alice)
	}
	byID := admin.Get(fmt.Sprintf("/api/v1/users/%d", int64(alice["user_id"].(float64))), nil).OK().Body["user"].(map[string]any)
	me := admin.Get("/api/v1/users/me", nil).OK().Body
	if byID["role"] != float64(400) || me["role"] != float64(200) || me["is_owner"] != false {
		t.Errorf("by ID %v, me %v", byID, me)
	}
	// The dev organization has no owner: is_owner is what role 100 says.
	for _, u := range admin.Get("/api/v1/users", nil).OK().List("members") {
		u := u.(map[string]any)
		role, ok := u["role"].(float64)
		if owner, has := u["is_owner"].(bool); !ok || !has || owner != (role == 100) {
			t.Errorf("role and is_owner of %v", u)
		}
	}
}

// checkStreamHistoryChange: Zulip's rules on the history and web-public
// parameters of PATCH /streams/{id}: a public stream's history stays public
// to its subscribers, and no stream is made web-public.
func checkStreamHistoryChange(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"lobby"}]`}).OK()
	lobby := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "lobby"}).OK().Int("stream_id")
	path := fmt.Sprintf("/api/v1/streams/%d", lobby)
	admin.Patch(path, apitest.Form{"history_public_to_subscribers": true}).OK()
	for _, f := range []apitest.Form{
		{"history_public_to_subscribers": false},
		{"is_private": false, "history_public_to_subscribers": false},
		{"is_web_public": true, "is_private": true},
		{"is_web_public": true, "history_public_to_subscribers": false},
	} {
		if r := admin.Patch(path, f).Fails(400, "BAD_REQUEST"); r.Msg() != "Invalid parameters" {
			t.Errorf("%v: %q", f, r.Msg())
		}
	}
	if r := admin.Patch(path, apitest.Form{"is_web_public": true}).Fails(400, "BAD_REQUEST"); r.Msg() != "Web-public channels are not enabled." {
		t.Errorf("is_web_public: %q", r.Msg())
	}
	// A private stream's history is asked for with its privacy.
	admin.Patch(path, apitest.Form{"is_private": true, "history_public_to_subscribers": true}).OK()
	admin.Patch(path, apitest.Form{"is_private": false}).OK()
	if st := admin.Get(path, nil).OK().Body["stream"].(map[string]any); st["invite_only"] != false || st["history_public_to_subscribers"] != true || st["is_web_public"] != false {
		t.Errorf("stream %v", st)
	}
}

// checkIgnored: a success answer lists exactly the parameters named as
// ignored_parameters_unsupported, and has no such list when none is.
func checkIgnored(t *testing.T, r *apitest.Response, ignored ...string) {
	t.Helper()
	r.OK()
	got, ok := r.Body["ignored_parameters_unsupported"]
	if len(ignored) == 0 {
		if ok {
			t.Errorf("%s: ignored_parameters_unsupported %v, want none", r, got)
		}
		return
	}
	if fmt.Sprint(got) != fmt.Sprint(ignored) {
		t.Errorf("%s: ignored_parameters_unsupported %v, want %v", r, got, ignored)
	}
}
