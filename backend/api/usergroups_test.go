package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

// TestSystemGroupsFollowRoles: the system groups' members are the people
// of their roles, nested from owners up; they cannot be edited, and a role
// change moves the person between them with remove_members and
// add_members events.
func TestSystemGroupsFollowRoles(t *testing.T) {
	s := apitest.Start(t)
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	aliceID, adminID := userID(alice), userID(admin)
	member := func(group string, id int64, direct bool) bool {
		return alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members/%d", sys[group], id), apitest.Form{"direct_member_only": direct}).OK().Body["is_user_group_member"] == true
	}
	for _, c := range []struct {
		group       string
		id          int64
		direct, all bool
	}{
		{"role:members", aliceID, true, true},
		{"role:fullmembers", aliceID, true, true},
		{"role:everyone", aliceID, false, true},
		{"role:internet", aliceID, false, true},
		{"role:moderators", aliceID, false, false},
		{"role:administrators", adminID, true, true},
		{"role:members", adminID, false, true},
		{"role:owners", adminID, false, false},
		{"role:nobody", adminID, false, false},
	} {
		if member(c.group, c.id, true) != c.direct || member(c.group, c.id, false) != c.all {
			t.Errorf("user %d in %s: direct %v, at all %v", c.id, c.group, c.direct, c.all)
		}
	}
	everyone := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members", sys["role:everyone"]), nil).OK().List("members")
	direct := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members", sys["role:everyone"]), apitest.Form{"direct_member_only": true}).OK().List("members")
	if !slices.Contains(everyone, any(float64(adminID))) || len(direct) != 1 {
		t.Errorf("role:everyone's members %v, direct %v", everyone, direct)
	}
	subgroups := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/subgroups", sys["role:members"]), nil).OK().List("subgroups")
	if len(subgroups) != 4 || !slices.Contains(subgroups, any(float64(sys["role:owners"]))) {
		t.Errorf("role:members's subgroups %v", subgroups)
	}
	path := fmt.Sprintf("/api/v1/user_groups/%d", sys["role:members"])
	admin.Patch(path, apitest.Form{"description": "mine"}).Fails(400, "BAD_REQUEST")
	admin.Post(path+"/members", apitest.Form{"add": []int64{adminID}}).Fails(400, "BAD_REQUEST")
	admin.Post(path+"/deactivate", nil).Fails(400, "BAD_REQUEST")
	if r := alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "role:mine", "members": []int64{}}).Fails(400, "BAD_REQUEST"); r.Msg() != "User group name cannot start with 'role:'." {
		t.Errorf("a reserved name: %q", r.Msg())
	}

	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", aliceID), apitest.Form{"role": 300}).OK()
	var moves []string
	for _, e := range q.next() {
		for name, id := range sys {
			if e["group_id"] == float64(id) && fmt.Sprint(e["user_ids"]) == fmt.Sprint([]any{float64(aliceID)}) {
				moves = append(moves, e["op"].(string)+" "+name)
			}
		}
	}
	want := []string{"remove_members role:fullmembers", "remove_members role:members", "add_members role:moderators"}
	slices.Sort(moves)
	slices.Sort(want)
	if !slices.Equal(moves, want) {
		t.Errorf("events of the role change %v, want %v", moves, want)
	}
	if !member("role:moderators", aliceID, true) || member("role:members", aliceID, true) || !member("role:members", aliceID, false) {
		t.Errorf("alice as a moderator: groups did not follow")
	}
	newcomer := admin.Post("/api/v1/users", apitest.Form{"email": "newcomer@example.com", "password": "newcomer-1", "full_name": "New Comer"}).OK().Int("user_id")
	var joined []float64
	for _, e := range q.next() {
		if e["type"] == "user_group" && e["op"] == "add_members" && fmt.Sprint(e["user_ids"]) == fmt.Sprint([]any{float64(newcomer)}) {
			joined = append(joined, e["group_id"].(float64))
		}
	}
	if len(joined) != 2 || !slices.Contains(joined, float64(sys["role:members"])) {
		t.Errorf("a newcomer joined groups %v", joined)
	}
}

