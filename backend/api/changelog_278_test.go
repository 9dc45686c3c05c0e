package api_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

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
		{"level 283: can_manage_group on groups, its creator by default, set and changed, and enforced", checkCanManageGroup},
		{"level 290, 294: POST /user_groups/{id}/deactivate, deactivated groups, include_deactivated_groups; DELETE is gone", checkDeactivateGroup},
		{"level 291: can_delete_own_message_group, enforced", checkDeleteOwnMessageGroup},
		{"level 293: allow_private_data_export is a user setting", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"allow_private_data_export": {false, true}})
		}},
		{"level 295: GET /export/realm/consents", checkExportConsents},
		{"level 295: /api/v1/tus takes resumable uploads", checkTusUploads},
		{"level 297: saved snippets: GET, POST and DELETE /saved_snippets, saved_snippets events and register", checkSavedSnippets},
		{"level 300: GET /messages takes message_ids", checkMessagesByID},
		{"level 301: can_join_group on groups, set and changed, and enforced", checkCanJoinGroup},
		{"level 302: GET /users/{email} looks people up by the email others see", checkUserByEmail},
		{"level 303: deactivated people are in no group, and their (re)activation moves them out and back", checkDeactivatedNotMembers},
		{"level 305: can_add_members_group on groups, and can_manage_group applies to every group", checkCanAddMembersGroup},
		{"level 307: can_add_custom_emoji_group, enforced; add_custom_emoji_policy is gone", checkAddCustomEmojiGroup},
		{"level 308: can_leave_group on groups, set and changed, and enforced", checkCanLeaveGroup},
		{"level 309: group-setting values that are sets of people and groups are taken", checkAnonymousGroupSettings},
		{"level 310: can_move_messages_between_channels_group, enforced", checkMoveBetweenChannelsGroup},
		{"level 312: realm_export_consent events to administrators", checkExportConsentEvent},
		{"level 313: new_email on PATCH /users/{id}, for owners; PATCH /users/{email}", checkNewEmail},
		{"level 314: create_multiuse_invite_group and can_access_all_users_group are group-setting values", checkInviteGroupSetting},
		{"level 315: is_archived in stream and subscription objects; exclude_archived on GET /streams", checkIsArchived},
		{"level 311: subgroups on POST /user_groups/create; add_subgroups and delete_subgroups on POST /user_groups/{id}/members", checkSubgroupParams},
		{"level 292: creator_id and date_created on groups", checkGroupCreator},
		{"level 298: CANNOT_DEACTIVATE_GROUP_IN_USE with the objections", checkGroupInUse},
		{"level 299: can_create_groups and can_manage_all_groups, enforced", checkCreateAndManageAllGroups},
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

// createGroup has c create a group and returns its ID.
func createGroup(t *testing.T, c *apitest.Client, name string, members []int64, extra apitest.Form) int64 {
	t.Helper()
	f := apitest.Form{"name": name, "description": "", "members": members}
	for k, v := range extra {
		f[k] = v
	}
	return c.Post("/api/v1/user_groups/create", f).OK().Int("group_id")
}

// restrictGroupManagement leaves managing every group to administrators.
func restrictGroupManagement(t *testing.T, admin *apitest.Client, sys map[string]int64) {
	t.Helper()
	admin.Patch("/api/v1/realm", apitest.Form{"can_manage_all_groups": fmt.Sprintf(`{"new":%d}`, sys["role:administrators"])}).OK()
}

func checkCanManageGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	aliceID, bobID := userID(alice), userID(bob)
	mine := createGroup(t, alice, "alices", []int64{}, nil)
	if got := fmt.Sprint(groupNamed(t, bob, "alices")["can_manage_group"]); got != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", aliceID) {
		t.Errorf("a new group's can_manage_group %s, want its creator", got)
	}
	if got := groupNamed(t, bob, "role:members")["can_manage_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("a system group's can_manage_group %v", got)
	}
	theirs := createGroup(t, alice, "bobs", []int64{}, apitest.Form{"can_manage_group": fmt.Sprint(sys["role:moderators"])})
	restrictGroupManagement(t, admin, sys)
	path := func(id int64) string { return fmt.Sprintf("/api/v1/user_groups/%d", id) }
	bob.Patch(path(mine), apitest.Form{"description": "bob was here"}).Fails(400, "BAD_REQUEST")
	bob.Post(path(mine)+"/members", apitest.Form{"add": []int64{bobID}}).Fails(400, "BAD_REQUEST")
	alice.Patch(path(mine), apitest.Form{"description": "alice's own"}).OK()
	alice.Patch(path(theirs), apitest.Form{"description": "not alice's"}).Fails(400, "BAD_REQUEST")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	alice.Patch(path(mine), apitest.Form{"can_manage_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, bobID)}).OK()
	evs := q.next()
	if len(evs) != 1 || fmt.Sprint(evs[0]["data"]) != fmt.Sprintf("map[can_manage_group:map[direct_members:[%d] direct_subgroups:[]]]", bobID) {
		t.Errorf("events %v", evs)
	}
	bob.Post(path(mine)+"/members", apitest.Form{"add": []int64{bobID}}).OK()
	alice.Patch(path(mine), apitest.Form{"description": "no longer alice's"}).Fails(400, "BAD_REQUEST")
	admin.Patch(path(theirs), apitest.Form{"description": "administrators manage all"}).OK()
	for _, bad := range []int64{sys["role:everyone"], sys["role:internet"]} {
		alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "bad", "description": "", "members": []int64{}, "can_manage_group": bad}).Fails(400, "BAD_REQUEST")
	}
}

func checkDeactivateGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	restrictGroupManagement(t, admin, systemGroups(t, alice))
	id := createGroup(t, alice, "retiring", []int64{userID(bob)}, nil)
	path := fmt.Sprintf("/api/v1/user_groups/%d", id)
	if r := alice.Delete(path, nil); r.Status != 405 && r.Status != 404 {
		t.Errorf("DELETE a group: %s", r)
	}
	kinds := apitest.Form{"event_types": []string{"user_group"}, "fetch_event_types": []string{"realm_user_groups"}}
	plain := registerQueue(t, bob, kinds)
	capable := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}, "fetch_event_types": []string{"realm_user_groups"},
		"client_capabilities": `{"include_deactivated_groups":true}`})
	bob.Post(path+"/deactivate", nil).Fails(400, "BAD_REQUEST") // alice manages it
	alice.Post(path+"/deactivate", nil).OK()
	if evs := plain.next(); len(evs) != 1 || evs[0]["op"] != "remove" || evs[0]["group_id"] != float64(id) {
		t.Errorf("events without the capability %v", evs)
	}
	if evs := capable.next(); len(evs) != 1 || evs[0]["op"] != "update" || fmt.Sprint(evs[0]["data"]) != "map[deactivated:true]" {
		t.Errorf("events with the capability %v", evs)
	}
	alice.Patch(path, apitest.Form{"name": "retired"}).OK()
	if evs := plain.next(); len(evs) != 0 {
		t.Errorf("a deactivated group's rename reached a client without the capability: %v", evs)
	}
	if evs := capable.next(); len(evs) != 1 || fmt.Sprint(evs[0]["data"]) != "map[name:retired]" {
		t.Errorf("rename events with the capability %v", evs)
	}
	names := func(groups []any) []string {
		var out []string
		for _, g := range groups {
			if g.(map[string]any)["deactivated"] == true {
				out = append(out, g.(map[string]any)["name"].(string))
			}
		}
		return out
	}
	if got := names(alice.Get("/api/v1/user_groups", nil).OK().List("user_groups")); len(got) != 0 {
		t.Errorf("GET /user_groups lists deactivated groups: %v", got)
	}
	if got := names(alice.Get("/api/v1/user_groups", apitest.Form{"include_deactivated_groups": true}).OK().List("user_groups")); !slices.Equal(got, []string{"retired"}) {
		t.Errorf("GET /user_groups with include_deactivated_groups: %v", got)
	}
	registered := func(caps string) []string {
		return names(alice.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm_user_groups"}, "client_capabilities": caps}).OK().List("realm_user_groups"))
	}
	if got := registered(`{}`); len(got) != 0 {
		t.Errorf("register without the capability: %v", got)
	}
	if got := registered(`{"include_deactivated_groups":true}`); !slices.Equal(got, []string{"retired"}) {
		t.Errorf("register with the capability: %v", got)
	}
	alice.Post(path+"/deactivate", nil).Fails(400, "BAD_REQUEST")
}

