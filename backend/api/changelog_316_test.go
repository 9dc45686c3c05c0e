package api_test

import (
	"fmt"
	"testing"

	"lanchat/backend/apitest"
)

// changelog316Cases are the rows for Zulip's changelog entries at levels
// 316–345, on the climb from 9.0 (277) to 10.0 (371).
func changelog316Cases() []changelogCase {
	return []changelogCase{
		{"level 316: can_move_messages_between_topics_group replaces edit_topic_policy, enforced", checkMoveBetweenTopicsGroup},
	}
}

// checkRealmGroupSettingSet checks a realm group setting's default (a
// system group), that only administrators change it (as {"new", "old"}),
// and the update_dict event that tells everyone.
func checkRealmGroupSettingSet(t *testing.T, s *apitest.Server, name, def, changed string) {
	t.Helper()
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, bob)
	if got := realmSetting(t, bob, name); got != float64(sys[def]) {
		t.Errorf("realm_%s default %v, want %s", name, got, def)
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
	change := fmt.Sprintf(`{"new":%d,"old":%d}`, sys[changed], sys[def])
	bob.Patch("/api/v1/realm", apitest.Form{name: change}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{name: change}).OK()
	checkRealmUpdateDict(t, q, name, sys[changed])
}

func checkMoveBetweenTopicsGroup(t *testing.T, s *apitest.Server) {
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	if _, ok := registerState(t, bob, "realm")["realm_edit_topic_policy"]; ok {
		t.Error("register still has realm_edit_topic_policy")
	}
	id := send(t, alice, streamMsg("general", "plans", "alice's"))
	rename := func(c *apitest.Client, topic string) *apitest.Response {
		return c.Patch(msgPath(id, ""), apitest.Form{"topic": topic, "propagate_mode": "change_one"})
	}
	rename(bob, "bob's idea").Fails(400, "BAD_REQUEST")
	rename(alice, "alice's own").OK() // the sender may
	checkRealmGroupSettingSet(t, s, "can_move_messages_between_topics_group", "role:administrators", "role:members")
	rename(bob, "bob's idea").OK()
	rename(guest, "the guest's idea").Fails(400, "BAD_REQUEST")
}
