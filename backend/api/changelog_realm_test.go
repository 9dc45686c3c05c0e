package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// Changelog entries about the organization, people, streams and register's
// state. Each function is one row of changelogCases.

// registerState is bob's register answer for these event types.
func registerState(t *testing.T, c *apitest.Client, kinds ...string) map[string]any {
	t.Helper()
	return c.Post("/api/v1/register", apitest.Form{"fetch_event_types": kinds}).OK().Body
}

// notSent marks a register field a changelog entry renamed or removed.
type notSent struct{}

// checkRegisterFields checks register fields a changelog entry added,
// fixed or removed: each present under its event type with the value a LAN
// server without the internet has, or absent.
func checkRegisterFields(kind string, want map[string]any) func(t *testing.T, s *apitest.Server) {
	return func(t *testing.T, s *apitest.Server) {
		got := registerState(t, s.Login("bob@example.com"), kind)
		for name, v := range want {
			value, present := got[name]
			if _, gone := v.(notSent); gone {
				if present {
					t.Errorf("register still has %s: %v", name, value)
				}
			} else if !present || fmt.Sprint(value) != fmt.Sprint(v) {
				t.Errorf("register's %s = %#v (present %v), want %#v", name, value, present, v)
			}
		}
	}
}

// checkMuteBots: level 188: bots may be muted and unmuted like people.
func checkMuteBots(t *testing.T, s *apitest.Server) {
	bob, admin := s.Login("bob@example.com"), s.Login("admin@example.com")
	var botID int64
	for _, b := range admin.Get("/api/v1/bots", nil).OK().List("bots") {
		if b := b.(map[string]any); b["username"] == "echo-bot@example.com" {
			botID = int64(b["user_id"].(float64))
		}
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"muted_users"}})
	bob.Post(fmt.Sprintf("/api/v1/users/me/muted_users/%d", botID), nil).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "muted_users" || len(evs[0]["muted_users"].([]any)) != 1 {
		t.Errorf("events %v", evs)
	}
	muted := registerState(t, bob, "muted_users")["muted_users"].([]any)
	if len(muted) != 1 || muted[0].(map[string]any)["id"] != float64(botID) {
		t.Errorf("muted_users %v", muted)
	}
	bob.Post(fmt.Sprintf("/api/v1/users/me/muted_users/%d", botID), nil).Fails(400, "BAD_REQUEST")
	bob.Delete(fmt.Sprintf("/api/v1/users/me/muted_users/%d", botID), nil).OK()
	bob.Delete(fmt.Sprintf("/api/v1/users/me/muted_users/%d", botID), nil).Fails(400, "BAD_REQUEST")
}

// checkMissingEmoji404: level 190.
func checkMissingEmoji404(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	if r := admin.Delete("/api/v1/realm/emoji/no_such_emoji", nil); r.Status != 404 || r.Body["result"] != "error" {
		t.Errorf("deleting an emoji that does not exist: %s", r)
	}
}

// checkGuestSeesPublicStreamOnSubscribe: levels 192 and 220: a guest added
// to a public stream gets its stream create event, and then peer events.
func checkGuestSeesPublicStreamOnSubscribe(t *testing.T, s *apitest.Server) {
	admin, guest := s.Login("admin@example.com"), s.Login("guest@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"open-plan"}]`}).OK()
	q := registerQueue(t, guest, apitest.Form{"event_types": []string{"stream", "subscription"}})
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"open-plan"}]`, "principals": `["guest@example.com"]`}).OK()
	if got := types(q.next()); !slices.Contains(got, "stream:create") || !slices.Contains(got, "subscription:add") {
		t.Errorf("level 192: the guest's events on joining a public stream: %v", got)
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"open-plan"}]`, "principals": `["bob@example.com"]`}).OK()
	if got := types(q.next()); !slices.Equal(got, []string{"subscription:peer_add"}) {
		t.Errorf("level 220: the subscribed guest's events when bob joins: %v", got)
	}
}

// checkWeeklyTraffic: level 199: stream objects have stream_weekly_traffic
// (null while a stream is young, as Zulip's).
func checkWeeklyTraffic(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	objects := map[string]map[string]any{
		"GET /streams/{id}": bob.Get(fmt.Sprintf("/api/v1/streams/%d", general), nil).OK().Body["stream"].(map[string]any),
	}
	for _, st := range bob.Get("/api/v1/streams", nil).OK().List("streams") {
		if st := st.(map[string]any); st["name"] == "general" {
			objects["GET /streams"] = st
		}
	}
	for _, st := range registerState(t, bob, "stream")["streams"].([]any) {
		if st := st.(map[string]any); st["name"] == "general" {
			objects["register"] = st
		}
	}
	for where, st := range objects {
		if v, ok := st["stream_weekly_traffic"]; !ok || (v != nil && v.(float64) < 0) {
			t.Errorf("%s: stream_weekly_traffic %v", where, v)
		}
	}
	if len(objects) != 3 {
		t.Errorf("streams found: %v", objects)
	}
}

