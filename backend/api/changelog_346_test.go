package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// changelog346Cases are the rows for Zulip's changelog entries at levels
// 346–371, on the climb from 9.0 (277) to 10.0 (371).
func changelog346Cases() []changelogCase {
	return []changelogCase{
		{"level 346: topic and message links to the empty topic", checkEmptyTopicLinks},
		{"level 347: a topic link without a message carries with/<a message of the topic>", checkTopicLinkWith},
		{"level 348: enable_guest_user_dm_warning is a realm setting", checkRealmSettingChange("enable_guest_user_dm_warning", true, false, "sometimes")},
		{"level 349: channel administrators and can_add_subscribers_group have metadata access to a private channel: listed, told, and acting without content access", checkChannelMetadataAccess},
		{"level 350: server_can_summarize_topics (no model configured)", checkRegisterFields("realm", map[string]any{"server_can_summarize_topics": false})},
		{"level 350: can_summarize_topics_group is a realm group setting", checkRealmGroupSetting("can_summarize_topics_group", "role:everyone")},
		{"level 350: hide_ai_features is a user setting", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"hide_ai_features": {false, true}})
		}},
		{"level 351 and 361: POST /message_edit_typing and POST /messages/{id}/typing send typing_edit_message", checkEditTyping},
		{"level 352: can_mention_many_users_group replaces wildcard_mention_policy, which register approximates", checkMentionManyUsersGroup},
		{"level 354: can_subscribe_group grants content access to a private channel: messages, reactions, read receipts", checkContentAccessByGroup},
		{"level 355: marking unread skips unsubscribed channels and lists them in ignored_because_not_subscribed_channels", checkUnreadIgnoresUnsubscribed},
		{"level 356: GET /streams include_all for everyone and include_can_access_content", checkStreamListFilters},
		{"level 357: can_subscribe_group on streams: set at creation and by PATCH, shown, announced, and enforced", checkCanSubscribeGroup},
		{"level 358: message_edit_history_visibility_policy replaces allow_edit_history, and limits GET /messages/{id}/history", checkEditHistoryVisibility},
		{"level 359: a bot given to another owner keeps its subscriptions", checkBotOwnerChange},
		{"level 363: can_manage_billing_group and realm_billing; is_billing_admin is gone from user objects", checkManageBilling},
		{"level 364: dense_mode is no user setting", checkRegisterFields("user_settings", map[string]any{"dense_mode": notSent{}})},
		{"level 365: last_moved_timestamp for moves (not resolving); last_edit_timestamp only for content edits", checkMovedTimestamp},
		{"level 366: is:muted matches muted topics and muted channels' other topics", checkIsMuted},
		{"level 367: can_resolve_topics_group says who may resolve topics", checkResolveTopicsGroup},
		{"level 368: PATCH /saved_snippets/{id} edits a snippet, announced as a saved_snippets update", checkEditSavedSnippet},
		{"level 369: navigation_tour_video_url (none: null)", checkRegisterFields("onboarding_steps", map[string]any{"navigation_tour_video_url": nil})},
		{"level 370: \"(no topic)\" is the empty topic when sending and scheduling, refused as topics are mandatory", checkNoTopicIsEmpty},
	}
}

