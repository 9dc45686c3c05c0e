package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// The changelog's entries about groups and group-based permissions, each
// a row of TestChangelogEntries.
func groupChangelogCases() []changelogCase {
	return []changelogCase{
		{"level 191, 198, 258: can_mention_group on groups, set at creation as an ID or a set, and enforced", checkCanMentionGroup},
		{"level 260: PATCH /user_groups/{id} takes can_mention_group as {new, old}", checkCanMentionGroupChange},
		{"level 197: can_remove_subscribers_group on streams, changed by PATCH /streams/{id} and enforced", checkCanRemoveSubscribersGroup},
		{"level 209: create_multiuse_invite_group, changed by PATCH /realm and enforced", checkCreateMultiuseInviteGroup},
		{"level 221, 225: server_supported_permission_settings, with allowed_system_groups", checkSupportedPermissionSettings},
		{"level 225, 228: can_access_all_users_group is role:everyone, so everyone hears of everyone", checkCanAccessAllUsersGroup},
		{"level 264, 266: can_create_public_channel_group and can_create_private_channel_group, enforced", checkCreateChannelGroups},
		{"level 270: direct_message_initiator_group and direct_message_permission_group, enforced", checkDirectMessageGroups},
	}
}

// systemGroups maps the system groups' names to their IDs, from register.
func systemGroups(t *testing.T, c *apitest.Client) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, g := range c.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm_user_groups"}}).OK().List("realm_user_groups") {
		group := g.(map[string]any)
		if group["is_system_group"] == true {
			out[group["name"].(string)] = int64(group["id"].(float64))
		}
	}
	if len(out) != 8 {
		t.Fatalf("system groups %v", out)
	}
	return out
}

// groupNamed is GET /user_groups's entry for a name.
func groupNamed(t *testing.T, c *apitest.Client, name string) map[string]any {
	t.Helper()
	for _, g := range c.Get("/api/v1/user_groups", nil).OK().List("user_groups") {
		if g.(map[string]any)["name"] == name {
			return g.(map[string]any)
		}
	}
	t.Fatalf("no group %s", name)
	return nil
}

// realmSetting is register's realm_<name>.
func realmSetting(t *testing.T, c *apitest.Client, name string) any {
	t.Helper()
	return c.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm"}}).OK().Body["realm_"+name]
}

// checkRealmUpdateDict checks that a queue got exactly one realm update_dict
// event, carrying the setting's new value.
func checkRealmUpdateDict(t *testing.T, q *queue, name string, want any) {
	t.Helper()
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "realm" || evs[0]["op"] != "update_dict" || evs[0]["property"] != "default" ||
		fmt.Sprint(evs[0]["data"].(map[string]any)[name]) != fmt.Sprint(want) {
		t.Errorf("events after changing %s: %v", name, evs)
	}
}

func checkCanMentionGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	aliceID, bobID := userID(alice), userID(bob)
	if g := groupNamed(t, alice, "engineering"); g["can_mention_group"] != float64(sys["role:everyone"]) {
		t.Errorf("a group's default can_mention_group %v, want role:everyone %d", g["can_mention_group"], sys["role:everyone"])
	}
	if g := groupNamed(t, alice, "role:members"); g["can_mention_group"] != float64(sys["role:nobody"]) {
		t.Errorf("a system group's can_mention_group %v, want role:nobody", g["can_mention_group"])
	}
	admin.Post("/api/v1/user_groups/create", apitest.Form{"name": "leads", "description": "", "members": []int64{bobID},
		"can_mention_group": sys["role:administrators"]}).OK()
	admin.Post("/api/v1/user_groups/create", apitest.Form{"name": "pairs", "description": "", "members": []int64{bobID},
		"can_mention_group": `{"direct_members":[` + itoa(aliceID) + `],"direct_subgroups":[]}`}).OK()
	if g := groupNamed(t, alice, "pairs")["can_mention_group"].(map[string]any); fmt.Sprint(g["direct_members"]) != fmt.Sprint([]any{float64(aliceID)}) {
		t.Errorf("pairs' can_mention_group %v", g)
	}
	// role:owners is allowed since level 326.
	for bad, code := range map[any]string{sys["role:internet"]: "BAD_REQUEST", 99999: "BAD_REQUEST",
		`{"direct_members":[99999]}`: "BAD_REQUEST", `{"members":[1]}`: "REQUEST_VARIABLE_INVALID"} {
		admin.Post("/api/v1/user_groups/create", apitest.Form{"name": "bad", "description": "", "members": []int64{},
			"can_mention_group": bad}).Fails(400, code)
	}
	send := func(c *apitest.Client, content string) *apitest.Response {
		return c.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "mentions", "content": content})
	}
	if r := send(alice, "hi @*leads*").Fails(400, "BAD_REQUEST"); r.Msg() != "You are not allowed to mention user group 'leads'." {
		t.Errorf("alice mentioning leads: %q", r.Msg())
	}
	send(alice, "hi @_*leads*").OK() // a silent mention is not a mention
	send(admin, "hi @*leads*").OK()
	send(alice, "hi @*pairs*").OK()
	send(admin, "hi @*pairs*").Fails(400, "BAD_REQUEST")
	send(alice, "hi @*role:members*").Fails(400, "BAD_REQUEST")
	// bob, in leads, was mentioned by the administrator's message.
	msgs := bob.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 10, "num_after": 0,
		"narrow": `[{"operator":"is","operand":"mentioned"}]`}).OK().List("messages")
	var groupMentions []string
	for _, m := range msgs {
		if html := m.(map[string]any)["content"].(string); strings.Contains(html, "user-group-mention") {
			groupMentions = append(groupMentions, html)
		}
	}
	if len(groupMentions) != 2 {
		t.Errorf("bob's group mentions %q, want 2 (leads, pairs)", groupMentions)
	}
}

func checkCanMentionGroupChange(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	g := groupNamed(t, alice, "engineering")
	path := fmt.Sprintf("/api/v1/user_groups/%d", int64(g["id"].(float64)))
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	r := alice.Patch(path, apitest.Form{"can_mention_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:moderators"], sys["role:administrators"])})
	if r.Fails(400, "EXPECTATION_MISMATCH"); r.Msg() != "'old' value does not match the expected value." {
		t.Errorf("stale old: %q", r.Msg())
	}
	alice.Patch(path, apitest.Form{"can_mention_group": fmt.Sprint(sys["role:moderators"])}).Fails(400, "REQUEST_VARIABLE_INVALID")
	alice.Patch(path, apitest.Form{"can_mention_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:moderators"], sys["role:everyone"])}).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["data"].(map[string]any)["can_mention_group"] != float64(sys["role:moderators"]) {
		t.Errorf("events %v", evs)
	}
	alice.Patch(path, apitest.Form{"can_mention_group": `{"new":{"direct_members":[],"direct_subgroups":[]}}`}).OK()
	if got := groupNamed(t, alice, "engineering")["can_mention_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("an empty set is role:nobody, got %v", got)
	}
}

func checkCanRemoveSubscribersGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	remove := func(c *apitest.Client) *apitest.Response {
		return c.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["general"]`, "principals": `["bob@example.com"]`})
	}
	remove(alice).Fails(400, "BAD_REQUEST")
	path := fmt.Sprintf("/api/v1/streams/%d", general)
	alice.Patch(path, apitest.Form{"can_remove_subscribers_group": sys["role:members"]}).Fails(400, "BAD_REQUEST")
	engineering := int64(groupNamed(t, alice, "engineering")["id"].(float64))
	for _, bad := range []int64{sys["role:internet"], 99999} { // named groups are allowed since level 320
		admin.Patch(path, apitest.Form{"can_remove_subscribers_group": bad}).Fails(400, "BAD_REQUEST")
	}
	admin.Patch(path, apitest.Form{"can_remove_subscribers_group": engineering}).OK()
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	admin.Patch(path, apitest.Form{"can_remove_subscribers_group": sys["role:members"]}).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["property"] != "can_remove_subscribers_group" || evs[0]["value"] != float64(sys["role:members"]) {
		t.Errorf("events %v", evs)
	}
	for _, st := range alice.Get("/api/v1/streams", nil).OK().List("streams") {
		if st.(map[string]any)["name"] == "general" && st.(map[string]any)["can_remove_subscribers_group"] != float64(sys["role:members"]) {
			t.Errorf("general %v", st)
		}
	}
	remove(alice).OK()
	// Set when the stream is created, too.
	create := func(name string, group int64) *apitest.Response {
		return admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"` + name + `"}]`, "can_remove_subscribers_group": group})
	}
	create("moderated", sys["role:internet"]).Fails(400, "BAD_REQUEST")
	create("moderated", sys["role:moderators"]).OK()
	for _, st := range alice.Get("/api/v1/streams", nil).OK().List("streams") {
		if m := st.(map[string]any); m["name"] == "moderated" && m["can_remove_subscribers_group"] != float64(sys["role:moderators"]) {
			t.Errorf("moderated %v", m)
		}
	}
}