// checkRealmDateCreated: level 203.
func checkRealmDateCreated(t *testing.T, s *apitest.Server) {
	created := registerState(t, s.Login("bob@example.com"), "realm")["realm_date_created"].(float64)
	if now := float64(time.Now().Unix()); created < now-3600 || created > now+5 {
		t.Errorf("realm_date_created %v, now %v", created, now)
	}
}

// checkPrincipalErrors: level 208: a deactivated or unknown principal is
// BAD_REQUEST when subscribing and unsubscribing.
func checkPrincipalErrors(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	gone := admin.Post("/api/v1/users", apitest.Form{"email": "gone@example.com", "password": "gone-pass-1", "full_name": "Gone"}).OK().Int("user_id")
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", gone), nil).OK()
	for _, principals := range []string{`["nobody@example.com"]`, fmt.Sprintf("[%d]", gone), "[99999]"} {
		form := apitest.Form{"subscriptions": `[{"name":"general"}]`, "principals": principals}
		admin.Post("/api/v1/users/me/subscriptions", form).Fails(400, "BAD_REQUEST")
		admin.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["general"]`, "principals": principals}).Fails(400, "BAD_REQUEST")
	}
}

// checkUnreadCountsInMutedStreams: level 213: an unmuted or followed topic
// in a muted stream counts in unread_msgs' count, and its wildcard
// mentions in mentions; another topic of the muted stream does not (a
// personal mention counts anywhere, as in Zulip).
func checkUnreadCountsInMutedStreams(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	// The mention below would otherwise follow "muted" for bob (level 235).
	bob.Patch("/api/v1/settings", apitest.Form{"automatically_follow_topics_where_mentioned": false}).OK()
	bob.Post("/api/v1/mark_all_as_read", nil).OK()
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": fmt.Sprintf(`[{"stream_id":%d,"property":"is_muted","value":true}]`, general)}).OK()
	bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": "unmuted", "visibility_policy": 2}).OK()
	bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": "followed", "visibility_policy": 3}).OK()
	unmuted := send(t, alice, streamMsg("general", "unmuted", "hi @**all**"))
	followed := send(t, alice, streamMsg("general", "followed", "hi again @**all**"))
	send(t, alice, streamMsg("general", "muted", "hi @**all**, muted"))
	personal := send(t, alice, streamMsg("general", "muted", "hi @**Bob Brown**, muted"))
	unread := registerState(t, bob, "message")["unread_msgs"].(map[string]any)
	if unread["count"] != float64(2) {
		t.Errorf("count %v, want 2", unread["count"])
	}
	var mentions []int64
	for _, id := range unread["mentions"].([]any) {
		mentions = append(mentions, int64(id.(float64)))
	}
	if !slices.Equal(mentions, []int64{unmuted, followed, personal}) {
		t.Errorf("mentions %v, want %v", mentions, []int64{unmuted, followed, personal})
	}
}

// checkFollowedVisibility: level 219: followed (3) is a visibility policy.
func checkFollowedVisibility(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_topic"}})
	bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": "lunch", "visibility_policy": 3}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["visibility_policy"] != float64(3) {
		t.Errorf("events %v", evs)
	}
	found := false
	for _, ut := range registerState(t, bob, "user_topic")["user_topics"].([]any) {
		ut := ut.(map[string]any)
		found = found || ut["topic_name"] == "lunch" && ut["visibility_policy"] == float64(3)
	}
	if !found {
		t.Errorf("register's user_topics lack the followed topic")
	}
}

// checkDeactivationIsUpdate: level 222: deactivating and reactivating a
// person is a realm_user update of is_active.
func checkDeactivationIsUpdate(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	id := admin.Post("/api/v1/users", apitest.Form{"email": "temp@example.com", "password": "temp-pass-1", "full_name": "Temp"}).OK().Int("user_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_user"}})
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", id), nil).OK()
	admin.Post(fmt.Sprintf("/api/v1/users/%d/reactivate", id), nil).OK()
	evs := q.next()
	if !slices.Equal(types(evs), []string{"realm_user:update", "realm_user:update"}) {
		t.Fatalf("events %v", evs)
	}
	for i, active := range []bool{false, true} {
		if p := evs[i]["person"].(map[string]any); p["user_id"] != float64(id) || p["is_active"] != active {
			t.Errorf("event %d: %v", i, p)
		}
	}
}

// checkBotDeactivationIsUpdate: level 222: the same for bots, as realm_bot
// updates to the administrators and the owner.
func checkBotDeactivationIsUpdate(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	botID := admin.Post("/api/v1/bots", apitest.Form{"full_name": "Helper", "short_name": "helper"}).OK().Int("user_id")
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"realm_bot"}})
	admin.Delete(fmt.Sprintf("/api/v1/bots/%d", botID), nil).OK()
	admin.Post(fmt.Sprintf("/api/v1/users/%d/reactivate", botID), nil).OK()
	evs := q.next()
	if !slices.Equal(types(evs), []string{"realm_bot:update", "realm_bot:update"}) {
		t.Fatalf("events %v", evs)
	}
	for i, active := range []bool{false, true} {
		if b := evs[i]["bot"].(map[string]any); b["user_id"] != float64(botID) || b["is_active"] != active {
			t.Errorf("event %d: %v", i, b)
		}
	}
}

// checkStreamEmailAddress: level 226: GET /streams/{id}/email_address.
// Lanchat has no email gateway, so the address is empty, as a Zulip server
// without EMAIL_GATEWAY_PATTERN answers.
func checkStreamEmailAddress(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	if res := bob.Get(fmt.Sprintf("/api/v1/streams/%d/email_address", general), nil).OK(); res.Body["email"] != "" {
		t.Errorf("address %s", res.Raw)
	}
	bob.Get("/api/v1/streams/3/email_address", nil).Fails(400, "BAD_REQUEST") // secret: bob is not in it
	bob.Get("/api/v1/streams/99999/email_address", nil).Fails(400, "BAD_REQUEST")
}

// checkUserListIncomplete: level 232: the user_list_incomplete capability
// is accepted; every person is accessible, so realm_users is complete.
func checkUserListIncomplete(t *testing.T, s *apitest.Server) {
	guest := s.Login("guest@example.com")
	res := guest.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm_user"}, "client_capabilities": `{"user_list_incomplete":true}`}).OK()
	for _, u := range res.List("realm_users") {
		if u := u.(map[string]any); u["full_name"] == "Unknown user" {
			t.Errorf("placeholder %v", u)
		}
	}
	if n := len(res.List("realm_users")); n < 4 {
		t.Errorf("realm_users has %d people", n)
	}
}

// checkCreatorID: level 254: creator_id in stream and subscription objects.
func checkCreatorID(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"stream"}})
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"alices"}]`}).OK()
	id := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "alices"}).OK().Int("stream_id")
	objects := map[string]any{"GET /streams/{id}": alice.Get(fmt.Sprintf("/api/v1/streams/%d", id), nil).OK().Body["stream"]}
	for _, e := range q.next() {
		objects["stream create event"] = e["streams"].([]any)[0]
	}
	for _, sub := range alice.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions") {
		if sub.(map[string]any)["name"] == "alices" {
			objects["GET /users/me/subscriptions"] = sub
		}
	}
	for _, st := range alice.Get("/api/v1/streams", nil).OK().List("streams") {
		if st.(map[string]any)["name"] == "alices" {
			objects["GET /streams"] = st
		}
	}
	for where, o := range objects {
		if c := o.(map[string]any)["creator_id"]; c != float64(aliceID) {
			t.Errorf("%s: creator_id %v, want %d", where, c, aliceID)
		}
	}
	if len(objects) != 4 {
		t.Errorf("objects found: %v", objects)
	}
	// The demo organization's streams had no creator.
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	if st := alice.Get(fmt.Sprintf("/api/v1/streams/%d", general), nil).OK().Body["stream"].(map[string]any); st["creator_id"] != nil {
		t.Errorf("general's creator_id %v", st["creator_id"])
	}
}