// checkRealmGroupSetting returns a check of a realm group setting added
// after 9.0: register's realm_<name> is its default group, it is listed in
// server_supported_permission_settings, and an administrator (only)
// changes it with {"new", "old"}, announced as a realm update_dict.
func checkRealmGroupSetting(name, defaultGroup string) func(t *testing.T, s *apitest.Server) {
	return func(t *testing.T, s *apitest.Server) {
		admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
		sys := systemGroups(t, bob)
		state := registerState(t, bob, "realm")
		if got := state["realm_"+name]; got != float64(sys[defaultGroup]) {
			t.Errorf("register's realm_%s = %v, want %s (%d)", name, got, defaultGroup, sys[defaultGroup])
		}
		rule, _ := state["server_supported_permission_settings"].(map[string]any)["realm"].(map[string]any)[name].(map[string]any)
		if rule["default_group_name"] != defaultGroup {
			t.Errorf("server_supported_permission_settings: %v", rule)
		}
		q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
		change := fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:moderators"], sys[defaultGroup])
		bob.Patch("/api/v1/realm", apitest.Form{name: change}).Fails(400, "BAD_REQUEST")
		admin.Patch("/api/v1/realm", apitest.Form{name: fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:moderators"], sys["role:owners"])}).Fails(400, "EXPECTATION_MISMATCH")
		admin.Patch("/api/v1/realm", apitest.Form{name: change}).OK()
		checkRealmUpdateDict(t, q, name, sys["role:moderators"])
		if got := realmSetting(t, bob, name); got != float64(sys["role:moderators"]) {
			t.Errorf("after the change: %v", got)
		}
	}
}

func checkMentionManyUsersGroup(t *testing.T, s *apitest.Server) {
	checkRealmGroupSetting("can_mention_many_users_group", "role:everyone")(t, s)
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	sys := systemGroups(t, alice)
	// Moderators (set above) give policy 7; a set of people, 1 (everyone).
	if got := realmSetting(t, alice, "wildcard_mention_policy"); got != float64(7) {
		t.Errorf("realm_wildcard_mention_policy for role:moderators: %v", got)
	}
	// The old setting is no longer taken.
	admin.Patch("/api/v1/realm", apitest.Form{"wildcard_mention_policy": 6, "name": "Renamed"}).OK()
	if got := realmSetting(t, alice, "can_mention_many_users_group"); got != float64(sys["role:moderators"]) {
		t.Errorf("wildcard_mention_policy still changed the setting: %v", got)
	}
	set := fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[%d]}}`, userID(alice), sys["role:administrators"])
	admin.Patch("/api/v1/realm", apitest.Form{"can_mention_many_users_group": set}).OK()
	if got := realmSetting(t, alice, "wildcard_mention_policy"); got != float64(1) {
		t.Errorf("realm_wildcard_mention_policy for a set: %v", got)
	}
	// Enforced in a channel of more than 15 people.
	admin.Patch("/api/v1/realm", apitest.Form{"can_mention_many_users_group": fmt.Sprintf(`{"new":%d}`, sys["role:administrators"])}).OK()
	for i := 0; i < 16; i++ {
		admin.Post("/api/v1/users", apitest.Form{"email": fmt.Sprintf("crowd%d@example.com", i), "password": "crowd-pass-1", "full_name": fmt.Sprintf("Crowd %d", i)}).OK()
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"crowded"}]`,
		"principals": `["alice@example.com","crowd0@example.com","crowd1@example.com","crowd2@example.com","crowd3@example.com","crowd4@example.com","crowd5@example.com","crowd6@example.com","crowd7@example.com","crowd8@example.com","crowd9@example.com","crowd10@example.com","crowd11@example.com","crowd12@example.com","crowd13@example.com","crowd14@example.com","crowd15@example.com"]`}).OK()
	alice.Post("/api/v1/messages", streamMsg("crowded", "all", "hello @**all**")).Fails(400, "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
	send(t, admin, streamMsg("crowded", "all", "hello @**all**"))
	admin.Patch("/api/v1/realm", apitest.Form{"can_mention_many_users_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(alice))}).OK()
	send(t, alice, streamMsg("crowded", "all", "hello @**all**"))
}

func checkEditHistoryVisibility(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	state := registerState(t, bob, "realm")
	if state["realm_message_edit_history_visibility_policy"] != "all" || state["realm_allow_edit_history"] != true {
		t.Errorf("defaults: %v, %v", state["realm_message_edit_history_visibility_policy"], state["realm_allow_edit_history"])
	}
	id := send(t, alice, streamMsg("general", "before", "first words"))
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"content": "second words"}).OK()
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"topic": "after", "propagate_mode": "change_one"}).OK()
	history := func() *apitest.Response { return bob.Get(fmt.Sprintf("/api/v1/messages/%d/history", id), nil) }
	if got := history().OK().List("message_history"); len(got) != 3 {
		t.Errorf("all: %v", got)
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
	bob.Patch("/api/v1/realm", apitest.Form{"message_edit_history_visibility_policy": "none"}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"message_edit_history_visibility_policy": "sometimes"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	admin.Patch("/api/v1/realm", apitest.Form{"message_edit_history_visibility_policy": "moves"}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "message_edit_history_visibility_policy" || evs[0]["value"] != "moves" {
		t.Errorf("events %v", evs)
	}
	moves := history().OK().List("message_history")
	if len(moves) != 2 {
		t.Fatalf("moves only: %v", moves)
	}
	if last := moves[1].(map[string]any); last["prev_topic"] != "before" || last["topic"] != "after" || last["prev_content"] != nil || last["content"] != "second words" {
		t.Errorf("the move: %v", last)
	}
	if registerState(t, bob, "realm")["realm_allow_edit_history"] != true {
		t.Errorf("allow_edit_history is true for moves")
	}
	admin.Patch("/api/v1/realm", apitest.Form{"message_edit_history_visibility_policy": "none"}).OK()
	if r := history().Fails(400, "BAD_REQUEST"); r.Msg() != "Message edit history is disabled in this organization" {
		t.Errorf("none: %q", r.Msg())
	}
	if registerState(t, bob, "realm")["realm_allow_edit_history"] != false {
		t.Errorf("allow_edit_history is false for none")
	}
}

func checkManageBilling(t *testing.T, s *apitest.Server) {
	checkRealmGroupSetting("can_manage_billing_group", "role:administrators")(t, s)
	bob := s.Login("bob@example.com")
	state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm_billing", "realm_user"}}).OK().Body
	if fmt.Sprint(state["realm_billing"]) != "map[has_pending_sponsorship_request:false]" {
		t.Errorf("realm_billing %v", state["realm_billing"])
	}
	if _, ok := state["is_billing_admin"]; ok {
		t.Errorf("register still has is_billing_admin")
	}
	for _, u := range state["realm_users"].([]any) {
		if _, ok := u.(map[string]any)["is_billing_admin"]; ok {
			t.Errorf("a user object has is_billing_admin: %v", u)
		}
	}
	if _, ok := bob.Get("/api/v1/users/me", nil).OK().Body["is_billing_admin"]; ok {
		t.Errorf("GET /users/me has is_billing_admin")
	}
}

func checkResolveTopicsGroup(t *testing.T, s *apitest.Server) {
	checkRealmGroupSetting("can_resolve_topics_group", "role:members")(t, s)
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	id := send(t, bob, streamMsg("general", "broken build", "it broke"))
	resolve := func(c *apitest.Client, topic string) *apitest.Response {
		return c.Patch(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"topic": topic, "propagate_mode": "change_all"})
	}
	// Moderators only (set above): alice, a member, may not.
	if r := resolve(alice, "✔ broken build").Fails(400, "BAD_REQUEST"); r.Msg() != "You don't have permission to resolve topics." {
		t.Errorf("alice: %q", r.Msg())
	}
	resolve(admin, "✔ broken build").OK()
	admin.Patch("/api/v1/realm", apitest.Form{"can_resolve_topics_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(alice))}).OK()
	resolve(alice, "broken build").OK()
	admin.Patch("/api/v1/realm", apitest.Form{"can_resolve_topics_group": fmt.Sprintf(`{"new":%d}`, sys["role:nobody"])}).OK()
	resolve(admin, "✔ broken build").Fails(400, "BAD_REQUEST")
}

func checkEditTyping(t *testing.T, s *apitest.Server) {
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	aliceID, bobID := userID(alice), userID(bob)
	kinds := apitest.Form{"event_types": []string{"typing_edit_message"}}
	bq, aq := registerQueue(t, bob, kinds), registerQueue(t, admin, kinds)
	inGeneral := send(t, alice, streamMsg("general", "plans", "draft"))
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	alice.Post("/api/v1/message_edit_typing", apitest.Form{"message_id": inGeneral, "op": "start"}).OK()
	evs := bq.next()
	if len(evs) != 1 || evs[0]["type"] != "typing_edit_message" || evs[0]["op"] != "start" || evs[0]["sender_id"] != float64(aliceID) ||
		evs[0]["message_id"] != float64(inGeneral) || fmt.Sprint(evs[0]["recipient"]) != fmt.Sprintf("map[channel_id:%d topic:plans type:channel]", general) {
		t.Errorf("bob's events for a channel message: %v", evs)
	}
	aq.next()
	dm := send(t, alice, apitest.Form{"type": "direct", "to": `["bob@example.com"]`, "content": "psst"})
	alice.Post(fmt.Sprintf("/api/v1/messages/%d/typing", dm), apitest.Form{"op": "stop"}).OK()
	evs = bq.next()
	if len(evs) != 1 || evs[0]["op"] != "stop" || fmt.Sprint(evs[0]["recipient"]) != fmt.Sprintf("map[type:direct user_ids:[%d %d]]", min(aliceID, bobID), max(aliceID, bobID)) {
		t.Errorf("bob's events for a direct message: %v", evs)
	}
	if evs := aq.next(); len(evs) != 0 {
		t.Errorf("the administrator is not in the conversation but got %v", evs)
	}
	alice.Post(fmt.Sprintf("/api/v1/messages/%d/typing", dm), apitest.Form{"op": "pause"}).Fails(400, "BAD_REQUEST")
	s.Login("guest@example.com").Post(fmt.Sprintf("/api/v1/messages/%d/typing", dm), apitest.Form{"op": "start"}).Fails(400, "BAD_REQUEST")
	alice.Post("/api/v1/message_edit_typing", apitest.Form{"op": "start"}).Fails(400, "REQUEST_VARIABLE_MISSING")
}

func checkUnreadIgnoresUnsubscribed(t *testing.T, s *apitest.Server) {
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	random := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	inRandom := send(t, admin, streamMsg("random", "news", "one"))
	inGeneral := send(t, admin, streamMsg("general", "news", "two"))
	alice.Post("/api/v1/mark_all_as_read", nil).OK()
	alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["random"]`}).OK()
	r := alice.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{inRandom, inGeneral}, "op": "remove", "flag": "read"}).OK()
	if fmt.Sprint(r.List("messages")) != fmt.Sprintf("[%d]", inGeneral) || fmt.Sprint(r.List("ignored_because_not_subscribed_channels")) != fmt.Sprintf("[%d]", random) {
		t.Errorf("POST /messages/flags: %s", r.Raw)
	}
	if _, ok := alice.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{inGeneral}, "op": "add", "flag": "starred"}).OK().Body["ignored_because_not_subscribed_channels"]; ok {
		t.Errorf("present when not marking unread")
	}
	n := alice.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": "oldest", "num_before": 0, "num_after": 100,
		"narrow": `[{"operator":"channel","operand":"random"}]`, "op": "remove", "flag": "read"}).OK()
	if n.Int("updated_count") != 0 || fmt.Sprint(n.List("ignored_because_not_subscribed_channels")) != fmt.Sprintf("[%d]", random) {
		t.Errorf("POST /messages/flags/narrow: %s", n.Raw)
	}
}

func checkBotOwnerChange(t *testing.T, s *apitest.Server) {
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	bot := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Reader", "short_name": "reader"}).OK()
	botID, bobID := bot.Int("user_id"), userID(bob)
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"random"}]`, "principals": fmt.Sprintf("[%d]", botID)}).OK()
	random := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"realm_user"}})
	path := fmt.Sprintf("/api/v1/bots/%d", botID)
	bob.Patch(path, apitest.Form{"bot_owner_id": bobID}).Fails(400, "BAD_REQUEST") // not bob's to take
	for bad, msg := range map[int64]string{99999: "Failed to change owner, no such user", botID: "Failed to change owner, bots can't own other bots"} {
		if r := alice.Patch(path, apitest.Form{"bot_owner_id": bad}).Fails(400, "BAD_REQUEST"); r.Msg() != msg {
			t.Errorf("owner %d: %q", bad, r.Msg())
		}
	}
	alice.Patch(path, apitest.Form{"bot_owner_id": bobID}).OK()
	if evs := q.next(); len(evs) != 1 || fmt.Sprint(evs[0]["person"]) != fmt.Sprintf("map[bot_owner_id:%d user_id:%d]", bobID, botID) {
		t.Errorf("realm_user events %v", evs)
	}
	// bob is not in random; the bot stays there.
	members := admin.Get(fmt.Sprintf("/api/v1/streams/%d/members", random), nil).OK().List("subscribers")
	if !slices.Contains(members, any(float64(botID))) {
		t.Errorf("the bot left random when given to bob: %v", members)
	}
	if got := bob.Get("/api/v1/bots", nil).OK().List("bots"); len(got) != 1 || got[0].(map[string]any)["user_id"] != float64(botID) {
		t.Errorf("bob's bots %v", got)
	}
}

