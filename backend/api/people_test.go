package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

func TestUserAdministration(t *testing.T) {
	s := apitest.Start(t)
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm_user"}})

	form := apitest.Form{"email": "carol@example.com", "password": "carol-pass", "full_name": "Carol Cole"}
	alice.Post("/api/v1/users", form).Fails(400, "BAD_REQUEST")
	id := admin.Post("/api/v1/users", form).OK().Int("user_id")
	admin.Post("/api/v1/users", form).Fails(400, "BAD_REQUEST") // the email is taken
	admin.Post("/api/v1/users", apitest.Form{"email": "bad", "password": "x", "full_name": "X"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	admin.Post("/api/v1/users", apitest.Form{"email": "d@example.com", "full_name": "D"}).Fails(400, "REQUEST_VARIABLE_MISSING")
	evs := q.next()
	if len(evs) != 1 || evs[0]["op"] != "add" || evs[0]["person"].(map[string]any)["email"] != "carol@example.com" {
		t.Fatalf("realm_user add %v", evs)
	}
	carol := s.As("carol@example.com", s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "carol@example.com", "password": "carol-pass"}).OK().Str("api_key"))
	carol.Get("/api/v1/users/me", nil).OK()

	path := fmt.Sprintf("/api/v1/users/%d", id)
	alice.Patch(path, apitest.Form{"full_name": "Hacked"}).Fails(400, "BAD_REQUEST")
	admin.Patch(path, apitest.Form{"full_name": "Carol C.", "role": 200}).OK()
	evs = q.next()
	if len(evs) != 2 || evs[0]["person"].(map[string]any)["full_name"] != "Carol C." || evs[1]["person"].(map[string]any)["role"] != float64(200) {
		t.Errorf("update events %v", evs)
	}
	admin.Patch(path, apitest.Form{"role": 42}).Fails(400, "REQUEST_VARIABLE_INVALID")
	admin.Patch("/api/v1/users/9999", apitest.Form{"full_name": "X"}).Fails(400, "BAD_REQUEST")

	// Deactivation stops the key, the queues and the sessions at once.
	cq := registerQueue(t, carol, nil)
	admin.Delete(path, nil).OK()
	carol.Get("/api/v1/users/me", nil).Fails(401, "USER_DEACTIVATED")
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "carol@example.com", "password": "carol-pass"}).Fails(401, "USER_DEACTIVATED")
	if evs := q.next(); len(evs) != 1 || evs[0]["person"].(map[string]any)["is_active"] != false {
		t.Errorf("deactivation event %v", evs)
	}
	admin.Delete(path, nil).Fails(400, "BAD_REQUEST")
	members := admin.Get("/api/v1/users", nil).OK().List("members")
	if !slices.ContainsFunc(members, func(m any) bool {
		u := m.(map[string]any)
		return u["email"] == "carol@example.com" && u["is_active"] == false
	}) {
		t.Errorf("deactivated user not listed as inactive")
	}
	admin.Post(path+"/reactivate", nil).OK()
	carol.Get("/api/v1/users/me", nil).OK()
	// Her queue died with the deactivation.
	carol.Get("/api/v1/events", apitest.Form{"queue_id": cq.id, "dont_block": true}).Fails(400, "BAD_EVENT_QUEUE_ID")

	// The last administrator stays one, and stays active.
	adminPath := fmt.Sprintf("/api/v1/users/%d", admin.Get("/api/v1/users/me", nil).OK().Int("user_id"))
	admin.Delete(path, nil).OK() // carol, the other administrator, is deactivated...
	if msg := admin.Patch(adminPath, apitest.Form{"role": 400}).Fails(400, "BAD_REQUEST").Msg(); msg != "The last organization administrator cannot be demoted." {
		t.Errorf("demoting the last administrator: %q", msg)
	}
	if msg := admin.Delete(adminPath, nil).Fails(400, "BAD_REQUEST").Msg(); msg != "Cannot deactivate the only organization administrator." {
		t.Errorf("deactivating the last administrator: %q", msg)
	}
	admin.Post(path+"/reactivate", nil).OK() // ...and back, so the admin may step down.
	admin.Patch(adminPath, apitest.Form{"role": 400}).OK()
	carol.Patch(adminPath, apitest.Form{"role": 200}).OK()
}