// checkChannelStrings: level 255: "channel" in the API's strings.
func checkChannelStrings(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	if r := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "nowhere"}).Fails(400, "BAD_REQUEST"); r.Msg() != "Invalid channel name 'nowhere'" {
		t.Errorf("get_stream_id: %q", r.Msg())
	}
	if r := bob.Get("/api/v1/streams/99999", nil).Fails(400, "BAD_REQUEST"); r.Msg() != "Invalid channel ID" {
		t.Errorf("GET /streams/99999: %q", r.Msg())
	}
}

// checkRealmURL: level 257: realm_url in register and server_settings,
// realm_uri kept as its alias.
func checkRealmURL(t *testing.T, s *apitest.Server) {
	state := registerState(t, s.Login("bob@example.com"), "realm")
	settings := s.Anonymous().Get("/api/v1/server_settings", nil).OK().Body
	for where, body := range map[string]map[string]any{"register": state, "server_settings": settings} {
		if body["realm_url"] != s.URL || body["realm_uri"] != s.URL {
			t.Errorf("%s: realm_url %v realm_uri %v", where, body["realm_url"], body["realm_uri"])
		}
	}
}

// checkOneTimeNotices: levels 230 and 259: onboarding steps are one-time
// notices only (has_trigger belonged to hotspots, which are gone).
func checkOneTimeNotices(t *testing.T, s *apitest.Server) {
	for _, st := range registerState(t, s.Login("bob@example.com"), "onboarding_steps")["onboarding_steps"].([]any) {
		if st := st.(map[string]any); st["type"] != "one_time_notice" || st["has_trigger"] != nil {
			t.Errorf("step %v", st)
		}
	}
}