func checkGroupCreator(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	before := time.Now().Unix()
	createGroup(t, alice, "dated", []int64{}, nil)
	g := groupNamed(t, alice, "dated")
	if g["creator_id"] != float64(userID(alice)) || g["date_created"].(float64) < float64(before-1) {
		t.Errorf("new group %v", g)
	}
	if sys := groupNamed(t, alice, "role:members"); sys["creator_id"] != nil || sys["date_created"] != nil {
		t.Errorf("system group %v", sys)
	}
}

func checkGroupInUse(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	used := createGroup(t, alice, "used", []int64{}, nil)
	user := createGroup(t, alice, "user", []int64{}, apitest.Form{"can_mention_group": used})
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_private_channel_group": fmt.Sprintf(`{"new":{"direct_members":[],"direct_subgroups":[%d,%d]}}`, used, user)}).OK()
	r := alice.Post(fmt.Sprintf("/api/v1/user_groups/%d/deactivate", used), nil).Fails(400, "CANNOT_DEACTIVATE_GROUP_IN_USE")
	want := fmt.Sprintf("[map[settings:[can_create_private_channel_group] type:realm] map[group_id:%d settings:[can_mention_group] type:user_group]]", user)
	if r.Msg() != "Cannot deactivate user group in use." || fmt.Sprint(r.Body["objections"]) != want {
		t.Errorf("answer %s", r.Raw)
	}
}

func checkCreateAndManageAllGroups(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	engineering := int64(groupNamed(t, bob, "engineering")["id"].(float64))
	createGroup(t, bob, "bobs-first", []int64{}, nil)
	checkNewRealmGroupSetting(t, s, "can_create_groups", "role:members", "role:moderators")
	bob.Post("/api/v1/user_groups/create", apitest.Form{"name": "bobs-second", "description": "", "members": []int64{}}).Fails(400, "BAD_REQUEST")
	createGroup(t, admin, "admins-group", []int64{}, nil)
	// Managing a group one did not create, and may not manage by the group's own setting.
	alice.Patch(fmt.Sprintf("/api/v1/user_groups/%d", engineering), apitest.Form{"description": "by a member"}).OK()
	checkNewRealmGroupSetting(t, s, "can_manage_all_groups", "role:members", "role:administrators")
	alice.Patch(fmt.Sprintf("/api/v1/user_groups/%d", engineering), apitest.Form{"description": "again"}).Fails(400, "BAD_REQUEST")
	admin.Patch(fmt.Sprintf("/api/v1/user_groups/%d", engineering), apitest.Form{"description": "by an administrator"}).OK()
}

func checkDeleteOwnMessageGroup(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	own := send(t, bob, streamMsg("general", "deleting", "bob's"))
	others := send(t, alice, streamMsg("general", "deleting", "alice's"))
	bob.Delete(msgPath(own, ""), nil).Fails(400, "BAD_REQUEST")
	checkNewRealmGroupSetting(t, s, "can_delete_own_message_group", "role:administrators", "role:members")
	bob.Delete(msgPath(others, ""), nil).Fails(400, "BAD_REQUEST")
	bob.Delete(msgPath(own, ""), nil).OK()
}

func checkExportConsents(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	bob.Get("/api/v1/export/realm/consents", nil).Fails(400, "UNAUTHORIZED_PRINCIPAL")
	bob.Patch("/api/v1/settings", apitest.Form{"allow_private_data_export": true}).OK()
	consents := map[float64]any{}
	for _, c := range admin.Get("/api/v1/export/realm/consents", nil).OK().List("export_consents") {
		consents[c.(map[string]any)["user_id"].(float64)] = c.(map[string]any)["consented"]
	}
	if consents[float64(userID(bob))] != true || consents[float64(userID(admin))] != false {
		t.Errorf("consents %v", consents)
	}
}