// TestDeactivationStopsTheUsersBots: a departed person's integrations stop
// with them, and coming back does not restart them.
func TestDeactivationStopsTheUsersBots(t *testing.T) {
	s := apitest.Start(t)
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	res := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Alice Hook", "short_name": "ahook", "bot_type": 2}).OK()
	bot := s.As(res.Str("email"), res.Str("api_key"))
	botID := res.Int("user_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_user"}})
	q.next() // the bot's creation

	path := fmt.Sprintf("/api/v1/users/%d", aliceID)
	bob.Post(path+"/reactivate", nil).Fails(400, "BAD_REQUEST")
	bob.Delete(path, nil).Fails(400, "BAD_REQUEST")
	send(t, bot, streamMsg("general", "hooks", "an incoming-webhook bot may send")) // and nothing else
	admin.Delete(path, nil).OK()
	bot.Get("/api/v1/users/me", nil).Fails(401, "USER_DEACTIVATED")
	var off []float64
	for _, e := range q.next() {
		if p := e["person"].(map[string]any); p["is_active"] == false {
			off = append(off, p["user_id"].(float64))
		}
	}
	if !slices.Equal(off, []float64{float64(aliceID), float64(botID)}) {
		t.Errorf("deactivation events for %v", off)
	}
	bob.Post(path+"/reactivate", nil).Fails(400, "BAD_REQUEST")
	admin.Post(path+"/reactivate", nil).OK()
	alice.Get("/api/v1/users/me", nil).OK()
	bot.Get("/api/v1/users/me", nil).Fails(401, "USER_DEACTIVATED")
}

func TestOwnSettings(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	bob.Patch("/api/v1/settings", apitest.Form{"full_name": "Robert Brown"}).OK()
	if bob.Get("/api/v1/users/me", nil).OK().Str("full_name") != "Robert Brown" {
		t.Error("name not changed")
	}
	bob.Patch("/api/v1/settings", apitest.Form{"new_password": "new-secret", "old_password": "wrong"}).Fails(400, "BAD_REQUEST")
	bob.Patch("/api/v1/settings", apitest.Form{"new_password": "x", "old_password": "lanchat-dev"}).Fails(400, "BAD_REQUEST")
	bob.Patch("/api/v1/settings", apitest.Form{"new_password": "new-secret", "old_password": "lanchat-dev"}).OK()
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "new-secret"}).OK()
	bob.Patch("/api/v1/settings", apitest.Form{"full_name": "Bad*Name"}).Fails(400, "BAD_REQUEST")
	// Nothing to change is a success, as in Zulip (level 78's ignored parameters).
	bob.Patch("/api/v1/settings", nil).OK()

	// Bots are refused, as in Zulip: a bot's name is its owner's to change.
	echo := s.Login("echo-bot@example.com")
	if msg := echo.Patch("/api/v1/settings", apitest.Form{"full_name": "Not An Echo"}).Fails(400, "BAD_REQUEST").Msg(); msg != "This endpoint does not accept bot requests." {
		t.Errorf("bot renaming itself: %q", msg)
	}
	if name := echo.Get("/api/v1/users/me", nil).OK().Str("full_name"); name != "Echo Bot" {
		t.Errorf("the bot renamed itself to %q", name)
	}
}

