package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// changelogCase is one entry of Zulip's API changelog
// (shared/openapi/changelog-10.0.md), checked over HTTP against a fresh
// server. Its name cites the feature level and what the entry says.
type changelogCase struct {
	name  string
	check func(t *testing.T, s *apitest.Server)
}

// Each entry up to the announced level (371) must hold; an entry that
// cannot is a documented exception in docs/api-coverage.md.
func TestChangelogEntries(t *testing.T) {
	for _, c := range allChangelogCases() {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, apitest.Start(t))
		})
	}
}

// The levels of the suite: from the first after Zulip 7.0 to the one
// announced (zulip_feature_level).
const firstChangelogLevel, announcedLevel = 186, 371

// lastChangelogLevel is Zulip 10.0's level, the top of the changelog the suite
// climbs; rows and exceptions may run ahead of the announced level.
const lastChangelogLevel = 371

// allChangelogCases are the suite's rows: those here, those about user
// groups and group-based permission settings (changelog_groups_test.go),
// those of the climb past 9.0 (changelog_278_test.go, changelog_316_test.go,
// changelog_346_test.go), and those of earlier levels an audit sampled
// (changelog_early_test.go).
func allChangelogCases() []changelogCase {
	return slices.Concat(changelogCases(), groupChangelogCases(),
		changelog278Cases(), changelog316Cases(), changelog346Cases(), changelogEarlyCases())
}

// TestChangelogCoversEveryEntry reads Zulip's changelog and fails for a
// level of the suite with changes that has neither a row nor a line in docs/api-coverage.md's table of changelog exceptions; and for an
// exception naming a level outside the changelog (earlier levels, which the
// suite does not climb, may have rows and exceptions too).
func TestChangelogCoversEveryEntry(t *testing.T) {
	// CI clones the repository as X/main with X/shared beside it.
	changelog, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "openapi", "changelog-10.0.md"))
	if err != nil {
		t.Fatal(err)
	}
	coverage, err := os.ReadFile(filepath.Join("..", "..", "docs", "api-coverage.md"))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[int]bool{}
	for _, c := range allChangelogCases() {
		head, _, _ := strings.Cut(c.name, ":")
		for _, l := range levelNumbers(head) {
			covered[l] = true
		}
	}
	_, table, _ := strings.Cut(string(coverage), "### Changelog exceptions")
	table, _, _ = strings.Cut(table, "\n## ")
	for _, line := range strings.Split(table, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && strings.HasPrefix(line, "| ") {
			for _, l := range levelNumbers(cells[1]) {
				if l < 1 || l > lastChangelogLevel {
					t.Errorf("the exceptions name level %d, outside 1–%d", l, lastChangelogLevel)
				}
				covered[l] = true
			}
		}
	}
	entries := regexp.MustCompile(`\*\*Feature level (\d+)\*\*\n+([^\n]*)`).FindAllStringSubmatch(string(changelog), -1)
	checked := 0
	for _, e := range entries {
		level, _ := strconv.Atoi(e[1])
		if level < firstChangelogLevel || level > announcedLevel || strings.HasPrefix(e[2], "No changes") {
			continue
		}
		checked++
		if !covered[level] {
			t.Errorf("level %d has no row and is not a documented exception: %s", level, e[2])
		}
	}
	if checked < 80 {
		t.Errorf("only %d levels with changes found in the changelog", checked)
	}
}

// levelNumbers are the numbers in text such as "level 192 and 220".
func levelNumbers(text string) []int {
	var out []int
	for _, n := range regexp.MustCompile(`\d+`).FindAllString(text, -1) {
		l, _ := strconv.Atoi(n)
		out = append(out, l)
	}
	return out
}