// checkUserStatusEndpoint: level 262: GET /users/{id}/status.
func checkUserStatusEndpoint(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	path := fmt.Sprintf("/api/v1/users/%d/status", aliceID)
	if st := bob.Get(path, nil).OK().Body["status"].(map[string]any); len(st) != 0 {
		t.Errorf("no status set: %v", st)
	}
	alice.Post("/api/v1/users/me/status", apitest.Form{"status_text": "at lunch", "emoji_name": "pizza"}).OK()
	st := bob.Get(path, nil).OK().Body["status"].(map[string]any)
	if st["status_text"] != "at lunch" || st["emoji_name"] != "pizza" {
		t.Errorf("status %v", st)
	}
	if r := bob.Get("/api/v1/users/99999/status", nil).Fails(400, "BAD_REQUEST"); r.Msg() != "No such user" {
		t.Errorf("unknown user: %q", r.Msg())
	}
}

// checkRealmSettingChange checks a realm setting a changelog entry added
// to PATCH /realm: register's default, a change announced as a realm
// update and read back, and a bad value refused.
func checkRealmSettingChange(name string, def, changed, bad any) func(t *testing.T, s *apitest.Server) {
	return func(t *testing.T, s *apitest.Server) {
		admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
		if got, ok := registerState(t, bob, "realm")["realm_"+name]; !ok || got != def {
			t.Errorf("register's realm_%s = %v (present %v), want %v", name, got, ok, def)
		}
		q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
		bob.Patch("/api/v1/realm", apitest.Form{name: changed}).Fails(400, "BAD_REQUEST")
		admin.Patch("/api/v1/realm", apitest.Form{name: changed}).OK()
		if evs := q.next(); len(evs) != 1 || evs[0]["property"] != name || evs[0]["value"] != changed {
			t.Errorf("events %v", evs)
		}
		if got := registerState(t, bob, "realm")["realm_"+name]; got != changed {
			t.Errorf("after the change: %v", got)
		}
		if bad != nil {
			admin.Patch("/api/v1/realm", apitest.Form{name: bad}).Fails(400, "REQUEST_VARIABLE_INVALID")
		}
	}
}

// profileFields is GET /realm/profile_fields as c sees it, by name.
func profileFields(t *testing.T, c *apitest.Client) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, f := range c.Get("/api/v1/realm/profile_fields", nil).OK().List("custom_fields") {
		out[f.(map[string]any)["name"].(string)] = f.(map[string]any)
	}
	return out
}