func TestUserGroupManagement(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	aliceID, bobID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id"), bob.Get("/api/v1/users/me", nil).OK().Int("user_id")

	alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "design", "description": "Pixels", "members": []int64{aliceID}}).OK()
	id := int64(groupNamed(t, alice, "design")["id"].(float64))
	path := fmt.Sprintf("/api/v1/user_groups/%d", id)
	refusals := []struct {
		who          *apitest.Client
		method, path string
		form         apitest.Form
		msg          string
	}{
		{alice, "POST", "/api/v1/user_groups/create", apitest.Form{"name": "Design", "members": []int64{}}, "User group 'Design' already exists."},
		{alice, "POST", "/api/v1/user_groups/create", apitest.Form{"name": "x", "members": []int64{9999}}, "Invalid user ID: 9999"},
		{alice, "POST", "/api/v1/user_groups/create", apitest.Form{"name": " ", "members": []int64{}}, "User group name can't be empty!"},
		{guest, "POST", "/api/v1/user_groups/create", apitest.Form{"name": "g", "members": []int64{}}, "Insufficient permission"},
		{guest, "PATCH", path, apitest.Form{"name": "guests rule"}, "Insufficient permission"},
		{guest, "POST", path + "/members", apitest.Form{"add": []int64{bobID}}, "Insufficient permission"},
		{alice, "PATCH", "/api/v1/user_groups/9999", apitest.Form{"name": "y"}, "Invalid user group"},
		{alice, "PATCH", path, apitest.Form{"name": "engineering"}, "User group 'engineering' already exists."},
		{alice, "POST", path + "/members", apitest.Form{"add": []int64{4242}}, "Invalid user ID: 4242"},
		{alice, "POST", path + "/members", apitest.Form{"delete": []int64{bobID}}, fmt.Sprintf("There is no member '%d' in this user group", bobID)},
		{alice, "GET", "/api/v1/user_groups/9999/members", nil, "Invalid user group"},
	}
	for _, r := range refusals {
		res := probe{name: r.msg, method: r.method, path: r.path, form: r.form}.send(r.who)
		if res.Status != 400 || res.Body["code"] != "BAD_REQUEST" || res.Msg() != r.msg {
			t.Errorf("%s %s: %d %s, want %q", r.method, r.path, res.Status, res.Raw, r.msg)
		}
	}
	alice.Patch(path, apitest.Form{"description": "Pixels and type"}).OK()
	alice.Post(path+"/members", apitest.Form{"add": []int64{bobID}}).OK()
	alice.Post(path+"/members", apitest.Form{"add": []int64{bobID}}).Fails(400, "BAD_REQUEST")
	alice.Post(path+"/members", apitest.Form{"delete": []int64{aliceID}}).OK()
	if members := alice.Get(path+"/members", nil).OK().List("members"); len(members) != 1 || members[0] != float64(bobID) {
		t.Errorf("members %v", members)
	}
	if got := types(q.next()); !slices.Equal(got, []string{"user_group:add", "user_group:update", "user_group:add_members", "user_group:remove_members"}) {
		t.Errorf("events %v", got)
	}
	// A group mention reaches the new members.
	msg := send(t, alice, streamMsg("general", "g", "@*design* review please"))
	flags := bob.Get(msgPath(msg, ""), nil).OK().Body["message"].(map[string]any)["flags"].([]any)
	if !slices.Contains(flags, any("mentioned")) {
		t.Errorf("bob's flags %v", flags)
	}
	guest.Post(path+"/deactivate", nil).Fails(400, "BAD_REQUEST")
	alice.Post(path+"/deactivate", nil).OK()
	alice.Post(path+"/deactivate", nil).Fails(400, "BAD_REQUEST")
	if got := types(q.next()); !slices.Equal(got, []string{"user_group:remove"}) {
		t.Errorf("remove event %v", got)
	}
}

// setUpOrganization runs first-run setup on a fresh server and returns its
// owner.
func setUpOrganization(t *testing.T, s *apitest.Server) *apitest.Client {
	t.Helper()
	res := s.Anonymous().Post("/accounts/setup", apitest.Form{"token": s.SetupToken(), "realm_name": "Acme",
		"full_name": "Olive Owner", "email": "olive@acme.test", "password": "olive-pass"}).OK()
	return s.As("olive@acme.test", res.Str("api_key"))
}

// addPerson has owner create an account with role and returns it.
func addPerson(t *testing.T, s *apitest.Server, owner *apitest.Client, name string, role int) (*apitest.Client, int64) {
	t.Helper()
	email := name + "@acme.test"
	id := owner.Post("/api/v1/users", apitest.Form{"email": email, "password": name + "-pass", "full_name": name}).OK().Int("user_id")
	if role != 400 {
		owner.Patch(fmt.Sprintf("/api/v1/users/%d", id), apitest.Form{"role": role}).OK()
	}
	key := s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": email, "password": name + "-pass"}).OK().Str("api_key")
	return s.As(email, key), id
}