func changelogCases() []changelogCase {
	return []changelogCase{
		{"level 188: bots can be muted and unmuted", checkMuteBots},
		{"level 189: followed-topic notification settings are user settings", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{
				"enable_followed_topic_desktop_notifications":    {true, false},
				"enable_followed_topic_email_notifications":      {true, false},
				"enable_followed_topic_push_notifications":       {true, false},
				"enable_followed_topic_audible_notifications":    {true, false},
				"enable_followed_topic_wildcard_mentions_notify": {true, false},
			})
		}},
		{"level 190: DELETE /realm/emoji/{name} of a missing emoji is 404", checkMissingEmoji404},
		{"level 192 and 220: a guest subscribed to a public stream gets stream create, then peer events", checkGuestSeesPublicStreamOnSubscribe},
		{"level 193: REACTION_ALREADY_EXISTS and REACTION_DOES_NOT_EXIST", checkReactionErrorCodes},
		{"level 194: the id operand may be an integer", checkNarrowOperators("id as an integer (194)", "id as a string (194)")},
		{"level 195: realm_default_code_block_language is an empty string when unset", checkRegisterFields("realm", map[string]any{"realm_default_code_block_language": ""})},
		{"level 196: code playgrounds with url_template, in register and events", checkPlaygrounds},
		{"level 199: stream_weekly_traffic in stream objects", checkWeeklyTraffic},
		{"level 200: is_default_stream on POST /users/me/subscriptions and PATCH /streams/{id}", checkDefaultStreams},
		{"level 202: PATCH /realm/linkifiers reorders the linkifiers", checkLinkifierOrder},
		{"level 203: realm_date_created", checkRealmDateCreated},
		{"level 204: the typing protocol's server_typing_* periods", checkRegisterFields("realm", map[string]any{
			"server_typing_started_wait_period_milliseconds":   10000,
			"server_typing_stopped_wait_period_milliseconds":   5000,
			"server_typing_started_expiry_period_milliseconds": 15000,
		})},
		{"level 205: a role change sends stream create/delete and peer_add for the streams the person gains or loses", checkRoleChangeEvents},
		{"level 208: unknown or deactivated principals are BAD_REQUEST", checkPrincipalErrors},
		{"level 210: web_stream_unreads_count_display_policy is a user setting", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_stream_unreads_count_display_policy": {float64(2), float64(3)}})
		}},
		{"level 211: complete in POST /mark_all_as_read", checkCompleteOnMarkAllAsRead},
		{"level 211 and 256: POST /streams/{id}/delete_topic answers complete and updates first_message_id", checkDeleteTopic},
		{"level 212: server_jitsi_server_url (none configured)", checkRegisterFields("realm", map[string]any{"server_jitsi_server_url": nil})},
		{"level 212: jitsi_server_url is a realm setting", checkRealmSettingChange("jitsi_server_url", nil, "https://meet.lan", "meet.lan")},
		{"level 213: unread counts include unmuted and followed topics of muted streams", checkUnreadCountsInMutedStreams},
		{"level 214: automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{
				"automatically_follow_topics_policy":                  {float64(3), float64(4)},
				"automatically_unmute_topics_in_muted_streams_policy": {float64(2), float64(4)},
			})
		}},
		{"level 215 and 248: stream typing by stream_id and topic, type channel, message_type direct", checkStreamTyping},
		{"level 216: enable_guest_user_indicator is a realm setting", checkRealmSettingChange("enable_guest_user_indicator", true, false, "sometimes")},
		{"level 217 and 234: POST /mobile_push/test_notification, answered as a Zulip server without push notifications configured", checkTestPushNotification},
		{"level 214, 218 and 235: sending and mentions follow or unmute topics as the policies say; automatic_new_visibility_policy", checkAutomaticVisibility},
		{"level 219: web_home_view and web_escape_navigates_to_home_view", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_home_view": {"inbox", "recent_topics"}, "web_escape_navigates_to_home_view": {true, false}})
		}},
		{"level 219: followed is a visibility policy", checkFollowedVisibility},
		{"level 222: deactivation is a realm_user update of is_active", checkDeactivationIsUpdate},
		{"level 222: bot deactivation is a realm_bot update of is_active", checkBotDeactivationIsUpdate},
		{"level 223: POST /users/me/apns_device_token requires appid; devices register as on a Zulip server without push notifications", checkPushDevices},
		{"level 224 and 247: stream_wildcard_mentioned and topic_wildcard_mentioned flags; @**channel**", checkWildcardFlags},
		{"level 226: GET /streams/{id}/email_address", checkStreamEmailAddress},
		{"level 227: desktop_icon_count_display has four options", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"desktop_icon_count_display": {float64(1), float64(4)}})
		}},
		{"level 229: wildcard_mention_policy refusals have their own codes", checkWildcardPolicyCodes},
		{"level 230 and 259: onboarding steps are one-time notices", checkOneTimeNotices},
		{"level 231: realm_push_notifications_enabled and its end timestamp", checkRegisterFields("realm", map[string]any{"realm_push_notifications_enabled": false, "realm_push_notifications_enabled_end_timestamp": nil})},
		{"level 232: the user_list_incomplete client capability", checkUserListIncomplete},
		{"level 233: onboarding_steps in register and POST /users/me/onboarding_steps", func(t *testing.T, s *apitest.Server) {
			bob, alice := s.Login("bob@example.com"), s.Login("alice@example.com")
			q := registerQueue(t, bob, apitest.Form{"event_types": []string{"onboarding_steps"}})
			steps := func(list []any) []string {
				var names []string
				for _, st := range list {
					step := st.(map[string]any)
					if step["type"] != "one_time_notice" {
						t.Errorf("step %v", step)
					}
					names = append(names, step["name"].(string))
				}
				return names
			}
			if got := steps(q.state.List("onboarding_steps")); !slices.Contains(got, "intro_inbox_view_modal") || len(got) != 7 {
				t.Errorf("register's onboarding_steps %v", got)
			}
			bob.Post("/api/v1/users/me/onboarding_steps", apitest.Form{"onboarding_step": "intro_inbox_view_modal"}).OK()
			evs := q.next()
			if len(evs) != 1 || evs[0]["type"] != "onboarding_steps" || len(steps(evs[0]["onboarding_steps"].([]any))) != 6 {
				t.Errorf("events %v", evs)
			}
			again := steps(bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"onboarding_steps"}}).OK().List("onboarding_steps"))
			if slices.Contains(again, "intro_inbox_view_modal") || len(again) != 6 {
				t.Errorf("after dismissing: %v", again)
			}
			if r := bob.Post("/api/v1/users/me/onboarding_steps", apitest.Form{"onboarding_step": "intro_gear"}).Fails(400, "BAD_REQUEST"); r.Msg() != "Unknown onboarding_step: intro_gear" {
				t.Errorf("unknown step: %q", r.Msg())
			}
			if got := steps(alice.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"onboarding_steps"}}).OK().List("onboarding_steps")); len(got) != 7 {
				t.Errorf("alice's steps changed with bob's: %v", got)
			}
		}},
		{"level 235: automatically_follow_topics_where_mentioned", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"automatically_follow_topics_where_mentioned": {true, false}})
		}},
		{"level 236: read_by_sender on POST /messages", checkReadBySender},
		{"level 241 and 242: the announcement streams' settings, renamed, and zulip_update_announcements_stream_id (none: -1)", checkRegisterFields("realm", map[string]any{
			"realm_new_stream_announcements_stream_id":   -1,
			"realm_signup_announcements_stream_id":       -1,
			"realm_zulip_update_announcements_stream_id": -1,
			"realm_notifications_stream_id":              notSent{},
			"realm_signup_notifications_stream_id":       notSent{},
		})},
		{"level 241 and 242: PATCH /realm sets the announcement streams; new streams and signups are announced there", checkAnnouncementStreams},
		{"level 243: realm_authentication_methods maps each method to enabled and available", checkRegisterFields("realm", map[string]any{
			// The test server runs with --dev, which adds the dev log-in.
			"realm_authentication_methods": map[string]any{"Email": map[string]any{"enabled": true, "available": true}, "Dev": map[string]any{"enabled": true, "available": true}},
		})},
		{"level 244: required in custom profile fields; the fields, their values and events", checkProfileFields},
		{"level 245: web_font_size_px and web_line_height_percent are user settings", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_font_size_px": {float64(14), float64(20)}, "web_line_height_percent": {float64(122), float64(150)}})
			bob := s.Login("bob@example.com")
			for _, bad := range []apitest.Form{{"web_font_size_px": "big"}, {"web_font_size_px": 0}, {"web_line_height_percent": 5000}} {
				bob.Patch("/api/v1/settings", bad).Fails(400, "REQUEST_VARIABLE_INVALID")
			}
		}},
		{"level 246: realm_require_unique_names", checkRegisterFields("realm", map[string]any{"realm_require_unique_names": false})},
		{"level 246: require_unique_names is a realm setting, enforced on names", checkUniqueNames},
		{"level 248: type channel on POST /messages and POST/PATCH /scheduled_messages", checkChannelMessageType},
		{"level 249: has:reaction", checkNarrowOperators("has:reaction (249)")},
		{"level 250: channel and channels operators", checkNarrowOperators("channel (250)", "channels:public (250)")},
		{"level 251: realm_upload_quota_mib (no quota: null)", checkRegisterFields("realm", map[string]any{"realm_upload_quota_mib": nil})},
		{"level 252: PATCH /realm/profile_fields/{id} takes each field alone", checkProfileFieldPartialUpdate},
		{"level 296: editable_by_user on custom profile fields, enforced on people's own values", checkEditableByUser},
		{"level 253: receives_typing_notifications, and no typing events for those who turned it off", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"receives_typing_notifications": {true, false}})
			// bob turned it off in checkNewSettings; alice still receives.
			bob, alice, admin := s.Login("bob@example.com"), s.Login("alice@example.com"), s.Login("admin@example.com")
			bq := registerQueue(t, bob, apitest.Form{"event_types": []string{"typing"}})
			aq := registerQueue(t, alice, apitest.Form{"event_types": []string{"typing"}})
			admin.Post("/api/v1/typing", apitest.Form{"op": "start", "to": `["alice@example.com","bob@example.com"]`}).OK()
			if evs := aq.next(); len(evs) != 1 || evs[0]["type"] != "typing" {
				t.Errorf("alice's typing events %v", evs)
			}
			if evs := bq.next(); len(evs) != 0 {
				t.Errorf("bob turned typing notifications off but got %v", evs)
			}
		}},
		{"level 254: creator_id in stream and subscription objects", checkCreatorID},
		{"level 255: \"channel\" in the API's strings", checkChannelStrings},
		{"level 256: deleting a stream's first message updates first_message_id", checkFirstMessageIDUpdate},
		{"level 257: realm_url, realm_uri its alias", checkRealmURL},
		{"level 261: include_realm_default_subscriptions on POST /invites/multiuse, and the link creates the account", checkInviteLinks},
		{"level 262: GET /users/{id}/status", checkUserStatusEndpoint},
		{"level 263: last_update_id on POST /users/me/presence and presence_last_update_id in register", checkPresenceUpdateIDs},
		{"level 265: is:followed", checkNarrowOperators("is:followed (265)")},
		{"level 267: notify_referrer_on_join on POST /invites, listed by GET /invites", checkEmailInvites},
		{"level 268: web_navigate_to_sent_message", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_navigate_to_sent_message": {true, false}})
		}},
		{"level 269: web_channel_default_view", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_channel_default_view": {float64(1), float64(2)}})
		}},
		{"level 271: the with operator", checkNarrowOperators("with, a topic's link (271)")},
		{"level 271: with follows a moved topic", checkWithFollowsMoves},
		{"level 272: url in POST /user_uploads, uri its alias", checkUploadURL},
		{"level 273: server_thumbnail_formats", checkRegisterFields("realm", map[string]any{"server_thumbnail_formats": []any{}})},
		{"level 274: delete_message goes to the deleter", checkDeleteToDeleter},
		{"level 276: data-original-dimensions on the previews of uploaded images", checkImageDimensions},
		{"level 275: web_animate_image_previews", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_animate_image_previews": {"on_hover", "never"}})
		}},
	}
}

