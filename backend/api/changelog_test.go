package api_test

import (
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

// Each entry Lanchat announces (feature level 277) must hold; an entry that
// cannot is a documented exception in docs/api-coverage.md.
func TestChangelogEntries(t *testing.T) {
	for _, c := range changelogCases() {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, apitest.Start(t))
		})
	}
}

func changelogCases() []changelogCase {
	return []changelogCase{
		{"level 189: followed-topic notification settings are user settings", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{
				"enable_followed_topic_desktop_notifications":    {true, false},
				"enable_followed_topic_email_notifications":      {true, false},
				"enable_followed_topic_push_notifications":       {true, false},
				"enable_followed_topic_audible_notifications":    {true, false},
				"enable_followed_topic_wildcard_mentions_notify": {true, false},
			})
		}},
		{"level 245: web_font_size_px and web_line_height_percent are user settings", func(t *testing.T, s *apitest.Server) {
			checkNewSettings(t, s, map[string][2]any{"web_font_size_px": {float64(14), float64(20)}, "web_line_height_percent": {float64(122), float64(150)}})
			bob := s.Login("bob@example.com")
			for _, bad := range []apitest.Form{{"web_font_size_px": "big"}, {"web_font_size_px": 0}, {"web_line_height_percent": 5000}} {
				bob.Patch("/api/v1/settings", bad).Fails(400, "REQUEST_VARIABLE_INVALID")
			}
		}},
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
	}
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
