package domain

import (
	"strings"
	"testing"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// devService is a Service over a fresh store with the demo organization,
// and a lookup of its users by email.
func devService(t testing.TB) (*Service, func(email string) store.User) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := New(st, Config{Dev: true, DataDir: t.TempDir()})
	if err := svc.SeedDevOrganization(); err != nil {
		t.Fatal(err)
	}
	return svc, func(email string) store.User {
		var u store.User
		if err := st.View(func(tx *store.Tx) (err error) { u, err = tx.UserByEmail(email); return err }); err != nil {
			t.Fatal(err)
		}
		return u
	}
}

// stuckNarrow holds every fan-out that reaches its queue inside narrow
// matching until released, as a very slow narrow would.
type stuckNarrow struct{ entered, release chan struct{} }

func (n stuckNarrow) Match(*events.Candidate, store.Flags) bool {
	select {
	case n.entered <- struct{}{}:
	default:
	}
	<-n.release
	return true
}

// TestRegisterAndSendsDoNotWaitBehindAFanOut: while one send's fan-out is
// stuck matching a queue's narrow, another user registers a queue and
// sends a message. Before, the fan-out held the publish lock, registration
// waited for it exclusively and every later send queued behind that.
func TestRegisterAndSendsDoNotWaitBehindAFanOut(t *testing.T) {
	svc, user := devService(t)
	alice, bob, admin := user("alice@example.com"), user("bob@example.com"), user("admin@example.com")
	stuck := stuckNarrow{entered: make(chan struct{}, 1), release: make(chan struct{})}
	svc.events.Register(events.QueueOptions{UserID: bob.ID, Narrow: stuck})
	slow := make(chan error, 1)
	go func() {
		_, err := svc.SendMessage(alice, OutgoingMessage{Type: "stream", Stream: "general", Topic: "t", Content: "to everyone"})
		slow <- err
	}()
	<-stuck.entered
	finishes := func(what string, f func() error) {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(10 * time.Second): // a deadlock detector, not a speed limit
			t.Fatalf("%s waits behind a fan-out stuck in a narrow", what)
		}
	}
	finishes("register", func() error { _, err := svc.Register(admin, RegisterRequest{}); return err })
	finishes("a send to others", func() error {
		_, err := svc.SendMessage(admin, OutgoingMessage{Type: "private", To: []string{"alice@example.com"}, Content: "hi"})
		return err
	})
	finishes("a second registration", func() error { _, err := svc.Register(alice, RegisterRequest{}); return err })
	close(stuck.release)
	if err := <-slow; err != nil {
		t.Fatal(err)
	}
}

// TestSearchNarrowsSplitAMessageOnce: a message is split into words once
// per publish, however many queues' search terms look at it (before, once
// per term per queue: 60,000 terms cost seconds per send).
func TestSearchNarrowsSplitAMessageOnce(t *testing.T) {
	svc, user := devService(t)
	alice := user("alice@example.com")
	terms := []NarrowTerm{{Operator: "search", Operand: "lunch"}, {Operator: "search", Operand: "pizza tomorrow"}}
	narrows := make([]*Narrow, 50)
	err := svc.store.View(func(tx *store.Tx) (err error) {
		for i := range narrows {
			if narrows[i], err = resolveNarrow(tx, alice, terms); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := store.Message{Content: strings.Repeat("pizza for lunch tomorrow, maybe ", 300), Topic: "food"}
	matchAll := func(narrows []*Narrow) func() {
		return func() {
			c := &events.Candidate{Message: m}
			for _, n := range narrows {
				if !n.Match(c, 0) {
					t.Fatal("no match")
				}
			}
		}
	}
	one, all := testing.AllocsPerRun(5, matchAll(narrows[:1])), testing.AllocsPerRun(5, matchAll(narrows))
	if all > one {
		t.Errorf("matching 50 queues' narrows allocates %v times, one queue's %v", all, one)
	}
}
