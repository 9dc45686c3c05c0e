package api_test

import (
	"testing"

	"lanchat/backend/apitest"
)

// A person's display and notification preferences follow the account: a
// change is stored, announced to their own queues only, and read back by
// the next register, as Zulip's user_settings.
func TestOwnPreferences(t *testing.T) {
	s := apitest.Start(t)
	bob, alice := s.Login("bob@example.com"), s.Login("alice@example.com")
	bq := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_settings"}})
	aq := registerQueue(t, alice, apitest.Form{"event_types": []string{"user_settings"}})

	bob.Patch("/api/v1/settings", apitest.Form{"color_scheme": 2, "enable_sounds": false}).OK()
	evs := bq.next()
	if len(evs) != 2 || evs[0]["type"] != "user_settings" || evs[0]["op"] != "update" ||
		evs[0]["property"] != "color_scheme" || evs[0]["value"] != float64(2) ||
		evs[1]["property"] != "enable_sounds" || evs[1]["value"] != false {
		t.Errorf("events %v", evs)
	}
	if evs := aq.next(); len(evs) != 0 {
		t.Errorf("alice heard bob's settings: %v", evs)
	}
	settings := func(c *apitest.Client) map[string]any {
		return c.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"user_settings"}}).OK().Body["user_settings"].(map[string]any)
	}
	if got := settings(bob); got["color_scheme"] != float64(2) || got["enable_sounds"] != false || got["enable_desktop_notifications"] != true {
		t.Errorf("bob's settings %v", got)
	}
	if got := settings(alice); got["color_scheme"] != float64(1) || got["enable_sounds"] != true {
		t.Errorf("alice's settings %v", got)
	}

	bob.Patch("/api/v1/settings", apitest.Form{"timezone": "Europe/Paris"}).OK()
	if tz := bob.Get("/api/v1/users/me", nil).OK().Str("timezone"); tz != "Europe/Paris" {
		t.Errorf("timezone %q", tz)
	}

	refusals := []struct {
		form apitest.Form
		code string
	}{
		{apitest.Form{"color_scheme": 9}, "REQUEST_VARIABLE_INVALID"},
		{apitest.Form{"color_scheme": "dark"}, "REQUEST_VARIABLE_INVALID"},
		{apitest.Form{"enable_sounds": "loud"}, "REQUEST_VARIABLE_INVALID"},
		{apitest.Form{"timezone": "Mars/Olympus"}, "REQUEST_VARIABLE_INVALID"},
	}
	for _, r := range refusals {
		bob.Patch("/api/v1/settings", r.form).Fails(400, r.code)
	}
	if got := settings(bob); got["color_scheme"] != float64(2) {
		t.Errorf("a refused change was kept: %v", got)
	}
}
