package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

func subNames(t *testing.T, c *apitest.Client) []string {
	t.Helper()
	var names []string
	for _, s := range c.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions") {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	return names
}

func TestSubscribeCreatesAndReports(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	bobKey := itoa(userID(bob)) // level 289: keyed by user ID
	res := bob.Post("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []map[string]string{{"name": "design", "description": "Pixels"}, {"name": "general"}},
	}).OK()
	if got := res.Body["subscribed"].(map[string]any)[bobKey]; fmt.Sprint(got) != "[design]" {
		t.Errorf("subscribed %v", res.Body["subscribed"])
	}
	if got := res.Body["already_subscribed"].(map[string]any)[bobKey]; fmt.Sprint(got) != "[general]" {
		t.Errorf("already_subscribed %v", res.Body["already_subscribed"])
	}
	if got := subNames(t, bob); !slices.Equal(got, []string{"design", "general"}) {
		t.Errorf("subscriptions %v", got)
	}
	// Subscribing someone else, to a new private stream.
	res = bob.Post("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []map[string]string{{"name": "bob-private"}}, "invite_only": true,
		"principals": []string{"alice@example.com", "bob@example.com"},
	}).OK()
	if len(res.Body["subscribed"].(map[string]any)) != 2 {
		t.Errorf("subscribed %v", res.Body["subscribed"])
	}
	// A private stream the caller cannot access.
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "secret"}}}).Fails(400, "BAD_REQUEST")
	res = bob.Post("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []map[string]string{{"name": "secret"}}, "authorization_errors_fatal": false}).OK()
	if fmt.Sprint(res.Body["unauthorized"]) != "[secret]" {
		t.Errorf("unauthorized %v", res.Body["unauthorized"])
	}
	// Principals may be user IDs, as in Zulip's own examples.
	aliceID := s.Login("alice@example.com").Get("/api/v1/users/me", nil).OK().Int("user_id")
	res = bob.Post("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []map[string]string{{"name": "by-id"}}, "principals": []int64{aliceID}}).OK()
	if got := res.Body["subscribed"].(map[string]any)[itoa(aliceID)]; fmt.Sprint(got) != "[by-id]" {
		t.Errorf("subscribed by ID %v", res.Body["subscribed"])
	}
	res = s.Login("admin@example.com").Delete("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []string{"by-id"}, "principals": []int64{aliceID}}).OK()
	if fmt.Sprint(res.Body["removed"]) != "[by-id]" {
		t.Errorf("unsubscribed by ID %s", res.Raw)
	}
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "general"}}, "principals": `[{}]`}).Fails(400, "REQUEST_VARIABLE_INVALID")
	// Guests cannot create streams; unknown principals are refused.
	s.Login("guest@example.com").Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "guestland"}}}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "general"}}, "principals": []string{"ghost@x.org"}}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": "not json"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "  "}}}).Fails(400, "BAD_REQUEST")
}

func TestSubscriptionFields(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	res := alice.Get("/api/v1/users/me/subscriptions", apitest.Form{"include_subscribers": true}).OK()
	var general map[string]any
	for _, sub := range res.List("subscriptions") {
		if m := sub.(map[string]any); m["name"] == "general" {
			general = m
		}
	}
	for _, key := range []string{"stream_id", "name", "description", "invite_only", "subscribers", "desktop_notifications",
		"push_notifications", "audible_notifications", "pin_to_top", "email_address", "in_home_view", "color", "is_muted"} {
		if _, ok := general[key]; !ok {
			t.Errorf("subscription lacks %q", key)
		}
	}
	if subs := general["subscribers"].([]any); len(subs) != 5 || !slices.Contains(subs, any("bob@example.com")) {
		t.Errorf("subscribers %v", subs)
	}
	// Spec 2.4 lists subscribers without any parameter, and the notification
	// settings as booleans: an inherited one is resolved from the user's
	// defaults (Zulip sends null there).
	without := alice.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions")[0].(map[string]any)
	if subs, ok := without["subscribers"].([]any); !ok || len(subs) == 0 {
		t.Errorf("subscribers without include_subscribers: %v", without["subscribers"])
	}
	for _, key := range []string{"desktop_notifications", "push_notifications", "audible_notifications", "email_notifications", "wildcard_mentions_notify"} {
		if _, ok := without[key].(bool); !ok {
			t.Errorf("%s is %v, want a boolean", key, without[key])
		}
	}
	alice.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{
		{"stream_id": without["stream_id"], "property": "desktop_notifications", "value": true}}}).OK()
	if again := alice.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions")[0].(map[string]any); again["desktop_notifications"] != true {
		t.Errorf("a set notification setting: %v", again["desktop_notifications"])
	}
	// The misspelled alias of the spec answers the same.
	if n := len(alice.Get("/api/v1/users/me/subcriptions", nil).OK().List("subscriptions")); n != 3 {
		t.Errorf("alias lists %d subscriptions", n)
	}
}