func checkMovedTimestamp(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	stamps := func(id int64) (edited, moved any) {
		m := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)
		var fromList map[string]any
		for _, l := range alice.Get("/api/v1/messages", apitest.Form{"anchor": id, "num_before": 0, "num_after": 0}).OK().List("messages") {
			fromList = l.(map[string]any)
		}
		if fromList["last_edit_timestamp"] != m["last_edit_timestamp"] || fromList["last_moved_timestamp"] != m["last_moved_timestamp"] {
			t.Errorf("GET /messages and GET /messages/{id} differ: %v / %v", fromList, m)
		}
		return m["last_edit_timestamp"], m["last_moved_timestamp"]
	}
	moved := send(t, alice, streamMsg("general", "old name", "moved only"))
	edited := send(t, alice, streamMsg("general", "stays", "edited only"))
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", edited), apitest.Form{"content": "edited, once"}).OK()
	if e, m := stamps(edited); e == nil || m != nil {
		t.Errorf("a content edit: last_edit_timestamp %v, last_moved_timestamp %v", e, m)
	}
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", edited), apitest.Form{"topic": "✔ stays", "propagate_mode": "change_all"}).OK()
	if _, m := stamps(edited); m != nil {
		t.Errorf("resolving moved the message: %v", m)
	}
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", moved), apitest.Form{"topic": "new name", "propagate_mode": "change_one"}).OK()
	if e, m := stamps(moved); e != nil || m == nil {
		t.Errorf("a move: last_edit_timestamp %v, last_moved_timestamp %v", e, m)
	}
}