// checkProfileFields: level 244: custom profile fields carry required, in
// GET /realm/profile_fields, register and custom_profile_fields events;
// and what fields need to hold: administrators make them of every type,
// people fill them in (each value checked against its type), and
// profile_data and realm_user events show the values.
func checkProfileFields(t *testing.T, s *apitest.Server) {
	admin, bob, alice := s.Login("admin@example.com"), s.Login("bob@example.com"), s.Login("alice@example.com")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"custom_profile_fields", "realm_user"}})
	if types := q.state.Body["custom_profile_field_types"].(map[string]any); len(types) != 8 || types["SELECT"].(map[string]any)["id"] != float64(3) {
		t.Errorf("custom_profile_field_types %v", types)
	}
	bob.Post("/api/v1/realm/profile_fields", apitest.Form{"name": "Phone", "field_type": 1}).Fails(400, "BAD_REQUEST")
	fields := []apitest.Form{
		{"name": "Phone", "field_type": 1, "hint": "With the country code", "required": true, "display_in_profile_summary": true},
		{"name": "About", "field_type": 2},
		{"name": "Editor", "field_type": 3, "field_data": `{"vim":{"text":"Vim","order":"1"},"emacs":{"text":"Emacs","order":"2"}}`, "display_in_profile_summary": true},
		{"name": "Birthday", "field_type": 4},
		{"name": "Website", "field_type": 5},
		{"name": "Mentor", "field_type": 6},
		{"field_type": 7, "field_data": `{"subtype":"github"}`}, // named by its service
	}
	ids := map[string]int64{}
	name := func(f apitest.Form) string {
		if f["name"] == nil {
			return "GitHub"
		}
		return fmt.Sprint(f["name"])
	}
	for _, f := range fields {
		ids[name(f)] = admin.Post("/api/v1/realm/profile_fields", f).OK().Int("id")
	}
	for _, bad := range []apitest.Form{
		{"name": "Phone", "field_type": 1},
		{"name": "", "field_type": 1},
		{"name": "Odd", "field_type": 42},
		{"name": "Empty list", "field_type": 3, "field_data": `{}`},
		{"name": "Long", "field_type": 2, "display_in_profile_summary": true},
		{"name": "Third summary", "field_type": 1, "display_in_profile_summary": true},
	} {
		if r := admin.Post("/api/v1/realm/profile_fields", bad); r.Status != 400 || r.Body["result"] != "error" || r.Msg() == "" {
			t.Errorf("%v: %s", bad, r)
		}
	}
	byName := profileFields(t, bob)
	if phone := byName["Phone"]; phone["required"] != true || phone["display_in_profile_summary"] != true || phone["hint"] != "With the country code" || phone["type"] != float64(1) {
		t.Errorf("Phone %v", phone)
	}
	if about := byName["About"]; about["required"] != false || about["field_data"] != "" {
		t.Errorf("About %v", about)
	}
	if gh := byName["GitHub"]; gh == nil || gh["field_data"] != `{"subtype":"github"}` {
		t.Errorf("the GitHub account field %v", byName)
	}
	evs := q.next()
	if len(evs) != len(fields) || evs[0]["type"] != "custom_profile_fields" || len(evs[len(evs)-1]["fields"].([]any)) != len(fields) {
		t.Errorf("custom_profile_fields events %v", evs)
	}
	if got := registerState(t, bob, "custom_profile_fields")["custom_profile_fields"].([]any); len(got) != len(fields) || got[0].(map[string]any)["required"] != true {
		t.Errorf("register's custom_profile_fields %v", got)
	}

	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	value := func(name string, v string) string { return fmt.Sprintf(`{"id":%d,"value":%s}`, ids[name], v) }
	bob.Patch("/api/v1/users/me/profile_data", apitest.Form{"data": "[" + strings.Join([]string{
		value("Phone", `"+1 555 0100"`), value("About", `"I like **bold** claims"`), value("Editor", `"vim"`),
		value("Birthday", `"1990-02-03"`), value("Website", `"https://bob.lan/"`), value("Mentor", fmt.Sprintf("[%d]", aliceID)),
		value("GitHub", `"bob"`),
	}, ",") + "]"}).OK()
	for _, bad := range []string{
		value("Editor", `"nano"`), value("Birthday", `"3 Feb"`), value("Website", `"bob.lan"`), value("Mentor", "[999999]"),
		value("Phone", `"`+strings.Repeat("9", 51)+`"`), value("Phone", "[1]"), `{"id":999999,"value":"x"}`,
	} {
		if r := bob.Patch("/api/v1/users/me/profile_data", apitest.Form{"data": "[" + bad + "]"}); r.Status != 400 || r.Msg() == "" {
			t.Errorf("%s: %s", bad, r)
		}
	}
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	data := alice.Get(fmt.Sprintf("/api/v1/users/%d", bobID), apitest.Form{"include_custom_profile_fields": true}).OK().Body["user"].(map[string]any)["profile_data"].(map[string]any)
	entry := func(name string) map[string]any { e, _ := data[fmt.Sprint(ids[name])].(map[string]any); return e }
	if len(data) != len(fields) || entry("Editor")["value"] != "vim" || entry("Mentor")["value"] != fmt.Sprintf("[%d]", aliceID) {
		t.Errorf("profile_data %v", data)
	}
	if about := entry("About"); about["rendered_value"] != "<p>I like <strong>bold</strong> claims</p>" {
		t.Errorf("About %v", about)
	}
	if _, rendered := entry("Birthday")["rendered_value"]; rendered {
		t.Errorf("a date has a rendering: %v", entry("Birthday"))
	}
	for _, u := range alice.Get("/api/v1/users", apitest.Form{"include_custom_profile_fields": true}).OK().List("members") {
		if u := u.(map[string]any); u["user_id"] == float64(bobID) && len(u["profile_data"].(map[string]any)) != len(fields) {
			t.Errorf("GET /users: %v", u)
		}
	}
	for _, u := range registerState(t, alice, "realm_user")["realm_users"].([]any) {
		if u := u.(map[string]any); u["user_id"] == float64(bobID) && len(u["profile_data"].(map[string]any)) != len(fields) {
			t.Errorf("register's realm_users: %v", u)
		}
	}
	evs = q.next()
	if len(evs) != len(fields) {
		t.Fatalf("realm_user events %v", evs)
	}
	if person := evs[0]["person"].(map[string]any); evs[0]["op"] != "update" || person["user_id"] != float64(bobID) ||
		person["custom_profile_field"].(map[string]any)["value"] != "+1 555 0100" {
		t.Errorf("event %v", evs[0])
	}

	// Administrators set others' values with PATCH /users/{id}; others may not.
	bob.Patch(fmt.Sprintf("/api/v1/users/%d", aliceID), apitest.Form{"profile_data": "[" + value("Phone", `"1"`) + "]"}).Fails(400, "BAD_REQUEST")
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", aliceID), apitest.Form{"profile_data": "[" + value("Phone", `"+1 555 0199"`) + "]"}).OK()
	evs = q.next()
	if len(evs) != 1 || evs[0]["person"].(map[string]any)["user_id"] != float64(aliceID) {
		t.Errorf("an administrator's change: %v", evs)
	}
	bob.Delete("/api/v1/users/me/profile_data", apitest.Form{"data": fmt.Sprintf("[%d]", ids["Phone"])}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["person"].(map[string]any)["custom_profile_field"].(map[string]any)["value"] != nil {
		t.Errorf("clearing: %v", evs)
	}
	admin.Patch("/api/v1/realm/profile_fields", apitest.Form{"order": fmt.Sprintf("[%d]", ids["Phone"])}).Fails(400, "BAD_REQUEST")
	order := []string{}
	for i := len(fields) - 1; i >= 0; i-- {
		order = append(order, fmt.Sprint(ids[name(fields[i])]))
	}
	admin.Patch("/api/v1/realm/profile_fields", apitest.Form{"order": "[" + strings.Join(order, ",") + "]"}).OK()
	if got := bob.Get("/api/v1/realm/profile_fields", nil).OK().List("custom_fields"); got[0].(map[string]any)["name"] != "GitHub" || got[len(got)-1].(map[string]any)["name"] != "Phone" {
		t.Errorf("after reordering %v", got)
	}
	admin.Delete(fmt.Sprintf("/api/v1/realm/profile_fields/%d", ids["Editor"]), nil).OK()
	data = alice.Get(fmt.Sprintf("/api/v1/users/%d", bobID), nil).OK().Body["user"].(map[string]any)["profile_data"].(map[string]any)
	if _, kept := data[fmt.Sprint(ids["Editor"])]; kept || len(profileFields(t, bob)) != len(fields)-1 {
		t.Errorf("after deleting Editor: %v", data)
	}
}