func checkTusUploads(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	tus := func(c *apitest.Client, method, path string, headers map[string]string, body string) *apitest.Response {
		c.Header = http.Header{"Tus-Resumable": {"1.0.0"}}
		for k, v := range headers {
			c.Header.Set(k, v)
		}
		defer func() { c.Header = nil }()
		return c.Do(method, path, headers["Content-Type"], strings.NewReader(body))
	}
	content := "a file sent in two parts"
	meta := "filename " + base64.StdEncoding.EncodeToString([]byte("two parts.txt"))
	created := tus(alice, "POST", "/api/v1/tus", map[string]string{"Upload-Length": fmt.Sprint(len(content)), "Upload-Metadata": meta}, "")
	location := created.Header.Get("Location")
	if created.Status != 201 || !strings.HasPrefix(location, "/api/v1/tus/") {
		t.Fatalf("creation: %s %v", created, created.Header)
	}
	patch := func(c *apitest.Client, offset int, part string) *apitest.Response {
		return tus(c, "PATCH", location, map[string]string{"Content-Type": "application/offset+octet-stream", "Upload-Offset": fmt.Sprint(offset)}, part)
	}
	if r := patch(alice, 0, content[:10]); r.Status != 204 || r.Header.Get("Upload-Offset") != "10" {
		t.Errorf("first part: %s %v", r, r.Header)
	}
	if r := tus(alice, "HEAD", location, nil, ""); r.Status != 200 || r.Header.Get("Upload-Offset") != "10" || r.Header.Get("Upload-Length") != fmt.Sprint(len(content)) {
		t.Errorf("HEAD: %s %v", r, r.Header)
	}
	if r := tus(bob, "GET", location, nil, ""); r.Status != 404 { // GET answers as HEAD, with a body
		t.Errorf("another's upload: %s", r)
	}
	if r := patch(alice, 3, content[3:]); r.Status != 409 {
		t.Errorf("a wrong offset: %s", r)
	}
	done := patch(alice, 10, content[10:])
	url := done.Str("url")
	if done.Status != 200 || done.Str("filename") != "two parts.txt" || !strings.HasPrefix(url, "/user_uploads/") {
		t.Fatalf("last part: %s", done)
	}
	if got := alice.Do("GET", url, "", nil); got.Status != 200 || string(got.Raw) != content {
		t.Errorf("the uploaded file: %s", got)
	}
	if r := tus(alice, "POST", "/api/v1/tus", map[string]string{"Upload-Length": fmt.Sprint(1 << 40)}, ""); r.Status != 400 {
		t.Errorf("too large: %s", r)
	}
}

func checkSavedSnippets(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"saved_snippets"}})
	if got := q.state.List("saved_snippets"); len(got) != 0 {
		t.Errorf("register's saved_snippets %v", got)
	}
	if r := alice.Post("/api/v1/saved_snippets", apitest.Form{"title": " ", "content": "x"}).Fails(400, "BAD_REQUEST"); r.Msg() != "Title cannot be empty." {
		t.Errorf("empty title: %q", r.Msg())
	}
	id := alice.Post("/api/v1/saved_snippets", apitest.Form{"title": "Welcome", "content": "Welcome to the team!"}).OK().Int("saved_snippet_id")
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "saved_snippets" || evs[0]["op"] != "add" {
		t.Fatalf("events %v", evs)
	}
	if sn := evs[0]["saved_snippet"].(map[string]any); sn["id"] != float64(id) || sn["title"] != "Welcome" || sn["content"] != "Welcome to the team!" || sn["date_created"] == nil {
		t.Errorf("added %v", sn)
	}
	if got := alice.Get("/api/v1/saved_snippets", nil).OK().List("saved_snippets"); len(got) != 1 || got[0].(map[string]any)["id"] != float64(id) {
		t.Errorf("GET %v", got)
	}
	if got := registerState(t, alice, "saved_snippets")["saved_snippets"].([]any); len(got) != 1 {
		t.Errorf("register %v", got)
	}
	if got := bob.Get("/api/v1/saved_snippets", nil).OK().List("saved_snippets"); len(got) != 0 {
		t.Errorf("bob sees alice's snippets: %v", got)
	}
	path := fmt.Sprintf("/api/v1/saved_snippets/%d", id)
	if r := bob.Delete(path, nil); r.Status != 404 {
		t.Errorf("bob deleting alice's snippet: %s", r)
	}
	alice.Delete(path, nil).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["op"] != "remove" || evs[0]["saved_snippet_id"] != float64(id) {
		t.Errorf("remove events %v", evs)
	}
	if r := alice.Delete(path, nil); r.Status != 404 || r.Msg() != "Saved snippet does not exist." {
		t.Errorf("deleted again: %s", r)
	}
}