func checkIsMuted(t *testing.T, s *apitest.Server) {
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	random := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	alice.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": "noise", "visibility_policy": 1}).OK()
	alice.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": fmt.Sprintf(`[{"stream_id":%d,"property":"is_muted","value":true}]`, random)}).OK()
	alice.Post("/api/v1/user_topics", apitest.Form{"stream_id": random, "topic": "kept", "visibility_policy": 2}).OK()
	const isMuted = `[{"operator":"is","operand":"muted"}]`
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"message"}, "narrow": `[["is","muted"]]`})
	noise := send(t, admin, streamMsg("general", "noise", "a muted topic"))
	chatter := send(t, admin, streamMsg("random", "chatter", "a muted channel"))
	kept := send(t, admin, streamMsg("random", "kept", "unmuted in a muted channel"))
	plans := send(t, admin, streamMsg("general", "plans", "not muted"))
	dm := send(t, admin, apitest.Form{"type": "direct", "to": `["alice@example.com"]`, "content": "never muted"})
	got := slices.DeleteFunc(narrowIDs(t, alice, isMuted), func(id int64) bool { return id < noise })
	if !slices.Equal(got, []int64{noise, chatter}) {
		t.Errorf("GET /messages is:muted %v, want %v", got, []int64{noise, chatter})
	}
	matches := alice.Get("/api/v1/messages/matches_narrow", apitest.Form{"msg_ids": []int64{noise, chatter, kept, plans, dm}, "narrow": isMuted}).OK().Body["messages"].(map[string]any)
	if len(matches) != 2 || matches[fmt.Sprint(noise)] == nil || matches[fmt.Sprint(chatter)] == nil {
		t.Errorf("matches_narrow %v", matches)
	}
	var ids []int64
	for _, e := range q.next() {
		ids = append(ids, int64(e["message"].(map[string]any)["id"].(float64)))
	}
	if !slices.Equal(ids, []int64{noise, chatter}) {
		t.Errorf("a queue narrowed to is:muted got %v", ids)
	}
	n := alice.Post("/api/v1/messages/flags/narrow", apitest.Form{"anchor": noise, "num_before": 0, "num_after": 100, "narrow": isMuted, "op": "add", "flag": "starred"}).OK()
	if n.Int("processed_count") != 2 {
		t.Errorf("flags/narrow is:muted: %s", n.Raw)
	}
}