// checkDefaultStreams checks default streams end to end: made by creating a
// stream with is_default_stream, by PATCH /streams/{id} and by POST
// /default_streams, listed in register's realm_default_streams (empty for
// guests), announced by default_streams events, joined by new people, and
// never private.
func checkDefaultStreams(t *testing.T, s *apitest.Server) {
	admin, alice, guest := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("guest@example.com")
	defaults := func(c *apitest.Client) []string {
		var names []string
		// Stream IDs since level 330.
		for _, id := range c.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"default_streams"}}).OK().List("realm_default_streams") {
			names = append(names, admin.Get(fmt.Sprintf("/api/v1/streams/%d", int64(id.(float64))), nil).OK().Body["stream"].(map[string]any)["name"].(string))
		}
		return names
	}
	aq := registerQueue(t, alice, apitest.Form{"event_types": []string{"default_streams"}})
	gq := registerQueue(t, guest, apitest.Form{"event_types": []string{"default_streams"}})

	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"lobby"}]`, "is_default_stream": true}).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"vault"}]`, "is_default_stream": true, "invite_only": true}).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"lobby"}]`, "is_default_stream": true}).OK()
	if got := defaults(alice); len(got) != 1 || got[0] != "lobby" {
		t.Errorf("default streams after creating lobby: %v", got)
	}
	if got := defaults(guest); len(got) != 0 {
		t.Errorf("a guest was shown the default streams: %v", got)
	}
	evs := aq.next()
	if len(evs) != 1 || evs[0]["type"] != "default_streams" || len(evs[0]["default_streams"].([]any)) != 1 {
		t.Errorf("alice's default_streams events %v", evs)
	}
	if evs := gq.next(); len(evs) != 0 {
		t.Errorf("the guest's events %v", evs)
	}

	lobby := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "lobby"}).OK().Int("stream_id")
	newcomer := admin.Post("/api/v1/users", apitest.Form{"email": "newcomer@example.com", "password": "newcomer-1", "full_name": "New Comer"}).OK().Int("user_id")
	members := admin.Get(fmt.Sprintf("/api/v1/streams/%d/members", lobby), nil).OK().List("subscribers")
	if !slices.Contains(members, any(float64(newcomer))) {
		t.Errorf("the new person did not join the default stream: %v", members)
	}

	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", lobby), apitest.Form{"is_private": true}).Fails(400, "BAD_REQUEST")
	alice.Patch(fmt.Sprintf("/api/v1/streams/%d", lobby), apitest.Form{"is_default_stream": false}).Fails(400, "BAD_REQUEST")
	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", lobby), apitest.Form{"is_default_stream": false}).OK()
	if got := defaults(alice); len(got) != 0 {
		t.Errorf("default streams after PATCH: %v", got)
	}
	if evs := aq.next(); len(evs) != 1 || len(evs[0]["default_streams"].([]any)) != 0 {
		t.Errorf("alice's events after PATCH %v", evs)
	}

	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	alice.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", lobby), apitest.Form{"is_private": true}).OK()
	if r := admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": lobby}).Fails(400, "BAD_REQUEST"); r.Msg() != "Private channels cannot be made default." {
		t.Errorf("private default stream: %q", r.Msg())
	}
	if got := defaults(alice); len(got) != 1 || got[0] != "general" {
		t.Errorf("default streams after POST: %v", got)
	}
	admin.Delete("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	if got := defaults(alice); len(got) != 0 {
		t.Errorf("default streams after DELETE: %v", got)
	}
}

// checkLinkifierOrder checks PATCH /realm/linkifiers: the new order is
// listed, announced, and applied to messages (with overlapping patterns the
// first in order links), and only a list of every linkifier once is taken.
func checkLinkifierOrder(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	wide := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://wide.lan/{id}"}).OK().Int("id")
	narrow := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>1[0-9]+)`, "url_template": "https://narrow.lan/{id}"}).OK().Int("id")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm_linkifiers"}})
	linked := func() string {
		id := alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "links", "content": "see #123"}).OK().Int("id")
		return alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"apply_markdown": true}).OK().Body["message"].(map[string]any)["content"].(string)
	}
	if html := linked(); !strings.Contains(html, "wide.lan") {
		t.Errorf("before reordering: %s", html)
	}
	for _, bad := range [][]int64{{narrow}, {narrow, wide, wide}, {narrow, wide, wide + 100}} {
		admin.Patch("/api/v1/realm/linkifiers", apitest.Form{"ordered_linkifier_ids": bad}).Fails(400, "BAD_REQUEST")
	}
	alice.Patch("/api/v1/realm/linkifiers", apitest.Form{"ordered_linkifier_ids": []int64{narrow, wide}}).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm/linkifiers", apitest.Form{"ordered_linkifier_ids": []int64{narrow, wide}}).OK()
	var ids []float64
	for _, l := range alice.Get("/api/v1/realm/linkifiers", nil).OK().List("linkifiers") {
		ids = append(ids, l.(map[string]any)["id"].(float64))
	}
	if !slices.Equal(ids, []float64{float64(narrow), float64(wide)}) {
		t.Errorf("linkifiers after reordering: %v", ids)
	}
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "realm_linkifiers" || evs[0]["realm_linkifiers"].([]any)[0].(map[string]any)["id"] != float64(narrow) {
		t.Errorf("events %v", evs)
	}
	if html := linked(); !strings.Contains(html, "narrow.lan") {
		t.Errorf("after reordering: %s", html)
	}
	// A linkifier added later goes last.
	third := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `!(?P<id>[0-9]+)`, "url_template": "https://third.lan/{id}"}).OK().Int("id")
	if got := alice.Get("/api/v1/realm/linkifiers", nil).OK().List("linkifiers"); len(got) != 3 || got[2].(map[string]any)["id"] != float64(third) {
		t.Errorf("after adding one: %v", got)
	}
}