// checkProfileFieldPartialUpdate: level 252: PATCH
// /realm/profile_fields/{id} changes what it is given and keeps the rest.
func checkProfileFieldPartialUpdate(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	id := admin.Post("/api/v1/realm/profile_fields", apitest.Form{"name": "Editor", "hint": "Which one", "field_type": 3,
		"field_data": `{"vim":{"text":"Vim","order":"1"}}`}).OK().Int("id")
	path := fmt.Sprintf("/api/v1/realm/profile_fields/%d", id)
	for _, change := range []apitest.Form{{"required": true}, {"hint": "Your editor"}, {"display_in_profile_summary": true}} {
		admin.Patch(path, change).OK()
	}
	f := profileFields(t, admin)["Editor"]
	if f["required"] != true || f["hint"] != "Your editor" || f["display_in_profile_summary"] != true || f["field_data"] != `{"vim":{"text":"Vim","order":"1"}}` {
		t.Errorf("after three partial updates: %v", f)
	}
	admin.Patch(path, apitest.Form{"name": "IDE", "field_data": `{"code":{"text":"VS Code","order":"1"}}`}).OK()
	if f := profileFields(t, admin)["IDE"]; f == nil || f["hint"] != "Your editor" || f["required"] != true {
		t.Errorf("after renaming: %v", profileFields(t, admin))
	}
	admin.Patch(path, apitest.Form{"name": ""}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm/profile_fields/999999", apitest.Form{"name": "X"}).Fails(400, "BAD_REQUEST")
}

// checkEditableByUser: level 296: a field not editable_by_user keeps people
// from changing their own value (administrators still do); shown in GET
// /realm/profile_fields, register and custom_profile_fields events.
func checkEditableByUser(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"custom_profile_fields"}})
	id := admin.Post("/api/v1/realm/profile_fields", apitest.Form{"name": "Badge", "field_type": 1, "editable_by_user": false}).OK().Int("id")
	if f := profileFields(t, bob)["Badge"]; f["editable_by_user"] != false {
		t.Errorf("Badge %v", f)
	}
	evs := q.next()
	if len(evs) != 1 || !strings.Contains(fmt.Sprint(evs[0]["fields"]), "editable_by_user:false") {
		t.Errorf("custom_profile_fields events %v", evs)
	}
	if r := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"custom_profile_fields"}}).OK(); !strings.Contains(fmt.Sprint(r.Body["custom_profile_fields"]), "editable_by_user:false") {
		t.Errorf("register %v", r.Body["custom_profile_fields"])
	}
	value := apitest.Form{"data": fmt.Sprintf(`[{"id":%d,"value":"B-12"}]`, id)}
	if r := bob.Patch("/api/v1/users/me/profile_data", value).Fails(400, "BAD_REQUEST"); r.Msg() != "You are not allowed to change this field. Contact an administrator to update it." {
		t.Errorf("bob sets a field not editable by users: %s", r.Raw)
	}
	bob.Delete("/api/v1/users/me/profile_data", apitest.Form{"data": fmt.Sprintf("[%d]", id)}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/users/me/profile_data", value).OK()
	admin.Patch(fmt.Sprintf("/api/v1/realm/profile_fields/%d", id), apitest.Form{"editable_by_user": true}).OK()
	if f := profileFields(t, bob)["Badge"]; f["editable_by_user"] != true {
		t.Errorf("Badge made editable %v", f)
	}
	bob.Patch("/api/v1/users/me/profile_data", value).OK()
}