func checkTopicLinkWith(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	send(t, alice, streamMsg("general", "plans", "first"))
	latest := send(t, alice, streamMsg("general", "plans", "second"))
	rendered := func(content string) string {
		return alice.Post("/api/v1/messages/render", apitest.Form{"content": content}).OK().Str("rendered")
	}
	want := fmt.Sprintf(`href="/#narrow/channel/%d-general/topic/plans/with/%d"`, general, latest)
	if html := rendered("see #**general>plans**"); !strings.Contains(html, want) {
		t.Errorf("topic link %s, want %s", html, want)
	}
	if html := rendered("see #**general>empty**"); !strings.Contains(html, fmt.Sprintf(`href="/#narrow/channel/%d-general/topic/empty"`, general)) {
		t.Errorf("a topic without messages: %s", html)
	}
	if html := rendered(fmt.Sprintf("see #**general>plans@%d**", latest)); strings.Contains(html, "/with/") {
		t.Errorf("a message link: %s", html)
	}
}

func streamNames(t *testing.T, c *apitest.Client, f apitest.Form) []string {
	t.Helper()
	var out []string
	for _, st := range c.Get("/api/v1/streams", f).OK().List("streams") {
		out = append(out, st.(map[string]any)["name"].(string))
	}
	slices.Sort(out)
	return out
}

