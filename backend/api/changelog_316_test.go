package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// changelog316Cases are the rows for Zulip's changelog entries at levels
// 316–345, on the climb from 9.0 (277) to 10.0 (371).
func changelog316Cases() []changelogCase {
	return []changelogCase{
		{"level 316: can_move_messages_between_topics_group replaces edit_topic_policy, enforced", checkMoveBetweenTopicsGroup},
		{"level 317: POST /user_groups/create answers group_id", checkCreateGroupAnswersID},
		{"level 207 and 318: realm_incoming_webhook_bots with display_name, all_event_types and config_options", checkIncomingWebhookBots},
		{"level 319: #**channel>topic@id** renders as a message-link", checkMessageLink},
		{"level 320: can_remove_subscribers_group takes any group-setting value, and {new, old} on PATCH", checkRemoveSubscribersAnyGroup},
		{"level 321: can_invite_users_group replaces invite_to_realm_policy, enforced", checkInviteUsersGroup},
		{"level 322: group_ids on invitations: the invitee joins the groups", checkInviteGroupIDs},
		{"level 323: is_recently_active in stream objects", checkRecentlyActive},
		{"level 324: can_remove_members_group on user groups, set at creation and by PATCH, enforced", checkRemoveMembersGroup},
		{"level 325: can_administer_channel_group on streams, the creator's by default, enforced", checkAdministerChannelGroup},
		{"level 326: no allow_owners_group or id_field_name in server_supported_permission_settings; role:owners allowed", checkPermissionSettingsWithoutOwnersField},
		{"level 327: a 1:1 direct message has one recipient_id for both sides", checkDirectRecipientID},
		{"level 328: reactions in message objects carry user_id, no user object", checkReactionsWithoutUser},
		{"level 329: web_suggest_update_timezone is a user setting", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_suggest_update_timezone": {true, false}})
		}},
		{"level 330: default channels and default channel groups as channel IDs, in register and events", checkDefaultStreamIDs},
		{"level 331: moderation_request_channel_id is a realm setting, a private channel or -1", checkModerationRequestChannel},
		{"level 332: server_min_deactivated_realm_deletion_days and server_max_deactivated_realm_deletion_days", checkRegisterFields("realm", map[string]any{
			"server_min_deactivated_realm_deletion_days": 14, "server_max_deactivated_realm_deletion_days": nil,
		})},
		{"level 333: can_send_message_group on streams replaces stream_post_policy, enforced; system groups can be silently mentioned", checkSendMessageGroup},
		{"level 334: realm_empty_topic_display_name, the empty_topic_name capability and allow_empty_topic_name (topics are never empty here)", checkEmptyTopicName},
		{"level 335: GET /streams/{id}/email_address takes sender_id: oneself or one's bot", checkEmailAddressSender},
		{"level 338: password_max_length, and a longer password is refused", checkPasswordMaxLength},
		{"level 339: reaction events carry the user object again", checkReactionEventUser},
		{"level 340: a deactivated group's description and permission settings can be changed, and those settings still apply", checkChangeDeactivatedGroup},
		{"level 341: can_add_subscribers_group replaces invite_to_stream_policy, enforced", checkRealmAddSubscribersGroup},
		{"level 342: can_add_subscribers_group on streams, enforced; invitations may always include the default channels", checkStreamAddSubscribersGroup},
		{"level 343: stream delete events carry stream_ids", checkStreamDeleteIDs},
		{"level 344: can_create_bots_group and can_create_write_only_bots_group, enforced", checkCreateBotsGroups},
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

func checkCreateGroupAnswersID(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	id := alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "pilots", "description": "", "members": []int64{userID(alice)}}).OK().Int("group_id")
	if got := groupNamed(t, alice, "pilots")["id"]; got != float64(id) {
		t.Errorf("group_id %d, the group's id %v", id, got)
	}
}