// checkPlaygrounds: level 196. Administrators add code playgrounds with an
// RFC 6570 url_template whose one variable is {code} (the old url_prefix
// is refused), and remove them; register's realm_playgrounds lists them and
// realm_playgrounds events announce each change.
func checkPlaygrounds(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_playgrounds"}})
	if got := q.state.List("realm_playgrounds"); len(got) != 0 {
		t.Errorf("register's realm_playgrounds before any: %v", got)
	}
	python := apitest.Form{"name": "Python playground", "pygments_language": "Python", "url_template": "https://python.lan/?code={code}"}
	bob.Post("/api/v1/realm/playgrounds", python).Fails(400, "BAD_REQUEST")
	for _, tc := range []struct {
		form apitest.Form
		msg  string
	}{
		{apitest.Form{"name": "Old", "pygments_language": "Python", "url_prefix": "https://python.lan/?code="}, "Missing 'url_template' argument"},
		{apitest.Form{"name": "Prefix", "pygments_language": "Python", "url_template": "https://python.lan/?code="}, `"code" should be the only variable present in the URL template`},
		{apitest.Form{"name": "Two", "pygments_language": "Python", "url_template": "https://python.lan/{lang}?code={code}"}, `"code" should be the only variable present in the URL template`},
		{apitest.Form{"name": "Broken", "pygments_language": "Python", "url_template": "https://python.lan/?code={code"}, "Invalid URL template."},
		{apitest.Form{"name": "Script", "pygments_language": "Python", "url_template": "javascript:{code}"}, "Invalid URL template."},
		{apitest.Form{"name": "Odd", "pygments_language": "Py<th>on", "url_template": "https://python.lan/?code={code}"}, "Invalid characters in pygments language"},
	} {
		if r := admin.Post("/api/v1/realm/playgrounds", tc.form); r.Status != 400 || r.Msg() != tc.msg {
			t.Errorf("%v: want %q, got %s", tc.form, tc.msg, r)
		}
	}
	id := admin.Post("/api/v1/realm/playgrounds", python).OK().Int("id")
	admin.Post("/api/v1/realm/playgrounds", python).Fails(400, "BAD_REQUEST")
	want := map[string]any{"id": float64(id), "name": "Python playground", "pygments_language": "Python", "url_template": "https://python.lan/?code={code}"}
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "realm_playgrounds" || fmt.Sprint(evs[0]["realm_playgrounds"]) != fmt.Sprint([]any{want}) {
		t.Errorf("events after adding: %v", evs)
	}
	if got := registerState(t, bob, "realm_playgrounds")["realm_playgrounds"]; fmt.Sprint(got) != fmt.Sprint([]any{want}) {
		t.Errorf("register's realm_playgrounds: %v", got)
	}
	bob.Delete(fmt.Sprintf("/api/v1/realm/playgrounds/%d", id), nil).Fails(400, "BAD_REQUEST")
	admin.Delete(fmt.Sprintf("/api/v1/realm/playgrounds/%d", id), nil).OK()
	if evs := q.next(); len(evs) != 1 || len(evs[0]["realm_playgrounds"].([]any)) != 0 {
		t.Errorf("events after removing: %v", evs)
	}
	if r := admin.Delete(fmt.Sprintf("/api/v1/realm/playgrounds/%d", id), nil).Fails(400, "BAD_REQUEST"); r.Msg() != "Invalid playground" {
		t.Errorf("removing again: %q", r.Msg())
	}
}