func TestUnsubscribe(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	res := alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"random", "general"}}).OK()
	if fmt.Sprint(res.Body["removed"]) != "[random general]" || fmt.Sprint(res.Body["not_subscribed"]) != "[]" {
		t.Errorf("unsubscribe: %s", res.Raw)
	}
	res = alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"random"}}).OK()
	if fmt.Sprint(res.Body["not_subscribed"]) != "[random]" {
		t.Errorf("second unsubscribe: %s", res.Raw)
	}
	res = alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"atlantis"}}).Fails(400, "STREAM_DOES_NOT_EXIST")
	if res.Body["stream"] != "atlantis" {
		t.Errorf("stream field %v", res.Body["stream"])
	}
	// A private stream looks missing to outsiders.
	bob.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"secret"}}).Fails(400, "STREAM_DOES_NOT_EXIST")
	// Removing someone else needs an administrator.
	bob.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"general"}, "principals": []string{"guest@example.com"}}).Fails(400, "BAD_REQUEST")
	s.Login("admin@example.com").Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"general"}, "principals": []string{"guest@example.com"}}).OK()
	if got := subNames(t, s.Login("guest@example.com")); len(got) != 0 {
		t.Errorf("guest still subscribed to %v", got)
	}
	// Python sends DELETE parameters in the body.
	res = bob.Do("DELETE", "/api/v1/users/me/subscriptions", "application/x-www-form-urlencoded", stringsReader(`subscriptions=["general"]`)).OK()
	if fmt.Sprint(res.Body["removed"]) != "[general]" {
		t.Errorf("body DELETE: %s", res.Raw)
	}
}

func TestStreamsStreamIDTopicsAndMembers(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	names := func(c *apitest.Client, f apitest.Form) []string {
		var out []string
		for _, st := range c.Get("/api/v1/streams", f).OK().List("streams") {
			out = append(out, st.(map[string]any)["name"].(string))
		}
		slices.Sort(out)
		return out
	}
	if got := names(alice, nil); !slices.Equal(got, []string{"general", "random", "secret"}) {
		t.Errorf("alice streams %v", got)
	}
	if got := names(bob, nil); !slices.Equal(got, []string{"general", "random"}) {
		t.Errorf("bob streams %v", got)
	}
	if got := names(guest, nil); !slices.Equal(got, []string{"general"}) {
		t.Errorf("guest streams %v", got)
	}
	// include_all is everyone's since level 356: all a person knows of.
	if got := names(bob, apitest.Form{"include_all": true}); !slices.Equal(got, []string{"general", "random"}) {
		t.Errorf("bob's include_all %v", got)
	}
	if got := names(s.Login("admin@example.com"), apitest.Form{"include_all": true}); len(got) != 3 {
		t.Errorf("admin all streams %v", got)
	}

	secretID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "secret"}).OK().Int("stream_id")
	generalID := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "General"}).OK().Int("stream_id")
	for _, name := range []string{"secret", "nope"} {
		if msg := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": name}).Fails(400, "BAD_REQUEST").Msg(); msg != fmt.Sprintf("Invalid channel name '%s'", name) {
			t.Errorf("msg %q", msg)
		}
	}
	bob.Get("/api/v1/get_stream_id", nil).Fails(400, "REQUEST_VARIABLE_MISSING")

	send(t, alice, streamMsg("secret", "hush", "x"))
	send(t, alice, streamMsg("general", "old", "x"))
	send(t, bob, streamMsg("general", "new", "x"))
	topics := bob.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", generalID), nil).OK().List("topics")
	if first := topics[0].(map[string]any); first["name"] != "new" || first["max_id"] == nil {
		t.Errorf("topics newest first: %v", topics)
	}
	bob.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", secretID), nil).Fails(400, "BAD_REQUEST")
	alice.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", secretID), nil).OK()

	members := bob.Get(fmt.Sprintf("/api/v1/streams/%d/members", generalID), nil).OK().List("subscribers")
	if len(members) != 5 {
		t.Errorf("general members %v", members)
	}
	bob.Get(fmt.Sprintf("/api/v1/streams/%d/members", secretID), nil).Fails(400, "BAD_REQUEST")
	guest.Get(fmt.Sprintf("/api/v1/streams/%d/members", secretID), nil).Fails(400, "BAD_REQUEST")
	// No email gateway: a visible stream's address is empty.
	if email := bob.Get(fmt.Sprintf("/api/v1/streams/%d/email_address", generalID), nil).OK(); email.Body["email"] != "" {
		t.Errorf("email_address %s", email.Raw)
	}
	bob.Get(fmt.Sprintf("/api/v1/streams/%d/email_address", secretID), nil).Fails(400, "BAD_REQUEST")
	// An unknown stream ID is Zulip's "Invalid channel ID", with no stream field.
	res := bob.Get("/api/v1/streams/999999/members", nil).Fails(400, "BAD_REQUEST")
	if res.Msg() != "Invalid channel ID" || res.Body["stream_id"] != nil {
		t.Errorf("unknown stream ID: %s", res.Raw)
	}
}