func checkStreamListFilters(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"vault"}]`, "invite_only": true}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"club"}]`, "invite_only": true,
		"can_subscribe_group": fmt.Sprint(sys["role:members"])}).OK()
	content := apitest.Form{"include_public": false, "include_subscribed": false, "include_can_access_content": true}
	if got := streamNames(t, bob, content); !slices.Equal(got, []string{"club", "general", "random"}) {
		t.Errorf("bob's include_can_access_content %v", got)
	}
	if got := streamNames(t, bob, apitest.Form{"include_all": true}); !slices.Equal(got, []string{"club", "general", "random"}) {
		t.Errorf("bob's include_all %v", got)
	}
	if got := streamNames(t, admin, apitest.Form{"include_all": true}); !slices.Contains(got, "vault") || !slices.Contains(got, "club") {
		t.Errorf("the administrator's include_all %v", got)
	}
	if got := streamNames(t, s.Login("guest@example.com"), content); !slices.Equal(got, []string{"general"}) {
		t.Errorf("the guest's include_can_access_content %v", got)
	}
}

func checkCanSubscribeGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"vault"}]`, "invite_only": true}).OK()
	vault := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "vault"}).OK().Int("stream_id")
	objectOf := func(c *apitest.Client) map[string]any {
		for _, st := range c.Get("/api/v1/streams", apitest.Form{"include_all": true}).OK().List("streams") {
			if st.(map[string]any)["name"] == "vault" {
				return st.(map[string]any)
			}
		}
		return nil
	}
	if got := objectOf(admin)["can_subscribe_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("default can_subscribe_group %v", got)
	}
	join := func(c *apitest.Client) *apitest.Response {
		return c.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"vault"}]`})
	}
	join(alice).Fails(400, "BAD_REQUEST")
	path := fmt.Sprintf("/api/v1/streams/%d", vault)
	set := fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]},"old":%d}`, userID(alice), sys["role:nobody"])
	alice.Patch(path, apitest.Form{"can_subscribe_group": set}).Fails(400, "BAD_REQUEST")
	admin.Patch(path, apitest.Form{"can_subscribe_group": fmt.Sprintf(`{"new":%d}`, sys["role:everyone"])}).Fails(400, "BAD_REQUEST")
	aq := registerQueue(t, admin, apitest.Form{"event_types": []string{"stream"}})
	admin.Patch(path, apitest.Form{"can_subscribe_group": set}).OK()
	if evs := aq.next(); len(evs) != 1 || evs[0]["property"] != "can_subscribe_group" || fmt.Sprint(evs[0]["value"]) != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", userID(alice)) {
		t.Errorf("events %v", evs)
	}
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"stream", "subscription"}})
	join(bob).Fails(400, "BAD_REQUEST")
	// Only oneself: alice may not bring bob in.
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"vault"}]`, "principals": `["bob@example.com"]`}).Fails(400, "BAD_REQUEST")
	join(alice).OK()
	if got := types(q.next()); !slices.Contains(got, "stream:create") || !slices.Contains(got, "subscription:add") {
		t.Errorf("alice's events on joining %v", got)
	}
	var sub map[string]any
	for _, x := range alice.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions") {
		if x.(map[string]any)["name"] == "vault" {
			sub = x.(map[string]any)
		}
	}
	if sub == nil || sub["can_subscribe_group"] == nil {
		t.Errorf("alice's subscription %v", sub)
	}
	// A guest never holds it.
	admin.Patch(path, apitest.Form{"can_subscribe_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(s.Login("guest@example.com")))}).OK()
	join(s.Login("guest@example.com")).Fails(400, "BAD_REQUEST")
}

func checkContentAccessByGroup(t *testing.T, s *apitest.Server) {
	admin, bob, guest := s.Login("admin@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	sys := systemGroups(t, bob)
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"club"}]`, "invite_only": true}).OK()
	id := send(t, admin, streamMsg("club", "plans", "members only"))
	admin.Patch("/api/v1/realm", apitest.Form{"enable_read_receipts": true}).OK()
	read := func(c *apitest.Client) []*apitest.Response {
		return []*apitest.Response{
			c.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil),
			c.Post(fmt.Sprintf("/api/v1/messages/%d/reactions", id), apitest.Form{"emoji_name": "smile"}),
			c.Get(fmt.Sprintf("/api/v1/messages/%d/read_receipts", id), nil),
		}
	}
	for _, r := range read(bob) {
		r.Fails(400, "BAD_REQUEST")
	}
	bob.Get("/api/v1/messages", narrowed(`[{"operator":"channel","operand":"club"}]`)).Fails(400, "BAD_NARROW")
	club := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "club"}).OK().Int("stream_id")
	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", club), apitest.Form{"can_subscribe_group": fmt.Sprintf(`{"new":%d}`, sys["role:members"])}).OK()
	for _, r := range read(bob) {
		r.OK()
	}
	if got := narrowIDs(t, bob, `[{"operator":"channel","operand":"club"}]`); !slices.Equal(got, []int64{id}) {
		t.Errorf("bob reads club: %v", got)
	}
	for _, r := range read(guest) {
		r.Fails(400, "BAD_REQUEST")
	}
	// Reading is not subscribing: bob's subscriptions are unchanged.
	if slices.Contains(subNames(t, bob), "club") {
		t.Errorf("bob was subscribed to club")
	}
}

func checkEditSavedSnippet(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := alice.Post("/api/v1/saved_snippets", apitest.Form{"title": "Greeting", "content": "Hello"}).OK().Int("saved_snippet_id")
	path := fmt.Sprintf("/api/v1/saved_snippets/%d", id)
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"saved_snippets"}})
	alice.Patch(path, apitest.Form{"content": "Hello, everyone"}).OK()
	alice.Patch(path, apitest.Form{"title": "Welcome"}).OK()
	evs := q.next()
	if len(evs) != 2 || evs[1]["type"] != "saved_snippets" || evs[1]["op"] != "update" {
		t.Fatalf("events %v", evs)
	}
	if sn := evs[1]["saved_snippet"].(map[string]any); sn["id"] != float64(id) || sn["title"] != "Welcome" || sn["content"] != "Hello, everyone" || sn["date_created"] == nil {
		t.Errorf("the update event's snippet %v", sn)
	}
	if got := alice.Get("/api/v1/saved_snippets", nil).OK().List("saved_snippets"); len(got) != 1 || got[0].(map[string]any)["title"] != "Welcome" {
		t.Errorf("GET /saved_snippets after the edit %v", got)
	}
	if r := alice.Patch(path, apitest.Form{"title": " "}).Fails(400, "BAD_REQUEST"); r.Msg() != "Title cannot be empty." {
		t.Errorf("an empty title: %s", r.Msg())
	}
	alice.Patch(path, nil).Fails(400, "BAD_REQUEST")
	if r := bob.Patch(path, apitest.Form{"title": "Mine"}); r.Status != 404 || r.Msg() != "Saved snippet does not exist." {
		t.Errorf("someone else's snippet: %s", r)
	}
}

func checkEmptyTopicLinks(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	rendered := func(content string) string {
		return alice.Post("/api/v1/messages/render", apitest.Form{"content": content}).OK().Str("rendered")
	}
	want := fmt.Sprintf(`<p><a class="stream-topic" data-stream-id="%d" href="/#narrow/channel/%d-general/topic/">#general &gt; <em>general chat</em></a></p>`, general, general)
	if html := rendered("#**general>**"); html != want {
		t.Errorf("a link to the empty topic %s, want %s", html, want)
	}
	want = fmt.Sprintf(`<p><a class="message-link" href="/#narrow/channel/%d-general/topic//near/42">#general &gt; <em>general chat</em> @ 💬</a></p>`, general)
	if html := rendered("#**general>@42**"); html != want {
		t.Errorf("a message link in the empty topic %s, want %s", html, want)
	}
}