// checkAnnouncementStreams: levels 241 and 242. Administrators set the
// announcement streams (a stream they can see, or -1 for none), announced
// by realm update events; a public stream created with announce=true is
// announced in the new stream announcements stream and a new person in the
// signup announcements stream, as Zulip words them; -1 stops them.
func checkAnnouncementStreams(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	secret := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "secret"}).OK().Int("stream_id")
	adminID := admin.Get("/api/v1/users/me", nil).OK().Int("user_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
	const newStreams, signups, updates = "new_stream_announcements_stream_id", "signup_announcements_stream_id", "zulip_update_announcements_stream_id"
	topic := func(name string) []string {
		narrow := fmt.Sprintf(`[{"operator":"channel","operand":%d},{"operator":"topic","operand":%q}]`, general, name)
		var contents []string
		for _, m := range bob.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 10, "num_after": 0, "narrow": narrow, "apply_markdown": false}).OK().List("messages") {
			contents = append(contents, m.(map[string]any)["content"].(string))
		}
		return contents
	}

	bob.Patch("/api/v1/realm", apitest.Form{newStreams: general}).Fails(400, "BAD_REQUEST")
	if r := admin.Patch("/api/v1/realm", apitest.Form{newStreams: 9999}).Fails(400, "BAD_REQUEST"); r.Msg() != "Invalid channel ID" {
		t.Errorf("a stream that does not exist: %q", r.Msg())
	}
	for _, setting := range []string{newStreams, signups, updates} {
		admin.Patch("/api/v1/realm", apitest.Form{setting: general}).OK()
		if evs := q.next(); len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != setting || evs[0]["value"] != float64(general) {
			t.Errorf("%s: events %v", setting, evs)
		}
		if got := registerState(t, bob, "realm")["realm_"+setting]; got != float64(general) {
			t.Errorf("register's realm_%s = %v", setting, got)
		}
	}

	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"tools"}]`, "announce": true}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"quiet"}]`}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"hideout"}]`, "announce": true, "invite_only": true}).OK()
	want := fmt.Sprintf("@_**Ada Admin|%d** created a new channel #**tools**.", adminID)
	if got := topic("new channels"); !slices.Equal(got, []string{want}) {
		t.Errorf("new channel announcements %q, want %q", got, want)
	}
	// Said for Zulip's Notification Bot, it follows no topic for its sender.
	if topics := registerState(t, admin, "user_topic")["user_topics"].([]any); len(topics) != 0 {
		t.Errorf("the announcement changed its sender's topics: %v", topics)
	}

	newcomer := admin.Post("/api/v1/users", apitest.Form{"email": "newcomer@example.com", "password": "newcomer-1", "full_name": "New Comer"}).OK().Int("user_id")
	if got := topic("signups"); !slices.Equal(got, []string{fmt.Sprintf("@_**New Comer|%d** joined this organization.", newcomer)}) {
		t.Errorf("signup announcements %q", got)
	}

	admin.Patch("/api/v1/realm", apitest.Form{newStreams: -1, signups: -1}).OK()
	if evs := q.next(); len(evs) != 2 || evs[0]["value"] != float64(-1) || evs[1]["value"] != float64(-1) {
		t.Errorf("events on turning them off %v", evs)
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"later"}]`, "announce": true}).OK()
	admin.Post("/api/v1/users", apitest.Form{"email": "latecomer@example.com", "password": "latecomer-1", "full_name": "Late Comer"}).OK()
	if got := append(topic("new channels"), topic("signups")...); len(got) != 2 {
		t.Errorf("announced with none set: %q", got)
	}
	// A private stream is chosen only by an administrator who sees it.
	admin.Patch("/api/v1/realm", apitest.Form{signups: secret}).OK()
	s.Login("alice@example.com").Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"diary"}]`, "invite_only": true}).OK()
	diary := s.Login("alice@example.com").Get("/api/v1/get_stream_id", apitest.Form{"stream": "diary"}).OK().Int("stream_id")
	admin.Patch("/api/v1/realm", apitest.Form{signups: diary}).Fails(400, "BAD_REQUEST")
}

// checkUniqueNames: level 246. require_unique_names is a realm setting;
// while on, a name another account has (in any case) is refused when
// someone renames themselves, is renamed or joins, with Zulip's message.
func checkUniqueNames(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	checkRealmSettingChange("require_unique_names", false, true, "sometimes")(t, s)
	const taken = "Unique names required in this organization."
	for _, r := range []*apitest.Response{
		bob.Patch("/api/v1/settings", apitest.Form{"full_name": "alice anders"}),
		admin.Patch(fmt.Sprintf("/api/v1/users/%d", bobID), apitest.Form{"full_name": "Alice Anders"}),
		admin.Post("/api/v1/users", apitest.Form{"email": "alice2@example.com", "password": "alice-two-1", "full_name": "ALICE ANDERS"}),
	} {
		if r.Status != 400 || r.Msg() != taken {
			t.Errorf("a name in use: %s", r)
		}
	}
	bob.Patch("/api/v1/settings", apitest.Form{"full_name": "Bob Brown"}).OK() // one's own name again
	admin.Patch("/api/v1/realm", apitest.Form{"require_unique_names": false}).OK()
	bob.Patch("/api/v1/settings", apitest.Form{"full_name": "Alice Anders"}).OK()
}