func TestSubscriptionProperties(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	generalID := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{
		{"stream_id": generalID, "property": "color", "value": "#AABBCC"},
		{"stream_id": generalID, "property": "pin_to_top", "value": true},
		{"stream_id": generalID, "property": "in_home_view", "value": false},
		{"stream_id": generalID, "property": "desktop_notifications", "value": true},
	}}).OK()
	sub := bob.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions")[0].(map[string]any)
	if sub["color"] != "#aabbcc" || sub["pin_to_top"] != true || sub["is_muted"] != true || sub["in_home_view"] != false || sub["desktop_notifications"] != true {
		t.Errorf("after update: %v", sub)
	}
	for _, bad := range []map[string]any{
		{"stream_id": generalID, "property": "color", "value": "red"},
		{"stream_id": generalID, "property": "pin_to_top", "value": "yes"},
		{"stream_id": generalID, "property": "sparkle", "value": true},
		{"stream_id": 99, "property": "pin_to_top", "value": true},
	} {
		bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{bad}}).Fails(400, "BAD_REQUEST")
	}
}

func TestTopicMuteStateMachine(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	mute := func(op, topic string) *apitest.Response {
		return bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream": "general", "topic": topic, "op": op})
	}
	mute("add", "never used").OK() // no message needed
	if msg := mute("add", "Never Used").Fails(400, "BAD_REQUEST").Msg(); msg != "Topic already muted" {
		t.Errorf("double mute: %q", msg)
	}
	mute("remove", "never used").OK()
	if msg := mute("remove", "never used").Fails(400, "BAD_REQUEST").Msg(); msg != "Topic is not muted" {
		t.Errorf("double unmute: %q", msg)
	}
	bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream": "secret", "topic": "x", "op": "add"}).Fails(400, "STREAM_DOES_NOT_EXIST")
	bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream_id": 1, "topic": "x", "op": "mute"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"topic": "x", "op": "add"}).Fails(400, "REQUEST_VARIABLE_MISSING")

	// A muted topic's unread message is not the first unread, and in:home hides it.
	alice := s.Login("alice@example.com")
	muted := send(t, alice, streamMsg("general", "noise", "bzz"))
	visible := send(t, alice, streamMsg("general", "signal", "hi"))
	bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream_id": 1, "topic": "noise", "op": "add"}).OK()
	bob.Post("/api/v1/mark_all_as_read", nil).OK()
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{muted, visible}, "op": "remove", "flag": "read"}).OK()
	_, res := history(t, bob, apitest.Form{"anchor": "first_unread", "num_before": 0, "num_after": 5})
	if res.Int("anchor") != visible {
		t.Errorf("first_unread %v, want %d (muted %d)", res.Body["anchor"], visible, muted)
	}
	got, _ := history(t, bob, narrowed(`[["in","home"]]`))
	if slices.Contains(got, muted) || !slices.Contains(got, visible) {
		t.Errorf("in:home %v", got)
	}
}

// The demo's echo-bot is subscribed to general, so a bot run against the
// demo sees stream mentions out of the box.
func TestDemoEchoBotInGeneral(t *testing.T) {
	s := apitest.Start(t)
	if got := subNames(t, s.Login("echo-bot@example.com")); !slices.Contains(got, "general") {
		t.Errorf("echo-bot's subscriptions %v", got)
	}
}