// TestSubgroups: a group's members include its subgroups' at any depth,
// for listing, checking and mentions; subgroups change by POST with events,
// and never make a cycle.
func TestSubgroups(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	bobID := userID(bob)
	create := func(name string, members ...int64) int64 {
		alice.Post("/api/v1/user_groups/create", apitest.Form{"name": name, "description": "", "members": append([]int64{}, members...)}).OK()
		return int64(groupNamed(t, alice, name)["id"].(float64))
	}
	outer, inner := create("outer"), create("inner", bobID)
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	subgroups := func(id int64) string { return fmt.Sprintf("/api/v1/user_groups/%d/subgroups", id) }
	alice.Post(subgroups(outer), apitest.Form{"add": []int64{inner, sys["role:moderators"]}}).OK()
	added := []float64{float64(sys["role:moderators"]), float64(inner)}
	slices.Sort(added)
	if evs := q.next(); len(evs) != 1 || evs[0]["op"] != "add_subgroups" || fmt.Sprint(evs[0]["direct_subgroup_ids"]) != fmt.Sprint(added) {
		t.Errorf("events %v", evs)
	}
	for _, bad := range []struct {
		id   int64
		form apitest.Form
		msg  string
	}{
		{outer, apitest.Form{"add": []int64{inner}}, fmt.Sprintf("User group %d is already a subgroup of this group.", inner)},
		{inner, apitest.Form{"add": []int64{outer}}, fmt.Sprintf("User group %d is already a subgroup of one of the passed subgroups.", inner)},
		{outer, apitest.Form{"add": []int64{outer}}, fmt.Sprintf("User group %d is already a subgroup of one of the passed subgroups.", outer)},
		{outer, apitest.Form{"delete": []int64{sys["role:owners"]}}, fmt.Sprintf("User group %d is not a subgroup of this group.", sys["role:owners"])},
		{outer, apitest.Form{"add": []int64{9999}}, "Invalid user group ID: 9999"},
	} {
		if r := alice.Post(subgroups(bad.id), bad.form).Fails(400, "BAD_REQUEST"); r.Msg() != bad.msg {
			t.Errorf("%v: %q, want %q", bad.form, r.Msg(), bad.msg)
		}
	}
	members := alice.Get(fmt.Sprintf("/api/v1/user_groups/%d/members", outer), nil).OK().List("members")
	if !slices.Contains(members, any(float64(bobID))) || !slices.Contains(members, any(float64(userID(s.Login("admin@example.com"))))) {
		t.Errorf("outer's members %v", members)
	}
	if all := alice.Get(subgroups(outer), nil).OK().List("subgroups"); len(all) != 4 { // inner, moderators, administrators, owners
		t.Errorf("outer's subgroups %v", all)
	}
	msg := send(t, alice, streamMsg("general", "g", "@*outer* look"))
	if flags := bob.Get(msgPath(msg, ""), nil).OK().Body["message"].(map[string]any)["flags"].([]any); !slices.Contains(flags, any("mentioned")) {
		t.Errorf("bob, in a subgroup, was not mentioned: %v", flags)
	}
	alice.Post(subgroups(outer), apitest.Form{"delete": []int64{inner}}).OK()
	alice.Post(fmt.Sprintf("/api/v1/user_groups/%d/deactivate", inner), nil).OK()
	if direct := alice.Get(subgroups(outer), apitest.Form{"direct_subgroup_only": true}).OK().List("subgroups"); fmt.Sprint(direct) != fmt.Sprint([]any{float64(sys["role:moderators"])}) {
		t.Errorf("outer's subgroups after removing inner %v", direct)
	}
	alice.Post(subgroups(outer), apitest.Form{"delete": []int64{sys["role:moderators"]}}).OK()
	// Deactivating inner is its removal to a client without include_deactivated_groups.
	if got := types(q.next()); !slices.Equal(got, []string{"user_group:remove_subgroups", "user_group:remove", "user_group:remove_subgroups"}) {
		t.Errorf("events %v", got)
	}
}