// checkRoleChangeEvents checks what a role change sends: realm_user update
// with the role to everyone, and to the person, on the queue they keep,
// stream delete for the public streams a guest no longer sees, then stream
// create and peer_add (with the subscribers) when they see them again.
func checkRoleChangeEvents(t *testing.T, s *apitest.Server) {
	admin, bob, alice := s.Login("admin@example.com"), s.Login("bob@example.com"), s.Login("alice@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"town-square"}]`}).OK()
	square := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "town-square"}).OK().Int("stream_id")
	adminID := admin.Get("/api/v1/users/me", nil).OK().Int("user_id")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	kinds := apitest.Form{"event_types": []string{"realm_user", "stream", "subscription"}}
	bq, aq := registerQueue(t, bob, kinds), registerQueue(t, alice, kinds)
	named := func(evs []map[string]any, typ string) map[string]any {
		for _, e := range evs {
			if e["type"] == typ {
				return e
			}
		}
		t.Fatalf("no %s event in %v", typ, evs)
		return nil
	}
	streamIDs := func(e map[string]any) []float64 {
		var ids []float64
		for _, st := range e["streams"].([]any) {
			ids = append(ids, st.(map[string]any)["stream_id"].(float64))
		}
		return ids
	}

	admin.Patch(fmt.Sprintf("/api/v1/users/%d", bobID), apitest.Form{"role": 600}).OK()
	evs := bq.next()
	if !slices.Equal(types(evs), []string{"realm_user:update", "stream:delete"}) {
		t.Fatalf("bob's events on becoming a guest: %v", evs)
	}
	if p := evs[0]["person"].(map[string]any); p["user_id"] != float64(bobID) || p["role"] != float64(600) {
		t.Errorf("realm_user update %v", p)
	}
	if ids := streamIDs(evs[1]); !slices.Contains(ids, float64(square)) {
		t.Errorf("a guest still sees town-square: %v", ids)
	}
	if evs := aq.next(); !slices.Equal(types(evs), []string{"realm_user:update"}) {
		t.Errorf("alice's events: %v", evs)
	}

	admin.Patch(fmt.Sprintf("/api/v1/users/%d", bobID), apitest.Form{"role": 400}).OK()
	evs = bq.next()
	if ids := streamIDs(named(evs, "stream")); !slices.Contains(ids, float64(square)) || named(evs, "stream")["op"] != "create" {
		t.Errorf("bob does not see town-square again: %v", evs)
	}
	found := false
	for _, e := range evs {
		if e["type"] == "subscription" && e["op"] == "peer_add" && slices.Equal(e["stream_ids"].([]any), []any{float64(square)}) {
			found = slices.Contains(e["user_ids"].([]any), any(float64(adminID)))
		}
	}
	if !found {
		t.Errorf("no peer_add naming town-square's subscribers: %v", evs)
	}
}