// TestOnlyOwnersManageOwners: as in Zulip, only an owner grants, changes
// or removes the owner role or deactivates an owner, and the last owner
// stays one and stays active.
func TestOnlyOwnersManageOwners(t *testing.T) {
	s := apitest.StartIn(t, t.TempDir(), false)
	owner := setUpOrganization(t, s)
	ownerID := owner.Get("/api/v1/users/me", nil).OK().Int("user_id")
	admin, adminID := addPerson(t, s, owner, "ada", 200)
	_, memberID := addPerson(t, s, owner, "max", 400)
	user := func(id int64) string { return fmt.Sprintf("/api/v1/users/%d", id) }

	for _, tc := range []struct {
		name string
		res  *apitest.Response
	}{
		{"an administrator demotes the owner", admin.Patch(user(ownerID), apitest.Form{"role": 200})},
		{"an administrator makes itself owner", admin.Patch(user(adminID), apitest.Form{"role": 100})},
		{"an administrator makes a member owner", admin.Patch(user(memberID), apitest.Form{"role": 100})},
		{"an administrator deactivates the owner", admin.Delete(user(ownerID), nil)},
	} {
		if tc.res.Fails(400, "UNAUTHORIZED_PRINCIPAL"); tc.res.Msg() != "Must be an organization owner" {
			t.Errorf("%s: %q", tc.name, tc.res.Msg())
		}
	}
	if me := owner.Get("/api/v1/users/me", nil).OK(); me.Int("role") != 100 || me.Body["is_active"] != true {
		t.Errorf("the owner after refused changes: %s", me)
	}
	if msg := owner.Patch(user(ownerID), apitest.Form{"role": 200}).Fails(400, "BAD_REQUEST").Msg(); msg != "The owner permission cannot be removed from the only organization owner." {
		t.Errorf("demoting the last owner: %q", msg)
	}
	if msg := owner.Delete(user(ownerID), nil).Fails(400, "BAD_REQUEST").Msg(); msg != "Cannot deactivate the only organization owner" {
		t.Errorf("deactivating the last owner: %q", msg)
	}
	// Administrators still manage everyone else.
	admin.Patch(user(memberID), apitest.Form{"role": 600}).OK()
	// An owner makes another, who may then let the first step down.
	owner.Patch(user(memberID), apitest.Form{"role": 100}).OK()
	admin.Delete(user(memberID), nil).Fails(400, "UNAUTHORIZED_PRINCIPAL")
	owner.Patch(user(ownerID), apitest.Form{"role": 400}).OK()
}

