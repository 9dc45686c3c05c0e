package api_test

import (
	"testing"
	"time"

	"lanchat/backend/apitest"
)

func TestPresence(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	alice.Header = map[string][]string{"User-Agent": {"ZulipTerminal/0.7"}}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"presence"}})

	res := alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "new_user_input": true}).OK()
	if _, ok := res.Body["server_timestamp"].(float64); !ok {
		t.Errorf("server_timestamp %v", res.Body["server_timestamp"])
	}
	mine := res.Body["presences"].(map[string]any)["alice@example.com"].(map[string]any)
	if agg := mine["aggregated"].(map[string]any); agg["status"] != "active" || agg["client"] != "ZulipTerminal" {
		t.Errorf("aggregated %v", agg)
	}
	if ping := alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active", "ping_only": true}).OK(); ping.Body["presences"] != nil {
		t.Errorf("ping_only answered presences")
	}
	evs := q.next()
	if len(evs) != 1 || evs[0]["type"] != "presence" || evs[0]["email"] != "alice@example.com" {
		t.Fatalf("presence events %v (one for coming online, none for the unchanged ping)", evs)
	}
	alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "idle"}).OK()
	if got := types(q.next()); len(got) != 1 {
		t.Errorf("going idle: %v", got)
	}
	alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "away"}).Fails(400, "BAD_REQUEST")
	if msg := s.Login("echo-bot@example.com").Post("/api/v1/users/me/presence", apitest.Form{"status": "active"}).Fails(400, "BAD_REQUEST").Msg(); msg != "This endpoint does not accept bot requests." {
		t.Errorf("bot reporting presence: %q", msg)
	}

	for _, ref := range []string{"alice@example.com", "2"} {
		p := bob.Get("/api/v1/users/"+ref+"/presence", nil).OK().Body["presence"].(map[string]any)
		if p["aggregated"].(map[string]any)["status"] != "idle" || p["ZulipTerminal"] == nil {
			t.Errorf("presence of %s: %v", ref, p)
		}
	}
	if msg := bob.Get("/api/v1/users/nobody@x.org/presence", nil).Fails(400, "BAD_REQUEST").Msg(); msg != "No such user" {
		t.Errorf("unknown user: %q", msg)
	}
	if msg := bob.Get("/api/v1/users/guest@example.com/presence", nil).Fails(400, "BAD_REQUEST").Msg(); msg != "No presence data for guest@example.com" {
		t.Errorf("no data: %q", msg)
	}
	if msg := bob.Get("/api/v1/users/echo-bot@example.com/presence", nil).Fails(400, "BAD_REQUEST").Msg(); msg != "Presence is not supported for bot users." {
		t.Errorf("a bot's presence: %q", msg)
	}

	all := bob.Get("/api/v1/realm/presence", nil).OK().Body["presences"].(map[string]any)
	if _, ok := all["alice@example.com"]; !ok || len(all) != 1 {
		t.Errorf("realm presence %v", all)
	}
	slim := bob.Get("/api/v1/realm/presence", apitest.Form{"slim_presence": true}).OK().Body["presences"].(map[string]any)
	if entry, ok := slim["2"].(map[string]any); !ok || entry["idle_timestamp"] == nil || entry["active_timestamp"] == nil {
		t.Errorf("slim presence %v", slim)
	}
	state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"presence"}}).OK()
	if _, ok := state.Body["presences"].(map[string]any)["alice@example.com"]; !ok || state.Body["server_timestamp"] == nil {
		t.Errorf("register presence %v", state.Body["presences"])
	}

	// 141 seconds later alice counts as offline.
	s.Service().SetClock(func() time.Time { return time.Now().Add(141 * time.Second) })
	p := bob.Get("/api/v1/users/alice@example.com/presence", nil).OK().Body["presence"].(map[string]any)
	if p["aggregated"].(map[string]any)["status"] != "offline" {
		t.Errorf("after 141 s: %v", p["aggregated"])
	}

	// A deactivated user has no presence to show.
	s.Login("admin@example.com").Delete("/api/v1/users/2", nil).OK()
	if msg := bob.Get("/api/v1/users/alice@example.com/presence", nil).Fails(400, "BAD_REQUEST").Msg(); msg != "No such user" {
		t.Errorf("deactivated user: %q", msg)
	}
}