// checkPresenceUpdateIDs checks incremental presence: register's
// presence_last_update_id is the newest report's ID, and POST
// /users/me/presence with last_update_id answers only those who reported
// since (slim, keyed by user ID), with an ID that never goes back.
func checkPresenceUpdateIDs(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	if id := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"presence"}}).OK().Int("presence_last_update_id"); id != -1 {
		t.Errorf("register's presence_last_update_id with no presence: %d", id)
	}
	alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "ping_only": true}).OK()
	registered := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"presence"}}).OK().Int("presence_last_update_id")
	if registered < 1 {
		t.Errorf("register's presence_last_update_id after a report: %d", registered)
	}
	poll := func(c *apitest.Client, after int64) (map[string]any, int64) {
		res := c.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "last_update_id": after}).OK()
		return res.Body["presences"].(map[string]any), res.Int("presence_last_update_id")
	}
	all, first := poll(bob, -1)
	if _, ok := all[fmt.Sprint(aliceID)].(map[string]any)["active_timestamp"]; !ok || first <= registered {
		t.Errorf("everyone (slim) after -1: %v, ID %d (register's %d)", all, first, registered)
	}
	since, second := poll(bob, first)
	if _, ok := since[fmt.Sprint(aliceID)]; ok || second <= first {
		t.Errorf("alice has not reported since %d but is listed: %v, ID %d", first, since, second)
	}
	if _, ok := since[fmt.Sprint(bobID)]; !ok {
		t.Errorf("bob's own new report is not listed: %v", since)
	}
	alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "idle", "ping_only": true}).OK()
	since, third := poll(bob, second)
	if _, ok := since[fmt.Sprint(aliceID)]; !ok || third <= second {
		t.Errorf("alice's new report is not listed after %d: %v, ID %d", second, since, third)
	}
}