func checkMessagesByID(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"closed"}]`, "invite_only": true}).OK()
	a, b := send(t, alice, streamMsg("general", "ids", "one")), send(t, alice, streamMsg("general", "ids", "two"))
	hidden := send(t, admin, streamMsg("closed", "ids", "secret"))
	c := send(t, alice, streamMsg("general", "ids", "three"))
	var got []int64
	for _, m := range alice.Get("/api/v1/messages", apitest.Form{"message_ids": []int64{c, a, hidden}}).OK().List("messages") {
		got = append(got, int64(m.(map[string]any)["id"].(float64)))
	}
	if !slices.Equal(got, []int64{a, c}) {
		t.Errorf("messages %v, want %v (not %d nor %d)", got, []int64{a, c}, b, hidden)
	}
}

func checkCanJoinGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	restrictGroupManagement(t, admin, sys)
	bobID := userID(bob)
	id := createGroup(t, alice, "joinable", []int64{}, nil)
	if got := groupNamed(t, bob, "joinable")["can_join_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("default can_join_group %v", got)
	}
	members := fmt.Sprintf("/api/v1/user_groups/%d/members", id)
	bob.Post(members, apitest.Form{"add": []int64{bobID}}).Fails(400, "BAD_REQUEST")
	alice.Patch(fmt.Sprintf("/api/v1/user_groups/%d", id), apitest.Form{"can_join_group": fmt.Sprintf(`{"new":%d}`, sys["role:members"])}).OK()
	bob.Post(members, apitest.Form{"add": []int64{userID(admin)}}).Fails(400, "BAD_REQUEST") // joining is for oneself
	bob.Post(members, apitest.Form{"add": []int64{bobID}}).OK()
	createGroup(t, alice, "open", []int64{}, apitest.Form{"can_join_group": sys["role:members"]})
	if got := groupNamed(t, bob, "open")["can_join_group"]; got != float64(sys["role:members"]) {
		t.Errorf("can_join_group set at creation %v", got)
	}
}

func checkUserByEmail(t *testing.T, s *apitest.Server) {
	alice, guest := s.Login("alice@example.com"), s.Login("guest@example.com")
	for _, c := range []*apitest.Client{alice, guest} {
		if u := c.Get("/api/v1/users/bob@example.com", nil).OK().Body["user"].(map[string]any); u["email"] != "bob@example.com" || u["user_id"] != float64(userID(s.Login("bob@example.com"))) {
			t.Errorf("%s looking up bob: %v", c.Email(), u)
		}
		if r := c.Get("/api/v1/users/nobody@example.com", nil); r.Status != 400 && r.Status != 404 {
			t.Errorf("an unknown email: %s", r)
		}
	}
}

func checkDeactivatedNotMembers(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	aliceID, bobID := userID(alice), userID(bob)
	team := createGroup(t, alice, "team", []int64{aliceID, bobID}, nil)
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_private_channel_group": fmt.Sprintf(`{"new":{"direct_members":[%d,%d],"direct_subgroups":[%d]}}`, aliceID, bobID, sys["role:moderators"])}).OK()
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"user_group"}})
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", bobID), nil).OK()
	left := map[float64]bool{}
	for _, e := range q.next() {
		if e["op"] == "remove_members" && fmt.Sprint(e["user_ids"]) == fmt.Sprintf("[%d]", bobID) {
			left[e["group_id"].(float64)] = true
		}
	}
	if !left[float64(team)] || !left[float64(sys["role:members"])] {
		t.Errorf("bob's deactivation: remove_members from %v", left)
	}
	members := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members", team), nil).OK().List("members")
	if fmt.Sprint(members) != fmt.Sprintf("[%d]", aliceID) {
		t.Errorf("team's members %v", members)
	}
	if alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members/%d", sys["role:members"], bobID), nil).OK().Body["is_user_group_member"] != false {
		t.Errorf("a deactivated person is in role:members")
	}
	if got := realmSetting(t, alice, "can_create_private_channel_group").(map[string]any); fmt.Sprint(got["direct_members"]) != fmt.Sprintf("[%d]", aliceID) {
		t.Errorf("the setting shows deactivated people: %v", got)
	}
	alice.Post(fmt.Sprintf("/api/v1/user_groups/%d/members", team), apitest.Form{"delete": []int64{bobID}}).Fails(400, "BAD_REQUEST")
	admin.Post(fmt.Sprintf("/api/v1/users/%d/reactivate", bobID), nil).OK()
	back := 0
	for _, e := range q.next() {
		if e["op"] == "add_members" && fmt.Sprint(e["user_ids"]) == fmt.Sprintf("[%d]", bobID) {
			back++
		}
	}
	if back < 2 {
		t.Errorf("bob's reactivation: %d add_members events", back)
	}
	if members := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members", team), nil).OK().List("members"); len(members) != 2 {
		t.Errorf("team's members after reactivation %v", members)
	}
}

func checkCanAddMembersGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	restrictGroupManagement(t, admin, sys)
	aliceID, bobID, adminID := userID(alice), userID(bob), userID(admin)
	id := createGroup(t, alice, "crew", []int64{}, nil)
	if got := fmt.Sprint(groupNamed(t, bob, "crew")["can_add_members_group"]); got != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", aliceID) {
		t.Errorf("default can_add_members_group %s", got)
	}
	members := fmt.Sprintf("/api/v1/user_groups/%d/members", id)
	bob.Post(members, apitest.Form{"add": []int64{adminID}}).Fails(400, "BAD_REQUEST")
	alice.Patch(fmt.Sprintf("/api/v1/user_groups/%d", id), apitest.Form{"can_add_members_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, bobID)}).OK()
	bob.Post(members, apitest.Form{"add": []int64{adminID}}).OK()
	bob.Post(members, apitest.Form{"delete": []int64{adminID}}).Fails(400, "BAD_REQUEST") // adding is not managing
	// can_manage_group lets a member manage a group whatever their role.
	managed := createGroup(t, admin, "managed", []int64{}, apitest.Form{"can_manage_group": fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, bobID)})
	bob.Post(fmt.Sprintf("/api/v1/user_groups/%d/members", managed), apitest.Form{"add": []int64{aliceID}}).OK()
	bob.Patch(fmt.Sprintf("/api/v1/user_groups/%d", managed), apitest.Form{"description": "bob manages this"}).OK()
}

func checkCanLeaveGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	restrictGroupManagement(t, admin, sys)
	bobID := userID(bob)
	id := createGroup(t, alice, "sticky", []int64{bobID, userID(alice)}, apitest.Form{"can_leave_group": sys["role:nobody"]})
	if got := groupNamed(t, bob, "sticky")["can_leave_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("can_leave_group set at creation %v", got)
	}
	if got := groupNamed(t, bob, "engineering")["can_leave_group"]; got != float64(sys["role:everyone"]) {
		t.Errorf("default can_leave_group %v", got)
	}
	members := fmt.Sprintf("/api/v1/user_groups/%d/members", id)
	bob.Post(members, apitest.Form{"delete": []int64{bobID}}).Fails(400, "BAD_REQUEST")
	alice.Patch(fmt.Sprintf("/api/v1/user_groups/%d", id), apitest.Form{"can_leave_group": fmt.Sprintf(`{"new":%d}`, sys["role:everyone"])}).OK()
	bob.Post(members, apitest.Form{"delete": []int64{userID(alice)}}).Fails(400, "BAD_REQUEST") // leaving is for oneself
	bob.Post(members, apitest.Form{"delete": []int64{bobID}}).OK()
}

func checkAnonymousGroupSettings(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	engineering := int64(groupNamed(t, alice, "engineering")["id"].(float64))
	set := fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[%d]}`, userID(bob), engineering)
	admin.Patch("/api/v1/realm", apitest.Form{"can_delete_any_message_group": `{"new":` + set + `}`}).OK()
	if got := fmt.Sprint(realmSetting(t, alice, "can_delete_any_message_group")); got != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[%d]]", userID(bob), engineering) {
		t.Errorf("can_delete_any_message_group %s", got)
	}
	id := send(t, alice, streamMsg("general", "sets", "deletable by bob"))
	bob.Delete(msgPath(id, ""), nil).OK()
	createGroup(t, alice, "set-managed", []int64{}, apitest.Form{"can_manage_group": set, "can_mention_group": set})
}

