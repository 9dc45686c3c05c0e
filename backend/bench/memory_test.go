package bench

import (
	"testing"

	"lanchat/backend/apitest"
)

// TestTeamDelivery signs a TeamFixture's people in as the web UI does and
// delivers to all of them over the WebSocket and by long-polling, as the
// memory figure does: every person must be in the stream the sender uses.
func TestTeamDelivery(t *testing.T) {
	dir := t.TempDir()
	const people, rounds = 6, 2
	if err := TeamFixture(dir, people); err != nil {
		t.Fatal(err)
	}
	srv := &Server{URL: apitest.StartIn(t, dir, true).URL}
	users, err := loginAll(srv, teamEmails(people))
	if err != nil {
		t.Fatal(err)
	}
	rig, err := newDeliveryRig(users, people, webUIQueues)
	if err != nil {
		t.Fatal(err)
	}
	for name, follow := range map[string]func(*Server, int) (Latencies, Latencies, error){"socket": rig.socket, "long-poll": rig.longPoll} {
		if l, _, err := follow(srv, rounds); err != nil || l.Count != people*rounds {
			t.Errorf("%s: %+v, %v; want %d deliveries", name, l, err, people*rounds)
		}
	}
}
