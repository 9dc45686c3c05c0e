package domain

import (
	"errors"
	"testing"
	"time"

	"lanchat/backend/store"
)

// TestSendRechecksPermissionInItsWrite: a send resolves its stream and
// renders in a read transaction and stores in a later write; a role change
// landing between the two (here, made by the clock the send reads in
// between) must still stop it.
func TestSendRechecksPermissionInItsWrite(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := New(st, Config{Dev: true})
	if err := svc.SeedDevOrganization(); err != nil {
		t.Fatal(err)
	}
	var admin, bob store.User
	st.View(func(tx *store.Tx) error {
		admin, _ = tx.UserByEmail("admin@example.com")
		bob, err = tx.UserByEmail("bob@example.com")
		return err
	})
	out := OutgoingMessage{Type: "stream", Stream: "random", Topic: "t", Content: "a member may post to a public stream"}
	if _, err := svc.SendMessage(bob, out); err != nil {
		t.Fatalf("bob, a member, to random: %v", err)
	}
	demoted := false
	svc.now = func() time.Time {
		if !demoted {
			demoted = true
			guest := store.RoleGuest
			if err := svc.UpdateUser(admin, bob.ID, UserChange{Role: &guest}); err != nil {
				t.Fatal(err)
			}
		}
		return time.Now()
	}
	out.Content = "a guest may not, outside its streams"
	_, err = svc.SendMessage(bob, out)
	var de *Error
	if !demoted || !errors.As(err, &de) || de.Code != CodeStreamDoesNotExist {
		t.Errorf("send by bob demoted to guest between its read and its write: %v (demoted %v), want STREAM_DOES_NOT_EXIST", err, demoted)
	}
}