// TestDemotionEndsPublicQueues: a member demoted to guest loses the event
// queue opened as a member with all_public_streams (it would go on hearing
// every public stream), and cannot open such a queue again; the queue they
// keep hears nothing more of the public streams a guest does not see.
func TestDemotionEndsPublicQueues(t *testing.T) {
	s := apitest.Start(t)
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"town-square"}]`}).OK()
	public := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "all_public_streams": true})
	kept := registerQueue(t, bob, apitest.Form{"event_types": []string{"message", "stream"}})
	send(t, admin, streamMsg("town-square", "before", "bob hears this"))
	if evs := public.next(); len(evs) != 1 || evs[0]["type"] != "message" {
		t.Fatalf("a member's all_public_streams queue: %v", evs)
	}
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", bobID), apitest.Form{"role": 600}).OK()
	send(t, admin, streamMsg("town-square", "after", "a guest must not hear this"))
	bob.Get("/api/v1/events", apitest.Form{"queue_id": public.id, "last_event_id": public.lastID, "dont_block": true}).Fails(400, "BAD_EVENT_QUEUE_ID")
	bob.Post("/api/v1/register", apitest.Form{"all_public_streams": true}).Fails(400, "BAD_REQUEST")
	if evs := kept.next(); !slices.Equal(types(evs), []string{"stream:delete"}) {
		t.Errorf("the kept queue after the demotion: %v", evs)
	}
}

// An administrator issues a person a password (imported people have
// none): the old one and the person's sessions end; only an owner may for
// an administrator or an owner, and bots have none.
func TestIssuePassword(t *testing.T) {
	s := apitest.StartIn(t, t.TempDir(), false)
	b, owner := newOwner(t, s)
	owner.Post("/api/v1/users", apitest.Form{"email": "ada@acme.test", "password": "ada-pass-1", "full_name": "Ada Admin"}).OK()
	bob := owner.Post("/api/v1/users", apitest.Form{"email": "bob@acme.test", "password": "bob-pass-1", "full_name": "Bob Member"}).OK().Int("user_id")
	ada := s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "ada@acme.test", "password": "ada-pass-1"}).OK()
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", ada.Int("user_id")), apitest.Form{"role": 200}).OK()
	admin := s.As("ada@acme.test", ada.Str("api_key"))
	bot := owner.Post("/api/v1/bots", apitest.Form{"full_name": "Helper", "short_name": "helper"}).OK().Int("user_id")
	me := owner.Get("/api/v1/users/me", nil).OK().Int("user_id")
	member := s.As("bob@acme.test", s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@acme.test", "password": "bob-pass-1"}).OK().Str("api_key"))
	// Another administrator and a moderator: one administrator issuing
	// another's password would sign in as them.
	cy := owner.Post("/api/v1/users", apitest.Form{"email": "cy@acme.test", "password": "cy-pass-1", "full_name": "Cy Admin"}).OK().Int("user_id")
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", cy), apitest.Form{"role": 200}).OK()
	mo := owner.Post("/api/v1/users", apitest.Form{"email": "mo@acme.test", "password": "mo-pass-1", "full_name": "Mo Moderator"}).OK().Int("user_id")
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", mo), apitest.Form{"role": 300}).OK()

	for _, tc := range []struct {
		name   string
		as     *apitest.Client
		target int64
		code   string
	}{
		{"a member may not", member, ada.Int("user_id"), "BAD_REQUEST"},
		{"an administrator may not for an owner", admin, me, "UNAUTHORIZED_PRINCIPAL"},
		{"an administrator may not for another administrator", admin, cy, "UNAUTHORIZED_PRINCIPAL"},
		{"a bot has no password", admin, bot, "BAD_REQUEST"},
		{"no such user", admin, 9999, "BAD_REQUEST"},
	} {
		if res := tc.as.Post(fmt.Sprintf("/api/v1/users/%d/password", tc.target), nil); res.Status != 400 || res.Body["code"] != tc.code {
			t.Errorf("%s: %s", tc.name, res)
		}
	}

	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "cy@acme.test", "password": "cy-pass-1"}).OK()
	admin.Post(fmt.Sprintf("/api/v1/users/%d/password", mo), nil).OK()
	owner.Post(fmt.Sprintf("/api/v1/users/%d/password", cy), nil).OK()
	password := admin.Post(fmt.Sprintf("/api/v1/users/%d/password", bob), nil).OK().Str("password")
	if len(password) < 16 {
		t.Errorf("issued password %q", password)
	}
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@acme.test", "password": "bob-pass-1"}).Fails(401, "AUTHENTICATION_FAILED")
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@acme.test", "password": password}).OK()
	// A bot's key is a credential too: given the administrator role, only
	// an owner replaces it (its owner, an owner, here does).
	owner.Patch(fmt.Sprintf("/api/v1/users/%d", bot), apitest.Form{"role": 200}).OK()
	admin.Post(fmt.Sprintf("/api/v1/bots/%d/api_key/regenerate", bot), nil).Fails(400, "UNAUTHORIZED_PRINCIPAL")
	owner.Post(fmt.Sprintf("/api/v1/bots/%d/api_key/regenerate", bot), nil).OK()
	// The owner's own, issued by the owner, ends the owner's browser session.
	owner.Post(fmt.Sprintf("/api/v1/users/%d/password", me), nil).OK()
	if status, _, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 401 {
		t.Errorf("the owner's session outlived a new password: %d", status)
	}
}