// checkInviteLinks checks reusable invitation links: an administrator
// makes one, GET /invites lists it with its link, the link's key creates
// an account with the role, streams and (if asked) default streams it
// gives, and a revoked link creates nothing.
func checkInviteLinks(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"plans"}]`}).OK()
	plans := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "plans"}).OK().Int("stream_id")
	alice.Post("/api/v1/invites/multiuse", nil).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/invites/multiuse", apitest.Form{"stream_ids": []int64{9999}}).Fails(400, "BAD_REQUEST")

	join := func(link, email string) *apitest.Response {
		key := strings.TrimSuffix(link[strings.Index(link, "/join/")+len("/join/"):], "/")
		return s.Anonymous().Post("/accounts/invite", apitest.Form{"key": key, "email": email, "full_name": "Newcomer " + email[:1], "password": "newcomer-pass"})
	}
	streamsOf := func(r *apitest.Response) []string {
		c := s.As(r.Str("email"), r.Str("api_key"))
		var names []string
		for _, sub := range c.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions") {
			names = append(names, sub.(map[string]any)["name"].(string))
		}
		slices.Sort(names)
		return names
	}

	withDefaults := admin.Post("/api/v1/invites/multiuse", apitest.Form{"stream_ids": []int64{plans}, "include_realm_default_subscriptions": true, "invite_as": 600}).OK().Str("invite_link")
	if !strings.HasPrefix(withDefaults, s.URL+"/join/") {
		t.Errorf("invite_link %q", withDefaults)
	}
	key := strings.TrimSuffix(strings.TrimPrefix(withDefaults, s.URL+"/join/"), "/")
	if got := s.Anonymous().Get("/accounts/invite", apitest.Form{"key": key}).OK(); got.Int("invited_as") != 600 || got.Str("realm_name") == "" {
		t.Errorf("the invitation behind the link: %s", got.Raw)
	}
	first := join(withDefaults, "gina@example.com").OK()
	if got := streamsOf(first); !slices.Equal(got, []string{"general", "plans"}) {
		t.Errorf("joined with the default streams: %v", got)
	}
	if role := s.As(first.Str("email"), first.Str("api_key")).Get("/api/v1/users/me", nil).OK().Int("role"); role != 600 {
		t.Errorf("role %d", role)
	}
	// A reusable link works again, for another address.
	join(withDefaults, "hal@example.com").OK()
	join(withDefaults, "hal@example.com").Fails(400, "BAD_REQUEST")

	without := admin.Post("/api/v1/invites/multiuse", apitest.Form{"stream_ids": []int64{plans}}).OK().Str("invite_link")
	if got := streamsOf(join(without, "ivy@example.com").OK()); !slices.Equal(got, []string{"plans"}) {
		t.Errorf("joined without the default streams: %v", got)
	}

	var linkID float64
	for _, inv := range admin.Get("/api/v1/invites", nil).OK().List("invites") {
		if inv := inv.(map[string]any); inv["link_url"] == without && inv["is_multiuse"] == true && inv["invited_as"] == float64(400) {
			linkID = inv["id"].(float64)
		}
	}
	if linkID == 0 {
		t.Fatalf("GET /invites does not list %s", without)
	}
	alice.Delete(fmt.Sprintf("/api/v1/invites/multiuse/%d", int64(linkID)), nil).Fails(400, "BAD_REQUEST")
	admin.Delete(fmt.Sprintf("/api/v1/invites/multiuse/%d", int64(linkID)), nil).OK()
	join(without, "jo@example.com").Fails(400, "BAD_REQUEST")
	if r := admin.Delete(fmt.Sprintf("/api/v1/invites/multiuse/%d", int64(linkID)), nil).Fails(400, "BAD_REQUEST"); r.Msg() != "Invitation has already been revoked" {
		t.Errorf("revoked again: %q", r.Msg())
	}
	admin.Delete("/api/v1/invites/multiuse/9999", nil).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": 0}).Fails(400, "REQUEST_VARIABLE_INVALID")

	// A deactivated administrator's links let nobody in.
	adaID := admin.Post("/api/v1/users", apitest.Form{"email": "ada@example.com", "password": "ada-pass-1", "full_name": "Ada"}).OK().Int("user_id")
	admin.Patch(fmt.Sprintf("/api/v1/users/%d", adaID), apitest.Form{"role": 200}).OK()
	ada := s.As("ada@example.com", s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "ada@example.com", "password": "ada-pass-1"}).OK().Str("api_key"))
	adas := ada.Post("/api/v1/invites/multiuse", nil).OK().Str("invite_link")
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", adaID), nil).OK()
	join(adas, "kai@example.com").Fails(400, "BAD_REQUEST")
}

// checkEmailInvites checks email invitations: who may send them (the
// realm's can_invite_users_group, and the role they give), the addresses
// already in use reported as Zulip reports them, GET /invites with
// notify_referrer_on_join, DELETE /invites/{id}, and the invitations to an
// address ending when it joins.
func checkEmailInvites(t *testing.T, s *apitest.Server) {
	admin, alice, guest := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("guest@example.com")
	noStreams := []int64{}
	if r := guest.Post("/api/v1/invites", apitest.Form{"invitee_emails": "kim@example.com", "stream_ids": noStreams}).Fails(400, "BAD_REQUEST"); r.Msg() != "Not allowed for guest users" {
		t.Errorf("guest: %q", r.Msg())
	}
	alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "kim@example.com", "stream_ids": noStreams, "invite_as": 200}).Fails(400, "BAD_REQUEST")
	alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "", "stream_ids": noStreams}).Fails(400, "BAD_REQUEST")
	alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "not an address", "stream_ids": noStreams}).Fails(400, "INVITATION_FAILED")

	r := alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "Kim <kim@example.com>, bob@example.com", "stream_ids": noStreams, "notify_referrer_on_join": false}).Fails(400, "INVITATION_FAILED")
	if errs := r.List("errors"); len(errs) != 1 || errs[0].([]any)[0] != "bob@example.com" || r.Body["sent_invitations"] != true {
		t.Errorf("already in use: %s", r.Raw)
	}
	invites := alice.Get("/api/v1/invites", nil).OK().List("invites")
	if len(invites) != 1 {
		t.Fatalf("alice's invitations %v", invites)
	}
	inv := invites[0].(map[string]any)
	if inv["email"] != "kim@example.com" || inv["is_multiuse"] != false || inv["notify_referrer_on_join"] != false || inv["invited_as"] != float64(400) || inv["expiry_date"] == nil {
		t.Errorf("invitation %v", inv)
	}
	if got := admin.Get("/api/v1/invites", nil).OK().List("invites"); len(got) != 1 {
		t.Errorf("an administrator manages every invitation: %v", got)
	}
	if got := s.Login("bob@example.com").Get("/api/v1/invites", nil).OK().List("invites"); len(got) != 0 {
		t.Errorf("bob sees alice's invitations: %v", got)
	}

	// kim joins through a link: the email invitation ends.
	link := admin.Post("/api/v1/invites/multiuse", nil).OK().Str("invite_link")
	key := strings.TrimSuffix(link[strings.Index(link, "/join/")+len("/join/"):], "/")
	s.Anonymous().Post("/accounts/invite", apitest.Form{"key": key, "email": "kim@example.com", "full_name": "Kim", "password": "kim-pass-1"}).OK()
	if got := alice.Get("/api/v1/invites", nil).OK().List("invites"); len(got) != 0 {
		t.Errorf("kim's invitation outlived kim joining: %v", got)
	}

	alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "lee@example.com", "stream_ids": noStreams, "invite_expires_in_minutes": "null"}).OK()
	lee := alice.Get("/api/v1/invites", nil).OK().List("invites")[0].(map[string]any)
	if lee["expiry_date"] != nil {
		t.Errorf("an invitation that never expires: %v", lee)
	}
	alice.Delete(fmt.Sprintf("/api/v1/invites/%d", int64(lee["id"].(float64))), nil).OK()
	alice.Delete(fmt.Sprintf("/api/v1/invites/%d", int64(lee["id"].(float64))), nil).Fails(400, "BAD_REQUEST")

	// Who may invite: invite_to_realm_policy until level 321, then
	// can_invite_users_group.
	admin.Patch("/api/v1/realm", apitest.Form{"can_invite_users_group": fmt.Sprintf(`{"new":%d}`, systemGroups(t, admin)["role:administrators"])}).OK()
	if r := alice.Post("/api/v1/invites", apitest.Form{"invitee_emails": "max@example.com", "stream_ids": noStreams}).Fails(400, "BAD_REQUEST"); r.Msg() != "Insufficient permission" {
		t.Errorf("a member under an administrators-only policy: %q", r.Msg())
	}
	admin.Post("/api/v1/invites", apitest.Form{"invitee_emails": "max@example.com", "stream_ids": noStreams}).OK()
}

// checkPushDevices checks the device registration a mobile app makes at
// sign-in, answered as a Zulip server with no push notifications
// configured answers it: the device is recorded (success), a second
// registration is no error, removing an unknown one is "Token does not
// exist", and appid is required for APNs tokens (level 223).
func checkPushDevices(t *testing.T, s *apitest.Server) {
	bob, bot := s.Login("bob@example.com"), s.Login("echo-bot@example.com")
	const apns, fcm = "/api/v1/users/me/apns_device_token", "/api/v1/users/me/android_gcm_reg_id"
	for _, tc := range []struct {
		name, method, path string
		form               apitest.Form
		code, msg          string // "" for success
	}{
		{"APNs without appid", "POST", apns, apitest.Form{"token": "c0ffee00"}, "REQUEST_VARIABLE_MISSING", "Missing 'appid' argument"},
		{"APNs with a malformed appid", "POST", apns, apitest.Form{"token": "c0ffee00", "appid": "org zulip"}, "BAD_REQUEST", "appid has invalid format"},
		{"APNs token that is not base64", "POST", apns, apitest.Form{"token": "abc", "appid": "org.zulip.Zulip"}, "BAD_REQUEST", "Invalid APNS token"},
		{"empty token", "POST", fcm, apitest.Form{"token": ""}, "BAD_REQUEST", "Empty or invalid length token"},
		{"APNs", "POST", apns, apitest.Form{"token": "c0ffee00", "appid": "org.zulip.Zulip"}, "", ""},
		{"APNs again", "POST", apns, apitest.Form{"token": "c0ffee00", "appid": "org.zulip.Zulip"}, "", ""},
		{"FCM", "POST", fcm, apitest.Form{"token": "android-token"}, "", ""},
		{"FCM token removed as APNs", "DELETE", apns, apitest.Form{"token": "android-token"}, "BAD_REQUEST", "Token does not exist"},
		{"FCM removed", "DELETE", fcm, apitest.Form{"token": "android-token"}, "", ""},
		{"FCM removed again", "DELETE", fcm, apitest.Form{"token": "android-token"}, "BAD_REQUEST", "Token does not exist"},
		{"APNs removed", "DELETE", apns, apitest.Form{"token": "c0ffee00"}, "", ""},
	} {
		var r *apitest.Response
		if tc.method == "POST" {
			r = bob.Post(tc.path, tc.form)
		} else {
			r = bob.Delete(tc.path, tc.form)
		}
		if tc.code == "" {
			if r.Status != 200 || r.Body["result"] != "success" {
				t.Errorf("%s: %s", tc.name, r)
			}
		} else if r.Status != 400 || r.Body["code"] != tc.code || r.Msg() != tc.msg {
			t.Errorf("%s: want %s %q, got %s", tc.name, tc.code, tc.msg, r)
		}
	}
	bot.Post(fcm, apitest.Form{"token": "bot-token"}).Fails(400, "BAD_REQUEST")
}

// checkTestPushNotification: levels 217 and 234. A device that is not the
// caller's is INVALID_PUSH_DEVICE_TOKEN; otherwise success, and nothing is
// pushed (see the exceptions in docs/api-coverage.md).
func checkTestPushNotification(t *testing.T, s *apitest.Server) {
	bob, alice := s.Login("bob@example.com"), s.Login("alice@example.com")
	const test = "/api/v1/mobile_push/test_notification"
	bob.Post("/api/v1/users/me/android_gcm_reg_id", apitest.Form{"token": "bobs-phone"}).OK()
	if r := alice.Post(test, apitest.Form{"token": "bobs-phone"}).Fails(400, "INVALID_PUSH_DEVICE_TOKEN"); r.Msg() != "Device not recognized" {
		t.Errorf("another's device: %q", r.Msg())
	}
	bob.Post(test, apitest.Form{"token": "bobs-phone"}).OK()
	bob.Post(test, nil).OK()
	s.Login("echo-bot@example.com").Post(test, nil).Fails(400, "BAD_REQUEST")
}

// checkNewSettings checks user settings a changelog entry added: register
// gives each its default (settings[name][0]), PATCH /settings stores a
// change (to settings[name][1]), announces it to the person's queue as a
// user_settings update, and the next register reads it back.
func checkNewSettings(t *testing.T, s *apitest.Server, settings map[string][2]any) {
	t.Helper()
	bob := s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_settings"}})
	got := q.state.Body["user_settings"].(map[string]any)
	for name, v := range settings {
		if got[name] != v[0] {
			t.Errorf("register's %s = %v, want the default %v", name, got[name], v[0])
		}
	}
	for name, v := range settings {
		bob.Patch("/api/v1/settings", apitest.Form{name: v[1]}).OK()
		evs := q.next()
		if len(evs) != 1 || evs[0]["type"] != "user_settings" || evs[0]["op"] != "update" ||
			evs[0]["property"] != name || evs[0]["value"] != v[1] {
			t.Errorf("%s: events %v", name, evs)
		}
	}
	got = bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"user_settings"}}).OK().Body["user_settings"].(map[string]any)
	for name, v := range settings {
		if got[name] != v[1] {
			t.Errorf("after the change register's %s = %v, want %v", name, got[name], v[1])
		}
	}
}