func checkIncomingWebhookBots(t *testing.T, s *apitest.Server) {
	bots, _ := registerState(t, s.Login("bob@example.com"), "realm_incoming_webhook_bots")["realm_incoming_webhook_bots"].([]any)
	byName := map[string]map[string]any{}
	for _, b := range bots {
		byName[b.(map[string]any)["name"].(string)] = b.(map[string]any)
	}
	hello, alerts := byName["helloworld"], byName["alertmanager"]
	if hello == nil || hello["display_name"] != "Hello World" || hello["all_event_types"] != nil || fmt.Sprint(hello["config_options"]) != "[]" {
		t.Errorf("helloworld %v", hello)
	}
	if options, _ := alerts["config_options"].([]any); len(options) != 2 ||
		fmt.Sprint(options[0]) != "map[key:name label:Alert field whose value is the topic validator:check_string]" {
		t.Errorf("alertmanager %v", alerts)
	}
}

func checkMessageLink(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	target := send(t, bob, streamMsg("general", "plans", "the plan"))
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	id := send(t, bob, streamMsg("general", "plans", fmt.Sprintf("see #**general>plans@%d**", target)))
	got := bob.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["content"]
	want := fmt.Sprintf(`<p>see <a class="message-link" href="/#narrow/channel/%d-general/topic/plans/near/%d">#general &gt; plans @ 💬</a></p>`, general, target)
	if got != want {
		t.Errorf("content %q, want %q", got, want)
	}
}

// streamNamed is GET /streams's entry for a name.
func streamNamed(t *testing.T, c *apitest.Client, name string) map[string]any {
	t.Helper()
	for _, st := range c.Get("/api/v1/streams", nil).OK().List("streams") {
		if st.(map[string]any)["name"] == name {
			return st.(map[string]any)
		}
	}
	t.Fatalf("no stream %s", name)
	return nil
}

func checkRemoveSubscribersAnyGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	aliceID := userID(alice)
	path := fmt.Sprintf("/api/v1/streams/%d", int64(streamNamed(t, alice, "general")["stream_id"].(float64)))
	remove := func(c *apitest.Client) *apitest.Response {
		return c.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["general"]`, "principals": `["bob@example.com"]`})
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	set := fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[%d]}`, aliceID, sys["role:moderators"])
	admin.Patch(path, apitest.Form{"can_remove_subscribers_group": fmt.Sprintf(`{"new":%s,"old":%d}`, set, sys["role:members"])}).Fails(400, "EXPECTATION_MISMATCH")
	admin.Patch(path, apitest.Form{"can_remove_subscribers_group": fmt.Sprintf(`{"new":%s,"old":%d}`, set, sys["role:administrators"])}).OK()
	want := fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[%d]]", aliceID, sys["role:moderators"])
	if evs := q.next(); len(evs) != 1 || fmt.Sprint(evs[0]["value"]) != want {
		t.Errorf("events %v", evs)
	}
	if got := fmt.Sprint(streamNamed(t, bob, "general")["can_remove_subscribers_group"]); got != want {
		t.Errorf("GET /streams: %s", got)
	}
	remove(alice).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"pairs"}]`, "can_remove_subscribers_group": set}).OK()
	if got := fmt.Sprint(streamNamed(t, bob, "pairs")["can_remove_subscribers_group"]); got != want {
		t.Errorf("created with a set: %s", got)
	}
}

func checkInviteUsersGroup(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	if _, ok := registerState(t, alice, "realm")["realm_invite_to_realm_policy"]; ok {
		t.Error("register still has realm_invite_to_realm_policy")
	}
	invite := func(c *apitest.Client, email string) *apitest.Response {
		return c.Post("/api/v1/invites", apitest.Form{"invitee_emails": email, "stream_ids": []int64{}})
	}
	invite(alice, "kim@example.com").OK()
	checkRealmGroupSettingSet(t, s, "can_invite_users_group", "role:members", "role:administrators")
	invite(alice, "lee@example.com").Fails(400, "BAD_REQUEST")
	invite(admin, "lee@example.com").OK()
	sys := systemGroups(t, admin)
	admin.Patch("/api/v1/realm", apitest.Form{"can_invite_users_group": fmt.Sprintf(`{"new":%d}`, sys["role:everyone"])}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"can_invite_users_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(alice))}).OK()
	invite(alice, "max@example.com").OK()
}

func checkInviteGroupIDs(t *testing.T, s *apitest.Server) {
	admin, guest := s.Login("admin@example.com"), s.Login("guest@example.com")
	sys := systemGroups(t, admin)
	engineering := int64(groupNamed(t, admin, "engineering")["id"].(float64))
	link := func(groups ...int64) *apitest.Response {
		return admin.Post("/api/v1/invites/multiuse", apitest.Form{"group_ids": groups})
	}
	link(sys["role:members"]).Fails(400, "BAD_REQUEST")
	link(99999).Fails(400, "BAD_REQUEST")
	url := link(engineering).OK().Str("invite_link")
	key := strings.TrimSuffix(url[strings.Index(url, "/join/")+len("/join/"):], "/")
	q := registerQueue(t, guest, apitest.Form{"event_types": []string{"user_group"}})
	s.Anonymous().Post("/accounts/invite", apitest.Form{"key": key, "email": "kim@example.com", "full_name": "Kim", "password": "kim-pass-1"}).OK()
	kim := userID(s.Login("kim@example.com"))
	var members []int64
	for _, m := range groupNamed(t, admin, "engineering")["members"].([]any) {
		members = append(members, int64(m.(float64)))
	}
	if !slices.Contains(members, kim) {
		t.Errorf("engineering's members %v lack kim %d", members, kim)
	}
	evs := slices.DeleteFunc(q.next(), func(e map[string]any) bool { return e["group_id"] != float64(engineering) })
	if len(evs) != 1 || evs[0]["op"] != "add_members" || fmt.Sprint(evs[0]["user_ids"]) != fmt.Sprint([]any{float64(kim)}) {
		t.Errorf("engineering's events %v", evs)
	}
}

// checkRecentlyActive: a stream is recently active for 180 days after its
// creation or its newest message.
func checkRecentlyActive(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"quiet"},{"name":"busy"}]`}).OK()
	active := func(name string) map[string]any {
		got := map[string]any{"GET /streams": streamNamed(t, bob, name)["is_recently_active"]}
		id := int64(streamNamed(t, bob, name)["stream_id"].(float64))
		got["GET /streams/{id}"] = bob.Get(fmt.Sprintf("/api/v1/streams/%d", id), nil).OK().Body["stream"].(map[string]any)["is_recently_active"]
		for _, st := range registerState(t, bob, "stream")["streams"].([]any) {
			if st.(map[string]any)["name"] == name {
				got["register"] = st.(map[string]any)["is_recently_active"]
			}
		}
		return got
	}
	if got := fmt.Sprint(active("quiet")); got != "map[GET /streams:true GET /streams/{id}:true register:true]" {
		t.Errorf("a new stream: %s", got)
	}
	s.Service().SetClock(func() time.Time { return time.Now().Add(2 * 24 * time.Hour) })
	send(t, admin, streamMsg("busy", "news", "still here"))
	s.Service().SetClock(func() time.Time { return time.Now().Add(181 * 24 * time.Hour) })
	if got := fmt.Sprint(active("quiet")); got != "map[GET /streams:false GET /streams/{id}:false register:false]" {
		t.Errorf("a stream silent 181 days since its creation: %s", got)
	}
	if got := active("busy")["GET /streams"]; got != true {
		t.Errorf("a stream written in 179 days ago: %v", got)
	}
}

func checkRemoveMembersGroup(t *testing.T, s *apitest.Server) {
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	sys := systemGroups(t, alice)
	if got := groupNamed(t, alice, "engineering")["can_remove_members_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("default %v", got)
	}
	guestID, bobID := userID(guest), userID(bob)
	alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "crew", "description": "", "members": []int64{bobID},
		"can_remove_members_group": fmt.Sprintf(`{"direct_members":[%d],"direct_subgroups":[]}`, guestID)}).OK()
	crew := groupNamed(t, alice, "crew")
	if fmt.Sprint(crew["can_remove_members_group"]) != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", guestID) {
		t.Errorf("crew %v", crew)
	}
	path := fmt.Sprintf("/api/v1/user_groups/%d/members", int64(crew["id"].(float64)))
	guest.Post(path, apitest.Form{"add": []int64{guestID}}).Fails(400, "BAD_REQUEST")
	guest.Post(path, apitest.Form{"delete": []int64{bobID}}).OK()
	engineering := fmt.Sprintf("/api/v1/user_groups/%d", int64(groupNamed(t, alice, "engineering")["id"].(float64)))
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"}})
	alice.Patch(engineering, apitest.Form{"can_remove_members_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:members"], sys["role:nobody"])}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["data"].(map[string]any)["can_remove_members_group"] != float64(sys["role:members"]) {
		t.Errorf("events %v", evs)
	}
	alice.Patch(engineering, apitest.Form{"can_remove_members_group": fmt.Sprintf(`{"new":%d}`, sys["role:everyone"])}).Fails(400, "BAD_REQUEST")
}

func checkAdministerChannelGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"alices"}]`}).OK()
	st := streamNamed(t, bob, "alices")
	if got := fmt.Sprint(st["can_administer_channel_group"]); got != fmt.Sprintf("map[direct_members:[%d] direct_subgroups:[]]", userID(alice)) {
		t.Errorf("a new stream's can_administer_channel_group %s", got)
	}
	if got := streamNamed(t, bob, "general")["can_administer_channel_group"]; got != float64(sys["role:nobody"]) {
		t.Errorf("general's %v", got)
	}
	path := fmt.Sprintf("/api/v1/streams/%d", int64(st["stream_id"].(float64)))
	bob.Patch(path, apitest.Form{"description": "bob's"}).Fails(400, "BAD_REQUEST")
	alice.Patch(path, apitest.Form{"description": "alice's"}).OK()
	alice.Patch(path, apitest.Form{"is_default_stream": true}).Fails(400, "BAD_REQUEST")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	admin.Patch(path, apitest.Form{"can_administer_channel_group": fmt.Sprintf(`{"new":%d}`, sys["role:members"])}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "can_administer_channel_group" || evs[0]["value"] != float64(sys["role:members"]) {
		t.Errorf("events %v", evs)
	}
	bob.Patch(path, apitest.Form{"description": "bob's"}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"run-by-moderators"}]`,
		"can_administer_channel_group": sys["role:moderators"]}).OK()
	if got := streamNamed(t, bob, "run-by-moderators")["can_administer_channel_group"]; got != float64(sys["role:moderators"]) {
		t.Errorf("created with role:moderators: %v", got)
	}
}

func checkPermissionSettingsWithoutOwnersField(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	settings := registerState(t, admin, "realm")["server_supported_permission_settings"].(map[string]any)
	for object, list := range settings {
		for name, c := range list.(map[string]any) {
			for _, gone := range []string{"allow_owners_group", "id_field_name"} {
				if _, ok := c.(map[string]any)[gone]; ok {
					t.Errorf("%s.%s has %s", object, name, gone)
				}
			}
		}
	}
	sys := systemGroups(t, admin)
	admin.Patch("/api/v1/realm", apitest.Form{"create_multiuse_invite_group": fmt.Sprintf(`{"new":%d}`, sys["role:owners"])}).OK()
	admin.Patch(fmt.Sprintf("/api/v1/user_groups/%d", int64(groupNamed(t, admin, "engineering")["id"].(float64))),
		apitest.Form{"can_mention_group": fmt.Sprintf(`{"new":%d}`, sys["role:owners"])}).OK()
}

func checkDirectRecipientID(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	out := send(t, alice, apitest.Form{"type": "direct", "to": `["bob@example.com"]`, "content": "hi bob"})
	in := send(t, bob, apitest.Form{"type": "direct", "to": `["alice@example.com"]`, "content": "hi alice"})
	recipient := func(c *apitest.Client, id int64) any {
		return c.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["recipient_id"]
	}
	if a, b := recipient(alice, out), recipient(alice, in); a != b || a == nil {
		t.Errorf("alice's outgoing %v, incoming %v", a, b)
	}
	if a, b := recipient(bob, out), recipient(bob, in); a != b || a == nil {
		t.Errorf("bob's incoming %v, outgoing %v", a, b)
	}
}

func checkReactionsWithoutUser(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("general", "plans", "react"))
	bob.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "smile"}).OK()
	reactions := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["reactions"].([]any)
	r := reactions[0].(map[string]any)
	if _, has := r["user"]; has || len(reactions) != 1 || r["user_id"] != float64(userID(bob)) {
		t.Errorf("reactions %v", reactions)
	}
	_, res := history(t, alice, apitest.Form{"anchor": id, "num_before": 0, "num_after": 0})
	if r := res.List("messages")[0].(map[string]any)["reactions"].([]any)[0].(map[string]any); r["user"] != nil {
		t.Errorf("GET /messages reaction %v", r)
	}
}

