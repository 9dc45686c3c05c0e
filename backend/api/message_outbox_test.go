package api_test

import (
	"testing"

	"lanchat/backend/apitest"
)

// A client's outbox repeats a send whose answer it never got (the server
// went away mid-request, or the page reloaded while it was away): the same
// queue_id and local_id, even across a restart, store one message and
// answer with its ID each time. Another local ID is another message.
func TestSendWithTheSameLocalIDStoresOneMessage(t *testing.T) {
	dir := t.TempDir()
	s := apitest.StartIn(t, dir, true)
	alice := s.Login("alice@example.com")
	f := streamMsg("general", "outbox", "said once")
	f["queue_id"], f["local_id"] = "page-1", "17.01"
	first := send(t, alice, f)
	if again := send(t, alice, f); again != first {
		t.Errorf("repeated send got ID %d, first %d", again, first)
	}
	s.Stop()
	s = apitest.StartIn(t, dir, true)
	alice = s.As(alice.Email(), alice.Key())
	if again := send(t, alice, f); again != first {
		t.Errorf("send repeated after a restart got ID %d, first %d", again, first)
	}
	other := streamMsg("general", "outbox", "said once")
	other["queue_id"], other["local_id"] = "page-1", "18.01"
	if id := send(t, alice, other); id == first {
		t.Errorf("another local ID got the same message %d", id)
	}
	// Another sender's send with the same IDs is theirs.
	bob := s.Login("bob@example.com")
	if id := send(t, bob, f); id == first {
		t.Errorf("bob's send with alice's local ID got her message %d", id)
	}
	ids, _ := history(t, alice, narrowed(`[["stream","general"],["topic","outbox"]]`))
	if len(ids) != 3 {
		t.Errorf("topic holds %v, want 3 messages", ids)
	}
}