func checkCreateMultiuseInviteGroup(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	sys := systemGroups(t, alice)
	if got := realmSetting(t, alice, "create_multiuse_invite_group"); got != float64(sys["role:administrators"]) {
		t.Errorf("default %v", got)
	}
	alice.Post("/api/v1/invites/multiuse", nil).Fails(400, "BAD_REQUEST")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm"}})
	// Since level 314 the setting is changed as {"new", "old"}.
	change := func(group int64) apitest.Form {
		return apitest.Form{"create_multiuse_invite_group": fmt.Sprintf(`{"new":%d}`, group)}
	}
	alice.Patch("/api/v1/realm", change(sys["role:members"])).Fails(400, "BAD_REQUEST")
	for _, bad := range []int64{sys["role:everyone"]} { // role:owners is allowed since level 326
		admin.Patch("/api/v1/realm", change(bad)).Fails(400, "BAD_REQUEST")
	}
	admin.Patch("/api/v1/realm", change(sys["role:members"])).OK()
	checkRealmUpdateDict(t, q, "create_multiuse_invite_group", sys["role:members"])
	alice.Post("/api/v1/invites/multiuse", nil).OK()
	s.Login("guest@example.com").Post("/api/v1/invites/multiuse", nil).Fails(400, "BAD_REQUEST")
}

func checkSupportedPermissionSettings(t *testing.T, s *apitest.Server) {
	state := s.Login("alice@example.com").Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm"}}).OK()
	settings, _ := state.Body["server_supported_permission_settings"].(map[string]any)
	want := map[string][]string{
		"realm":  {"create_multiuse_invite_group", "can_access_all_users_group", "can_create_public_channel_group", "can_create_private_channel_group", "direct_message_initiator_group", "direct_message_permission_group"},
		"stream": {"can_remove_subscribers_group"},
		"group":  {"can_mention_group"},
	}
	for object, names := range want {
		got, _ := settings[object].(map[string]any)
		for _, name := range names {
			c, _ := got[name].(map[string]any)
			if _, ok := c["allowed_system_groups"].([]any); !ok || c["default_group_name"] == nil {
				t.Errorf("%s.%s: %v", object, name, c)
			}
		}
	}
	if access := settings["realm"].(map[string]any)["can_access_all_users_group"].(map[string]any); fmt.Sprint(access["allowed_system_groups"]) != "[role:everyone]" {
		t.Errorf("can_access_all_users_group %v", access)
	}
	if mention := settings["group"].(map[string]any)["can_mention_group"].(map[string]any); mention["default_for_system_groups"] != "role:nobody" {
		t.Errorf("can_mention_group %v", mention)
	}
}

func checkCanAccessAllUsersGroup(t *testing.T, s *apitest.Server) {
	admin, guest := s.Login("admin@example.com"), s.Login("guest@example.com")
	sys := systemGroups(t, admin)
	if got := realmSetting(t, guest, "can_access_all_users_group"); got != float64(sys["role:everyone"]) {
		t.Errorf("can_access_all_users_group %v", got)
	}
	admin.Patch("/api/v1/realm", apitest.Form{"can_access_all_users_group": fmt.Sprintf(`{"new":%d}`, sys["role:members"])}).Fails(400, "BAD_REQUEST")
	// Everyone may access everyone: the guest, who shares no stream with a
	// newcomer, hears of the newcomer's arrival and changes.
	q := registerQueue(t, guest, apitest.Form{"event_types": []string{"realm_user"}})
	id := admin.Post("/api/v1/users", apitest.Form{"email": "newcomer@example.com", "password": "newcomer-1", "full_name": "New Comer"}).OK().Int("user_id")
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", id), apitest.Form{"full_name": "Renamed Comer"}).OK()
	var ops []string
	for _, e := range q.next() {
		ops = append(ops, e["op"].(string))
	}
	if !slices.Equal(ops, []string{"add", "update"}) {
		t.Errorf("the guest's realm_user events %v", ops)
	}
}