func checkDefaultStreamIDs(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"default_streams", "default_stream_groups"}})
	if got := fmt.Sprint(q.state.Body["realm_default_streams"]); got != fmt.Sprintf("[%d]", general) {
		t.Errorf("realm_default_streams %s", got)
	}
	if got, ok := q.state.Body["realm_default_stream_groups"].([]any); !ok || len(got) != 0 {
		t.Errorf("realm_default_stream_groups %v", q.state.Body["realm_default_stream_groups"])
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"lobby"}]`, "is_default_stream": true}).OK()
	lobby := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "lobby"}).OK().Int("stream_id")
	evs := slices.DeleteFunc(q.next(), func(e map[string]any) bool { return e["type"] != "default_streams" })
	if len(evs) != 1 || fmt.Sprint(evs[0]["default_streams"]) != fmt.Sprintf("[%d %d]", general, lobby) {
		t.Errorf("events %v", evs)
	}
}

func checkModerationRequestChannel(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	if got := realmSetting(t, bob, "moderation_request_channel_id"); got != float64(-1) {
		t.Errorf("default %v", got)
	}
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"mods"}]`, "invite_only": true}).OK()
	mods := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "mods"}).OK().Int("stream_id")
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm"}})
	bob.Patch("/api/v1/realm", apitest.Form{"moderation_request_channel_id": mods}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"moderation_request_channel_id": general}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", apitest.Form{"moderation_request_channel_id": mods}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "moderation_request_channel_id" || evs[0]["value"] != float64(mods) {
		t.Errorf("events %v", evs)
	}
	if got := realmSetting(t, bob, "moderation_request_channel_id"); got != float64(mods) {
		t.Errorf("after the change %v", got)
	}
	admin.Patch("/api/v1/realm", apitest.Form{"moderation_request_channel_id": -1}).OK()
	if got := realmSetting(t, bob, "moderation_request_channel_id"); got != float64(-1) {
		t.Errorf("after disabling %v", got)
	}
}

func checkSendMessageGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, alice)
	general := streamNamed(t, bob, "general")
	if general["can_send_message_group"] != float64(sys["role:everyone"]) || general["stream_post_policy"] != float64(1) {
		t.Errorf("general %v", general)
	}
	path := fmt.Sprintf("/api/v1/streams/%d", int64(general["stream_id"].(float64)))
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	admin.Patch(path, apitest.Form{"can_send_message_group": fmt.Sprintf(`{"new":%d,"old":%d}`, sys["role:administrators"], sys["role:everyone"])}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "can_send_message_group" || evs[0]["value"] != float64(sys["role:administrators"]) {
		t.Errorf("events %v", evs)
	}
	if st := streamNamed(t, bob, "general"); st["stream_post_policy"] != float64(2) || st["is_announcement_only"] != true {
		t.Errorf("the deprecated policy %v", st)
	}
	if r := bob.Post("/api/v1/messages", streamMsg("general", "news", "hello")).Fails(400, "BAD_REQUEST"); r.Msg() != "You do not have permission to post in this channel." {
		t.Errorf("bob: %q", r.Msg())
	}
	send(t, admin, streamMsg("general", "news", "announcement"))
	admin.Patch(path, apitest.Form{"can_send_message_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(bob))}).OK()
	send(t, bob, streamMsg("general", "news", "hello"))
	alice.Post("/api/v1/messages", streamMsg("general", "news", "me too")).Fails(400, "BAD_REQUEST")
	// Silent mentions of system groups.
	id := send(t, bob, streamMsg("general", "news", "thanks @_*role:members*"))
	if html := bob.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["content"].(string); !strings.Contains(html, "user-group-mention silent") {
		t.Errorf("a silent system group mention: %s", html)
	}
}

func checkEmptyTopicName(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm"}, "client_capabilities": `{"empty_topic_name":true}`}).OK()
	if state.Body["realm_empty_topic_display_name"] != "general chat" || state.Body["realm_mandatory_topics"] != true {
		t.Errorf("register: %v, mandatory %v", state.Body["realm_empty_topic_display_name"], state.Body["realm_mandatory_topics"])
	}
	if r := bob.Post("/api/v1/messages", streamMsg("general", "", "no topic")).Fails(400, "BAD_REQUEST"); r.Msg() != "Topic can't be empty!" {
		t.Errorf("an empty topic: %q", r.Msg())
	}
	id := send(t, bob, streamMsg("general", "plans", "a topic"))
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	bob.Get("/api/v1/messages", apitest.Form{"anchor": id, "num_before": 1, "num_after": 0, "allow_empty_topic_name": true}).OK()
	if m := bob.Get(msgPath(id, ""), apitest.Form{"allow_empty_topic_name": true}).OK().Body["message"].(map[string]any); m["subject"] != "plans" {
		t.Errorf("message %v", m)
	}
	bob.Get(msgPath(id, "/history"), apitest.Form{"allow_empty_topic_name": true}).OK()
	bob.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", general), apitest.Form{"allow_empty_topic_name": true}).OK()
}

func checkEmailAddressSender(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	path := fmt.Sprintf("/api/v1/streams/%d/email_address", general)
	var botID int64
	for _, b := range admin.Get("/api/v1/bots", nil).OK().List("bots") {
		if b := b.(map[string]any); b["username"] == "echo-bot@example.com" {
			botID = int64(b["user_id"].(float64))
		}
	}
	bob.Get(path, apitest.Form{"sender_id": userID(bob)}).OK()
	bob.Get(path, apitest.Form{"sender_id": userID(alice)}).Fails(400, "BAD_REQUEST")
	bob.Get(path, apitest.Form{"sender_id": 99999}).Fails(400, "BAD_REQUEST")
	admin.Get(path, apitest.Form{"sender_id": botID}).OK()
	if r := bob.Get(path, apitest.Form{"sender_id": botID}); r.Status == 200 && r.Body["email"] == nil {
		t.Errorf("bob with the echo bot: %s", r)
	}
}

func checkPasswordMaxLength(t *testing.T, s *apitest.Server) {
	bob, admin := s.Login("bob@example.com"), s.Login("admin@example.com")
	if got := realmSetting(t, bob, "password_max_length"); got != nil {
		t.Errorf("realm_password_max_length %v: the field is not realm_-prefixed", got)
	}
	if got := registerState(t, bob, "realm")["password_max_length"]; got != float64(72) {
		t.Fatalf("password_max_length %v", got)
	}
	long := strings.Repeat("p", 73)
	bob.Patch("/api/v1/settings", apitest.Form{"new_password": long, "old_password": "lanchat-dev"}).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/users", apitest.Form{"email": "long@example.com", "password": long, "full_name": "Long"}).Fails(400, "BAD_REQUEST")
	bob.Patch("/api/v1/settings", apitest.Form{"new_password": long[:72], "old_password": "lanchat-dev"}).OK()
}

func checkReactionEventUser(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("general", "plans", "react"))
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"reaction"}})
	bob.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "smile"}).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["user_id"] != float64(userID(bob)) {
		t.Fatalf("events %v", evs)
	}
	if u, _ := evs[0]["user"].(map[string]any); u["user_id"] != float64(userID(bob)) || u["email"] != "bob@example.com" || u["full_name"] == nil {
		t.Errorf("user %v", evs[0]["user"])
	}
}

// addBob is alice subscribing bob to a stream.
func addBob(c *apitest.Client, stream string) *apitest.Response {
	return c.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"` + stream + `"}]`, "principals": `["bob@example.com"]`})
}

func checkRealmAddSubscribersGroup(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	for _, gone := range []string{"realm_invite_to_stream_policy", "can_subscribe_other_users"} {
		if _, ok := registerState(t, bob, "realm")[gone]; ok {
			t.Errorf("register still has %s", gone)
		}
	}
	s.Login("admin@example.com").Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"club"},{"name":"club2"}]`}).OK()
	addBob(alice, "club").OK()
	checkRealmGroupSettingSet(t, s, "can_add_subscribers_group", "role:members", "role:moderators")
	if r := addBob(alice, "club2").Fails(400, "BAD_REQUEST"); r.Msg() != "Insufficient permission" {
		t.Errorf("alice: %q", r.Msg())
	}
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"club2"}]`}).OK() // herself
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"alices-new"}]`, "principals": `["bob@example.com"]`}).OK()
}

