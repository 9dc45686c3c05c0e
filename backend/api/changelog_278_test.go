package api_test

import (
	"fmt"
	"testing"

	"lanchat/backend/apitest"
)

// changelog278Cases are the rows for Zulip's changelog entries at levels
// 278–315, on the climb from 9.0 (277) to 10.0 (371).
func changelog278Cases() []changelogCase {
	return []changelogCase{
		{"level 280: can_create_web_public_channel_group, with create_web_public_stream_policy approximating it", checkWebPublicChannelGroup},
		{"level 281: can_delete_any_message_group, enforced", checkDeleteAnyMessageGroup},
		{"level 282: POST /users/me/tutorial_status is gone", func(t *testing.T, s *apitest.Server) {
			if r := s.Login("bob@example.com").Post("/api/v1/users/me/tutorial_status", apitest.Form{"status": "finished"}); r.Status != 404 {
				t.Errorf("tutorial_status: %s", r)
			}
		}},
		{"level 284: no prev_rendered_content_version in edit_history or update_message", checkNoRenderedContentVersion},
		{"level 285: detached_uploads in PATCH /messages/{id}", checkDetachedUploads},
		{"level 286: filename in POST /user_uploads", func(t *testing.T, s *apitest.Server) {
			res := s.Login("alice@example.com").PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"my notes.txt", "hello"}}).OK()
			if res.Str("filename") != "my notes.txt" {
				t.Errorf("answer %s", res.Raw)
			}
		}},
		{"level 288: presence_history_limit_days in register, history_limit_days in POST /users/me/presence", checkPresenceHistoryLimit},
		{"level 289: POST /users/me/subscriptions answers by user ID", checkSubscribedByID},
	}
}

// checkNewRealmGroupSetting checks a realm group setting a changelog entry
// added: register's default (a system group), its rule in
// server_supported_permission_settings, a change only administrators make
// as {"new", "old"}, announced as a realm update_dict and read back.
func checkNewRealmGroupSetting(t *testing.T, s *apitest.Server, name, def, changed string) map[string]int64 {
	t.Helper()
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, bob)
	if got := realmSetting(t, bob, name); got != float64(sys[def]) {
		t.Errorf("register's realm_%s = %v, want %s (%d)", name, got, def, sys[def])
	}
	state := registerState(t, bob, "realm")
	rule, _ := state["server_supported_permission_settings"].(map[string]any)["realm"].(map[string]any)[name].(map[string]any)
	if rule["default_group_name"] != def {
		t.Errorf("server_supported_permission_settings.realm.%s = %v", name, rule)
	}
	change := apitest.Form{name: fmt.Sprintf(`{"new":%d,"old":%d}`, sys[changed], sys[def])}
	bob.Patch("/api/v1/realm", change).Fails(400, "BAD_REQUEST")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
	admin.Patch("/api/v1/realm", change).OK()
	checkRealmUpdateDict(t, q, name, sys[changed])
	if got := realmSetting(t, bob, name); got != float64(sys[changed]) {
		t.Errorf("after the change realm_%s = %v", name, got)
	}
	return sys
}

func checkWebPublicChannelGroup(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	if got := realmSetting(t, bob, "create_web_public_stream_policy"); got != float64(7) {
		t.Errorf("realm_create_web_public_stream_policy %v, want 7 (owners)", got)
	}
	sys := checkNewRealmGroupSetting(t, s, "can_create_web_public_channel_group", "role:owners", "role:moderators")
	if got := realmSetting(t, bob, "create_web_public_stream_policy"); got != float64(4) {
		t.Errorf("realm_create_web_public_stream_policy %v, want 4 (moderators)", got)
	}
	for _, bad := range []string{fmt.Sprint(sys["role:members"]), fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, userID(bob))} {
		admin.Patch("/api/v1/realm", apitest.Form{"can_create_web_public_channel_group": `{"new":` + bad + `}`}).Fails(400, "BAD_REQUEST")
	}
}

func checkDeleteAnyMessageGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	first := send(t, alice, streamMsg("general", "deleting", "one"))
	second := send(t, alice, streamMsg("general", "deleting", "two"))
	bob.Delete(msgPath(first, ""), nil).Fails(400, "BAD_REQUEST")
	admin.Delete(msgPath(first, ""), nil).OK()
	checkNewRealmGroupSetting(t, s, "can_delete_any_message_group", "role:administrators", "role:members")
	bob.Delete(msgPath(second, ""), nil).OK()
}

func checkNoRenderedContentVersion(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "versions", "first"))
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"update_message"}})
	alice.Patch(msgPath(id, ""), apitest.Form{"content": "second"}).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["orig_content"] != "first" {
		t.Fatalf("events %v", evs)
	}
	if _, ok := evs[0]["prev_rendered_content_version"]; ok {
		t.Errorf("update_message %v", evs[0])
	}
	history := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["edit_history"].([]any)
	for _, h := range history {
		if _, ok := h.(map[string]any)["prev_rendered_content_version"]; ok || h.(map[string]any)["prev_content"] != "first" {
			t.Errorf("edit_history %v", history)
		}
	}
}

func checkDetachedUploads(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	up := func(name string) string {
		return alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {name, "data of " + name}}).OK().Str("url")
	}
	kept, shared, dropped := up("kept.txt"), up("shared.txt"), up("dropped.txt")
	id := send(t, alice, streamMsg("general", "files", "[a]("+kept+") [b]("+shared+") [c]("+dropped+")"))
	send(t, alice, streamMsg("general", "files", "also [b]("+shared+")"))
	res := alice.Patch(msgPath(id, ""), apitest.Form{"content": "[a](" + kept + ")"}).OK()
	detached := res.List("detached_uploads")
	if len(detached) != 1 {
		t.Fatalf("detached_uploads %s", res.Raw)
	}
	if d := detached[0].(map[string]any); d["name"] != "dropped.txt" || "/user_uploads/"+d["path_id"].(string) != dropped || len(d["messages"].([]any)) != 0 {
		t.Errorf("detached upload %v", d)
	}
	if got := alice.Patch(msgPath(id, ""), apitest.Form{"topic": "moved files"}).OK().List("detached_uploads"); len(got) != 0 {
		t.Errorf("a move detached %v", got)
	}
}

func checkPresenceHistoryLimit(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	aliceID := fmt.Sprint(userID(alice))
	alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "ping_only": true}).OK()
	registered := func(days int) map[string]any {
		return bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"presence"}, "slim_presence": true,
			"presence_history_limit_days": days}).OK().Body["presences"].(map[string]any)
	}
	polled := func(days int) map[string]any {
		return bob.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "slim_presence": true,
			"history_limit_days": days}).OK().Body["presences"].(map[string]any)
	}
	for name, fetch := range map[string]func(int) map[string]any{"register": registered, "presence": polled} {
		if _, ok := fetch(0)[aliceID]; ok {
			t.Errorf("%s: alice reported before now, but is listed for 0 days", name)
		}
		if _, ok := fetch(1)[aliceID]; !ok {
			t.Errorf("%s: alice reported within a day, but is not listed", name)
		}
	}
	bob.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "history_limit_days": -1}).Fails(400, "REQUEST_VARIABLE_INVALID")
}

func checkSubscribedByID(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	res := admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"general"},{"name":"by-ids"}]`,
		"principals": `["alice@example.com"]`}).OK()
	id := fmt.Sprint(userID(alice))
	if fmt.Sprint(res.Body["subscribed"]) != fmt.Sprintf("map[%s:[by-ids]]", id) || fmt.Sprint(res.Body["already_subscribed"]) != fmt.Sprintf("map[%s:[general]]", id) {
		t.Errorf("answer %s", res.Raw)
	}
}