func checkSubgroupParams(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	sys := systemGroups(t, alice)
	engineering := int64(groupNamed(t, alice, "engineering")["id"].(float64))
	id := createGroup(t, alice, "parent", []int64{}, apitest.Form{"subgroups": []int64{engineering}})
	if got := groupNamed(t, alice, "parent")["direct_subgroup_ids"]; fmt.Sprint(got) != fmt.Sprintf("[%d]", engineering) {
		t.Errorf("subgroups at creation %v", got)
	}
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"user_group"}})
	alice.Post(fmt.Sprintf("/api/v1/user_groups/%d/members", id), apitest.Form{"add": []int64{userID(alice)},
		"add_subgroups": []int64{sys["role:moderators"]}, "delete_subgroups": []int64{engineering}}).OK()
	if got := types(q.next()); !slices.Equal(got, []string{"user_group:add_members", "user_group:add_subgroups", "user_group:remove_subgroups"}) {
		t.Errorf("events %v", got)
	}
	if got := groupNamed(t, alice, "parent")["direct_subgroup_ids"]; fmt.Sprint(got) != fmt.Sprintf("[%d]", sys["role:moderators"]) {
		t.Errorf("subgroups after the change %v", got)
	}
	alice.Post(fmt.Sprintf("/api/v1/user_groups/%d/members", id), apitest.Form{"add_subgroups": []int64{id}}).Fails(400, "BAD_REQUEST")
}