func checkStreamAddSubscribersGroup(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	sys := systemGroups(t, alice)
	admin.Patch("/api/v1/realm", apitest.Form{"can_add_subscribers_group": fmt.Sprintf(`{"new":%d}`, sys["role:administrators"])}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"club"}]`}).OK()
	club := streamNamed(t, alice, "club")
	if club["can_add_subscribers_group"] != float64(sys["role:nobody"]) {
		t.Errorf("default %v", club["can_add_subscribers_group"])
	}
	addBob(alice, "club").Fails(400, "BAD_REQUEST")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"stream"}})
	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", int64(club["stream_id"].(float64))),
		apitest.Form{"can_add_subscribers_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, userID(alice))}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["property"] != "can_add_subscribers_group" {
		t.Errorf("events %v", evs)
	}
	addBob(alice, "club").OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"open-door"}]`, "can_add_subscribers_group": sys["role:members"]}).OK()
	addBob(alice, "open-door").OK()
	// Default channels in invitations, whoever may add subscribers.
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "kim@example.com", "stream_ids": []int64{}, "include_realm_default_subscriptions": true}).OK()
}

func checkStreamDeleteIDs(t *testing.T, s *apitest.Server) {
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"doomed"}]`}).OK()
	id := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "doomed"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	admin.Delete(fmt.Sprintf("/api/v1/streams/%d", id), nil).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["op"] != "delete" || fmt.Sprint(evs[0]["stream_ids"]) != fmt.Sprintf("[%d]", id) {
		t.Errorf("events %v", evs)
	}
}

func checkCreateBotsGroups(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	sys := systemGroups(t, alice)
	if _, ok := registerState(t, alice, "realm")["realm_bot_creation_policy"]; ok {
		t.Error("register has realm_bot_creation_policy")
	}
	bot := func(c *apitest.Client, name string, kind int) *apitest.Response {
		return c.Post("/api/v1/bots", apitest.Form{"full_name": name, "short_name": name, "bot_type": kind})
	}
	bot(alice, "helper", 1).OK()
	checkRealmGroupSettingSet(t, s, "can_create_bots_group", "role:members", "role:administrators")
	bot(alice, "helper2", 1).Fails(400, "BAD_REQUEST")
	bot(alice, "hook", 2).OK() // an incoming webhook bot only sends
	if got := realmSetting(t, alice, "can_create_write_only_bots_group"); got != float64(sys["role:members"]) {
		t.Errorf("can_create_write_only_bots_group %v", got)
	}
	admin.Patch("/api/v1/realm", apitest.Form{"can_create_write_only_bots_group": fmt.Sprintf(`{"new":%d}`, sys["role:nobody"])}).OK()
	bot(alice, "hook2", 2).Fails(400, "BAD_REQUEST")
	bot(admin, "hook3", 2).OK()
}

func checkChangeDeactivatedGroup(t *testing.T, s *apitest.Server) {
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	restrictGroupManagement(t, admin, systemGroups(t, alice))
	bobID := userID(bob)
	id := createGroup(t, alice, "dormant", []int64{}, nil)
	path := fmt.Sprintf("/api/v1/user_groups/%d", id)
	alice.Post(path+"/deactivate", nil).OK()
	capable := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_group"},
		"client_capabilities": `{"include_deactivated_groups":true}`})
	alice.Patch(path, apitest.Form{"description": "asleep"}).OK()
	alice.Patch(path, apitest.Form{"can_manage_group": fmt.Sprintf(`{"new":{"direct_members":[%d],"direct_subgroups":[]}}`, bobID)}).OK()
	evs := capable.next()
	if len(evs) != 2 || fmt.Sprint(evs[0]["data"]) != "map[description:asleep]" ||
		fmt.Sprint(evs[1]["data"]) != fmt.Sprintf("map[can_manage_group:map[direct_members:[%d] direct_subgroups:[]]]", bobID) {
		t.Errorf("events of the deactivated group's changes %v", evs)
	}
	var got map[string]any
	for _, g := range bob.Get("/api/v1/user_groups", apitest.Form{"include_deactivated_groups": true}).OK().List("user_groups") {
		if g.(map[string]any)["id"] == float64(id) {
			got = g.(map[string]any)
		}
	}
	if got["description"] != "asleep" || got["deactivated"] != true {
		t.Errorf("the deactivated group after its changes %v", got)
	}
	// The changed setting decides who manages the deactivated group.
	alice.Patch(path, apitest.Form{"description": "alice's again"}).Fails(400, "BAD_REQUEST")
	bob.Patch(path, apitest.Form{"description": "bob's now"}).OK()
}
