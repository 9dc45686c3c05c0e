package api_test

import (
	"fmt"
	"testing"

	"lanchat/backend/apitest"
)

// TestAdministratorOnlyActions runs every administrator-only action as a
// member, a guest and a bot (each refused, nothing changes), then as an
// administrator (it works, so the refusals are real).
func TestAdministratorOnlyActions(t *testing.T) {
	s := apitest.Start(t)
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	randomID := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	msg := send(t, alice, streamMsg("general", "roles", "keep me"))
	bobID := admin.Get("/api/v1/users", nil).OK().List("members")[2].(map[string]any)["user_id"].(float64)
	filterID := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://x.lan/{id}"}).OK().Int("id")

	actions := []probe{
		{"rename organization", "PATCH", "/api/v1/realm", apitest.Form{"name": "Taken Over"}},
		{"add linkifier", "POST", "/api/v1/realm/filters", apitest.Form{"pattern": `T(?P<n>[0-9]+)`, "url_template": "https://t.lan/{n}"}},
		{"edit linkifier", "PATCH", fmt.Sprintf("/api/v1/realm/filters/%d", filterID), apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://y.lan/{id}"}},
		{"create user", "POST", "/api/v1/users", apitest.Form{"email": "new@example.com", "password": "password1", "full_name": "New Person"}},
		{"change role", "PATCH", fmt.Sprintf("/api/v1/users/%d", int64(bobID)), apitest.Form{"role": 200}},
		{"edit stream", "PATCH", fmt.Sprintf("/api/v1/streams/%d", randomID), apitest.Form{"description": "mine"}},
		{"list all streams", "GET", "/api/v1/streams", apitest.Form{"include_all_active": true}},
		{"unsubscribe someone", "DELETE", "/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"general"}, "principals": []string{"bob@example.com"}}},
		{"delete message", "DELETE", fmt.Sprintf("/api/v1/messages/%d", msg), nil},
		{"deactivate user", "DELETE", fmt.Sprintf("/api/v1/users/%d", int64(bobID)), nil},
		{"delete stream", "DELETE", fmt.Sprintf("/api/v1/streams/%d", randomID), nil},
		{"delete linkifier", "DELETE", fmt.Sprintf("/api/v1/realm/filters/%d", filterID), nil},
	}
	for _, who := range []string{"alice@example.com", "guest@example.com", "echo-bot@example.com"} {
		c := s.Login(who)
		for _, a := range actions {
			if res := a.send(c); res.Status != 400 || res.Body["result"] != "error" {
				t.Errorf("%s may %s: %d %s", who, a.name, res.Status, res.Raw)
			}
		}
	}
	// Nothing changed.
	if s.Anonymous().Get("/api/v1/server_settings", nil).OK().Str("realm_name") != "Lanchat Dev" {
		t.Error("the organization was renamed")
	}
	alice.Get(msgPath(msg, ""), nil).OK()
	// The administrator may do all of it.
	for _, a := range actions {
		if res := a.send(admin); res.Status != 200 {
			t.Errorf("admin cannot %s: %d %s", a.name, res.Status, res.Raw)
		}
	}
}