func checkAddCustomEmojiGroup(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	upload(bob, "bobs_first", "b.png", apitest.PNG(t, 8)).OK()
	checkNewRealmGroupSetting(t, s, "can_add_custom_emoji_group", "role:members", "role:moderators")
	upload(bob, "bobs_second", "b.png", apitest.PNG(t, 8)).Fails(400, "BAD_REQUEST")
	upload(admin, "admins", "a.png", apitest.PNG(t, 8)).OK()
	if _, ok := registerState(t, bob, "realm")["realm_add_custom_emoji_policy"]; ok {
		t.Errorf("register still has realm_add_custom_emoji_policy")
	}
	admin.Patch("/api/v1/realm", apitest.Form{"add_custom_emoji_policy": 1}).Fails(400, "BAD_REQUEST")
}

func checkMoveBetweenChannelsGroup(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"elsewhere"}]`, "principals": `["bob@example.com","admin@example.com"]`}).OK()
	elsewhere := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "elsewhere"}).OK().Int("stream_id")
	id := send(t, bob, streamMsg("general", "moving", "to go elsewhere"))
	bob.Patch(msgPath(id, ""), apitest.Form{"stream_id": elsewhere}).Fails(400, "BAD_REQUEST")
	checkNewRealmGroupSetting(t, s, "can_move_messages_between_channels_group", "role:administrators", "role:members")
	bob.Patch(msgPath(id, ""), apitest.Form{"stream_id": elsewhere}).OK()
	if got := bob.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["stream_id"]; got != float64(elsewhere) {
		t.Errorf("moved to %v", got)
	}
}

func checkExportConsentEvent(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	aq := registerQueue(t, admin, apitest.Form{"event_types": []string{"realm_export_consent"}})
	mq := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm_export_consent"}})
	bob.Patch("/api/v1/settings", apitest.Form{"allow_private_data_export": true}).OK()
	if evs := aq.next(); len(evs) != 1 || evs[0]["user_id"] != float64(userID(bob)) || evs[0]["consented"] != true {
		t.Errorf("the administrator's events %v", evs)
	}
	if evs := mq.next(); len(evs) != 0 {
		t.Errorf("a member's events %v", evs)
	}
}

func checkNewEmail(t *testing.T, _ *apitest.Server) {
	s := apitest.StartIn(t, t.TempDir(), false)
	owner := setUpOrganization(t, s)
	admin, adminID := addPerson(t, s, owner, "adam", 200)
	_, kimID := addPerson(t, s, owner, "kim", 400)
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"realm_user"}})
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", kimID), apitest.Form{"new_email": "kim@new.test"}).Fails(400, "UNAUTHORIZED_PRINCIPAL")
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", kimID), apitest.Form{"new_email": "not an address"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", kimID), apitest.Form{"new_email": "adam@acme.test"}).Fails(400, "BAD_REQUEST")
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", kimID), apitest.Form{"new_email": "kim@new.test"}).OK()
	var changed []string
	for _, e := range q.next() {
		for k, v := range e["person"].(map[string]any) {
			if k != "user_id" && v == "kim@new.test" {
				changed = append(changed, k)
			}
		}
	}
	if slices.Sort(changed); !slices.Equal(changed, []string{"delivery_email", "new_email"}) {
		t.Errorf("realm_user updates name %v", changed)
	}
	if got := owner.Get("/api/v1/users/kim@new.test", nil).OK().Body["user"].(map[string]any)["user_id"]; got != float64(kimID) {
		t.Errorf("kim by the new address: %v", got)
	}
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "kim@new.test", "password": "kim-pass"}).OK()
	// PATCH /users/{email}.
	owner.Patch("/api/v1/users/adam@acme.test", apitest.Form{"full_name": "Adam Admin"}).OK()
	if got := owner.Get(fmt.Sprintf("/api/v1/users/%d", adminID), nil).OK().Body["user"].(map[string]any)["full_name"]; got != "Adam Admin" {
		t.Errorf("renamed by email: %v", got)
	}
	owner.Patch("/api/v1/users/nobody@acme.test", apitest.Form{"full_name": "X"}).Fails(400, "BAD_REQUEST")
}

func checkInviteGroupSetting(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	alice.Post("/api/v1/invites/multiuse", nil).Fails(400, "BAD_REQUEST")
	set := fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, userID(alice))
	admin.Patch("/api/v1/realm", apitest.Form{"create_multiuse_invite_group": fmt.Sprintf(`{"new":%s,"old":%d}`, set, sys["role:administrators"])}).OK()
	if got := fmt.Sprint(realmSetting(t, bob, "create_multiuse_invite_group")); got != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", userID(alice)) {
		t.Errorf("create_multiuse_invite_group %s", got)
	}
	alice.Post("/api/v1/invites/multiuse", nil).OK()
	bob.Post("/api/v1/invites/multiuse", nil).Fails(400, "BAD_REQUEST")
	if rule := registerState(t, bob, "realm")["server_supported_permission_settings"].(map[string]any)["realm"].(map[string]any)["create_multiuse_invite_group"].(map[string]any); rule["require_system_group"] != false {
		t.Errorf("create_multiuse_invite_group's rule %v", rule)
	}
	// Lanchat's only value of can_access_all_users_group, in the same form.
	admin.Patch("/api/v1/realm", apitest.Form{"can_access_all_users_group": fmt.Sprintf(`{"new":%d}`, sys["role:members"])}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"can_access_all_users_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:everyone"], sys["role:members"])}).Fails(400, "EXPECTATION_MISMATCH")
}

func checkIsArchived(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream", "subscription"}, "fetch_event_types": []string{"stream", "subscription"},
		"client_capabilities": `{"archived_channels":true}`})
	for _, kind := range []string{"streams", "subscriptions"} {
		for _, st := range q.state.List(kind) {
			if st.(map[string]any)["is_archived"] != false {
				t.Errorf("register's %s: %v", kind, st)
			}
		}
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"fresh-stream"}]`}).OK()
	for _, e := range q.next() {
		if e["type"] == "stream" && e["op"] == "create" && e["streams"].([]any)[0].(map[string]any)["is_archived"] != false {
			t.Errorf("stream create %v", e)
		}
	}
	for _, st := range bob.Get("/api/v1/streams", apitest.Form{"exclude_archived": false}).OK().List("streams") {
		if st.(map[string]any)["is_archived"] != false {
			t.Errorf("GET /streams %v", st)
		}
	}
	id := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "fresh-stream"}).OK().Int("stream_id")
	if st := bob.Get(fmt.Sprintf("/api/v1/streams/%d", id), nil).OK().Body["stream"].(map[string]any); st["is_archived"] != false {
		t.Errorf("GET /streams/{id} %v", st)
	}
	bob.Get("/api/v1/streams", apitest.Form{"exclude_archived": "sometimes"}).Fails(400, "REQUEST_VARIABLE_INVALID")
}