// GET /users/{user_id}/subscriptions/{stream_id}, which the Python client's
// get_subscription_status calls: Zulip's answer and errors, and only for
// streams the caller may see.
func TestSubscriptionStatus(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com"), s.Login("admin@example.com")
	userID := func(c *apitest.Client) int64 { return c.Get("/api/v1/users/me", nil).OK().Int("user_id") }
	streamID := func(name string) int64 {
		return alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": name}).OK().Int("stream_id")
	}
	general, random, secret := streamID("general"), streamID("random"), streamID("secret")
	carol := admin.Post("/api/v1/users", apitest.Form{"email": "carol@example.com", "password": "carol-secret", "full_name": "Carol Cole"}).OK().Int("user_id")
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", carol), nil).OK()
	var echoBot int64
	for _, u := range alice.Get("/api/v1/users", nil).OK().List("members") {
		if m := u.(map[string]any); m["email"] == "echo-bot@example.com" {
			echoBot = int64(m["user_id"].(float64))
		}
	}
	path := func(user, stream int64) string { return fmt.Sprintf("/api/v1/users/%d/subscriptions/%d", user, stream) }
	cases := []struct {
		name   string
		caller *apitest.Client
		path   string
		want   any    // is_subscribed, or nil for an error
		msg    string // the error's msg
	}{
		{"subscribed", bob, path(userID(alice), general), true, ""},
		{"not subscribed", alice, path(userID(bob), random), false, ""},
		{"oneself, a private stream one is in", alice, path(userID(alice), secret), true, ""},
		{"a guest on a stream it is in", guest, path(userID(bob), general), true, ""},
		{"unknown user", bob, path(999999, general), nil, "No such user"},
		{"a bot", bob, path(echoBot, general), nil, "No such user"},
		{"a deactivated user", bob, path(carol, general), nil, "User is deactivated"},
		{"unknown stream", bob, path(userID(alice), 999999), nil, "Invalid channel ID"},
		{"a private stream one is not in", bob, path(userID(alice), secret), nil, "Invalid channel ID"},
		{"a public stream, to a guest outside it", guest, path(userID(alice), random), nil, "Invalid channel ID"},
	}
	for _, c := range cases {
		res := c.caller.Get(c.path, nil)
		if c.want == nil {
			if got := res.Fails(400, "BAD_REQUEST").Msg(); got != c.msg {
				t.Errorf("%s: %q, want %q", c.name, got, c.msg)
			}
			continue
		}
		if got := res.OK().Body["is_subscribed"]; got != c.want {
			t.Errorf("%s: is_subscribed %v, want %v", c.name, got, c.want)
		}
	}
	bob.Get(fmt.Sprintf("/api/v1/users/abc/subscriptions/%d", general), nil).Fails(400, "REQUEST_VARIABLE_INVALID")
	bob.Get(fmt.Sprintf("/api/v1/users/%d/elsewhere/%d", userID(alice), general), nil).Fails(404, "BAD_REQUEST")
}

// Zulip 9.0's stream fields: creator_id (the creator of a stream someone
// created, null for the organization's own) and can_remove_subscribers_group
// (the administrators' system group by default),
// in register's streams and subscriptions, GET /streams and stream
// creation events.
func TestStreamCreatorAndRemoveSubscribersGroup(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "plans"}}, "principals": []string{"bob@example.com"}}).OK()
	var admins float64
	for _, g := range bob.Get("/api/v1/user_groups", nil).OK().List("user_groups") {
		if g.(map[string]any)["name"] == "role:administrators" {
			admins = g.(map[string]any)["id"].(float64)
		}
	}
	check := func(where string, list []any) {
		t.Helper()
		seen := 0
		for _, st := range list {
			m := st.(map[string]any)
			creator, ok := m["creator_id"]
			switch {
			case !ok:
				t.Errorf("%s: %s has no creator_id", where, m["name"])
			case m["name"] == "plans" && creator != float64(aliceID), m["name"] == "general" && creator != nil:
				t.Errorf("%s: %s created by %v", where, m["name"], creator)
			}
			if m["name"] == "plans" || m["name"] == "general" {
				seen++
			}
			g, ok := m["can_remove_subscribers_group"].(float64)
			if !ok || g != admins {
				t.Errorf("%s: %s can_remove_subscribers_group %v (role:administrators is %v)", where, m["name"], m["can_remove_subscribers_group"], admins)
			}
		}
		if seen != 2 {
			t.Errorf("%s: general and plans not both listed: %v", where, list)
		}
	}
	state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"stream", "subscription"}}).OK()
	check("register streams", state.List("streams"))
	check("register subscriptions", state.List("subscriptions"))
	check("GET /streams", bob.Get("/api/v1/streams", nil).OK().List("streams"))
	var created []any
	for _, ev := range q.next() {
		if ev["op"] == "create" {
			created = append(created, ev["streams"].([]any)...)
		}
	}
	if len(created) != 1 {
		t.Fatalf("stream create events %v", created)
	}
	if m := created[0].(map[string]any); m["creator_id"] != float64(aliceID) || m["can_remove_subscribers_group"] != admins {
		t.Errorf("create event %v", m)
	}
}
