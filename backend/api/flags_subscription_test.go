package api_test

import (
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

// A stream's messages reach exactly those subscribed when each was sent:
// bob joins random late, leaves, and comes back. What he received is
// unread until read, counted in register, found by is:unread and the
// home view; what was sent while he was not subscribed is history (read,
// historical) and never becomes unread, neither when he marks everything
// read and then unread again nor when he stars it.
func TestUnreadFollowsSubscriptionHistory(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	bob.Post("/api/v1/mark_all_as_read", nil).OK() // the seeded messages
	subscribe := func(join bool) {
		t.Helper()
		if join {
			bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"random"}]`}).OK()
		} else {
			bob.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `["random"]`}).OK()
		}
	}
	before := send(t, alice, streamMsg("random", "gap", "before bob"))
	subscribe(true)
	during := send(t, alice, streamMsg("random", "gap", "while bob is here"))
	subscribe(false)
	away := send(t, alice, streamMsg("random", "gap", "bob is away"))
	subscribe(true)
	back := send(t, alice, streamMsg("random", "gap", "bob is back"))
	own := send(t, bob, streamMsg("random", "gap", "bob writes"))

	flags := func(id int64) []string {
		t.Helper()
		res := bob.Get("/api/v1/messages", apitest.Form{"anchor": id, "num_before": 0, "num_after": 0, "narrow": `[["stream","random"]]`}).OK()
		msgs := res.List("messages")
		if len(msgs) != 1 {
			t.Fatalf("message %d: %d messages", id, len(msgs))
		}
		var out []string
		for _, f := range msgs[0].(map[string]any)["flags"].([]any) {
			out = append(out, f.(string))
		}
		slices.Sort(out)
		return out
	}
	unread := func() []int64 {
		t.Helper()
		ids, _ := history(t, bob, narrowed(`[["stream","random"],["is","unread"]]`))
		return ids
	}
	count := func() int64 {
		t.Helper()
		return int64(bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"message"}}).OK().Body["unread_msgs"].(map[string]any)["count"].(float64))
	}
	for id, want := range map[int64][]string{
		before: {"historical", "read"}, during: nil, away: {"historical", "read"}, back: nil, own: {"read"},
	} {
		if got := flags(id); !slices.Equal(got, want) {
			t.Errorf("message %d: flags %v, want %v", id, got, want)
		}
	}
	if got := unread(); !slices.Equal(got, []int64{during, back}) {
		t.Errorf("unread %v, want %v", got, []int64{during, back})
	}
	if n := count(); n != 2 {
		t.Errorf("register counts %d unread, want 2", n)
	}
	received, _ := history(t, bob, narrowed(`[["streams","public"],["is","unread"]]`))
	if !slices.Equal(received, []int64{during, back}) {
		t.Errorf("unread in public streams %v", received)
	}
	home, _ := history(t, bob, narrowed(`[]`))
	if slices.Contains(home, before) || slices.Contains(home, away) || !slices.Contains(home, during) || !slices.Contains(home, own) {
		t.Errorf("home view %v holds history or misses received messages", home)
	}

	bob.Post("/api/v1/mark_all_as_read", nil).OK()
	if got := unread(); len(got) != 0 {
		t.Errorf("unread after mark_all_as_read: %v", got)
	}
	changed := bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{before, away, during, back}, "op": "remove", "flag": "read"}).OK().List("messages")
	if len(changed) != 2 {
		t.Errorf("marking unread changed %v, want only the two received", changed)
	}
	if got := unread(); !slices.Equal(got, []int64{during, back}) {
		t.Errorf("unread after marking unread %v, want %v", got, []int64{during, back})
	}
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{away}, "op": "add", "flag": "starred"}).OK()
	if got := flags(away); !slices.Equal(got, []string{"historical", "read", "starred"}) {
		t.Errorf("starred history: flags %v", got)
	}
	if got := unread(); !slices.Equal(got, []int64{during, back}) {
		t.Errorf("unread after starring history %v, want %v", got, []int64{during, back})
	}
}