func checkNoTopicIsEmpty(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	empty := func(what string, r *apitest.Response) {
		t.Helper()
		if r.Fails(400, "BAD_REQUEST"); r.Msg() != "Topic can't be empty!" {
			t.Errorf("%s: %q", what, r.Msg())
		}
	}
	empty("POST /messages", alice.Post("/api/v1/messages", streamMsg("general", "(no topic)", "untitled")))
	later := time.Now().Add(time.Hour).Unix()
	empty("POST /scheduled_messages", alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "channel", "to": general,
		"topic": "(no topic)", "content": "later", "scheduled_delivery_timestamp": later}))
	id := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "channel", "to": general, "topic": "plans",
		"content": "later", "scheduled_delivery_timestamp": later}).OK().Int("scheduled_message_id")
	empty("PATCH /scheduled_messages", alice.Patch(fmt.Sprintf("/api/v1/scheduled_messages/%d", id), apitest.Form{"topic": "(no topic)"}))
	send(t, alice, streamMsg("general", "(no topic) after all", "a topic that only starts so"))
}

func checkChannelMetadataAccess(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	adminID, aliceID, bobID := userID(admin), userID(alice), userID(bob)
	only := func(id int64) string { return fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, id) }
	// Alice administers the private channel, Bob may add subscribers; neither is subscribed.
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"council"}]`, "invite_only": true,
		"can_administer_channel_group": only(aliceID), "can_add_subscribers_group": only(bobID)}).OK()
	for _, c := range []*apitest.Client{alice, bob} {
		var names []string
		for _, st := range registerState(t, c, "subscription")["never_subscribed"].([]any) {
			names = append(names, st.(map[string]any)["name"].(string))
		}
		if !slices.Contains(names, "council") {
			t.Errorf("never_subscribed %v lacks the private channel", names)
		}
	}
	id := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "council"}).OK().Int("stream_id")
	path := fmt.Sprintf("/api/v1/streams/%d", id)
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	alice.Get(path, nil).OK()
	alice.Patch(path, apitest.Form{"description": "run by alice"}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "description" {
		t.Errorf("events to one who may add subscribers %v", evs)
	}
	alice.Patch(path, apitest.Form{"is_private": false}).Fails(400, "BAD_REQUEST")
	alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["council"]`, "principals": fmt.Sprintf("[%d]", adminID)}).OK()
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"council"}]`, "principals": fmt.Sprintf("[%d]", aliceID)}).OK()
	if got := bob.Get(fmt.Sprintf("/api/v1/streams/%d/members", id), nil).OK().List("subscribers"); fmt.Sprint(got) != fmt.Sprintf("[%d]", aliceID) {
		t.Errorf("subscribers %v", got)
	}
	bob.Get(fmt.Sprintf("/api/v1/messages?anchor=newest&num_before=5&num_after=0&narrow=[{\"operator\":\"channel\",\"operand\":%d}]", id), nil).Fails(400, "BAD_NARROW")
}