func checkCreateChannelGroups(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	for _, name := range []string{"can_create_public_channel_group", "can_create_private_channel_group"} {
		if got := realmSetting(t, alice, name); got != float64(sys["role:members"]) {
			t.Errorf("%s default %v", name, got)
		}
	}
	create := func(c *apitest.Client, name string, private bool) *apitest.Response {
		return c.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"` + name + `"}]`, "invite_only": private})
	}
	create(alice, "alices-public", false).OK()
	create(alice, "alices-private", true).OK()
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm"}})
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_public_channel_group": fmt.Sprintf(`{"new":%d}`, sys["role:everyone"])}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_public_channel_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:administrators"], sys["role:members"])}).OK()
	checkRealmUpdateDict(t, q, "can_create_public_channel_group", sys["role:administrators"])
	if got := realmSetting(t, alice, "create_public_stream_policy"); got != float64(2) {
		t.Errorf("realm_create_public_stream_policy %v, want 2 (administrators)", got)
	}
	create(alice, "public-again", false).Fails(400, "BAD_REQUEST")
	create(alice, "private-again", true).OK()
	create(admin, "admins-public", false).OK()
	aliceID := userID(alice)
	set := fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[%d]}}`, aliceID, sys["role:moderators"])
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_private_channel_group": set}).OK()
	got, _ := realmSetting(t, alice, "can_create_private_channel_group").(map[string]any)
	if fmt.Sprint(got["direct_members"]) != fmt.Sprint([]any{float64(aliceID)}) || fmt.Sprint(got["direct_subgroups"]) != fmt.Sprint([]any{float64(sys["role:moderators"])}) {
		t.Errorf("can_create_private_channel_group %v", got)
	}
	create(alice, "private-three", true).OK()
	create(bob, "bobs-private", true).Fails(400, "BAD_REQUEST")
	create(admin, "admins-private", true).OK() // through role:moderators
}

func checkDirectMessageGroups(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	dm := func(from *apitest.Client, to ...string) *apitest.Response {
		list := `["` + to[0] + `"`
		for _, e := range to[1:] {
			list += `,"` + e + `"`
		}
		return from.Post("/api/v1/messages", apitest.Form{"type": "direct", "to": list + "]", "content": "hello"})
	}
	for _, name := range []string{"direct_message_initiator_group", "direct_message_permission_group"} {
		if got := realmSetting(t, alice, name); got != float64(sys["role:everyone"]) {
			t.Errorf("%s default %v", name, got)
		}
	}
	dm(bob, "alice@example.com").OK()
	admin.Patch("/api/v1/realm", apitest.Form{"direct_message_initiator_group": fmt.Sprintf(`{"new":%d}`, sys["role:administrators"])}).OK()
	if r := dm(alice, "guest@example.com").Fails(400, "BAD_REQUEST"); r.Msg() != "You do not have permission to initiate direct message conversations." {
		t.Errorf("a new conversation: %q", r.Msg())
	}
	dm(alice, "bob@example.com").OK()      // it exists
	dm(alice, "alice@example.com").OK()    // with oneself
	dm(alice, "echo-bot@example.com").OK() // with a bot
	dm(admin, "guest@example.com").OK()
	dm(admin, "alice@example.com").OK()
	admin.Patch("/api/v1/realm", apitest.Form{"direct_message_permission_group": fmt.Sprintf(`{"new":%d}`, sys["role:administrators"])}).OK()
	if r := dm(alice, "bob@example.com").Fails(400, "BAD_REQUEST"); r.Msg() != "This conversation does not include any users who can authorize it." {
		t.Errorf("without an administrator: %q", r.Msg())
	}
	dm(alice, "admin@example.com").OK()                                         // the administrator began it
	dm(alice, "admin@example.com", "bob@example.com").Fails(400, "BAD_REQUEST") // a new conversation
	dm(alice, "echo-bot@example.com").OK()
}
