package store

import (
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// viewed is what read returns in a read transaction of its own.
func viewed[T any](t *testing.T, s *Store, read func(*Tx) (T, error)) T {
	t.Helper()
	var v T
	if err := s.View(func(tx *Tx) (err error) {
		v, err = read(tx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReopenKeepsRecords(t *testing.T) {
	s, dir := openTemp(t)
	u := User{Email: "Ada@Example.com", FullName: "Ada", Role: RoleAdmin, IsActive: true}
	if err := s.Update(func(tx *Tx) error { return tx.CreateUser(&u) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *Tx) error {
		got, err := tx.UserByEmail("ada@example.COM")
		if err != nil {
			return err
		}
		if got.ID != u.ID || got.FullName != "Ada" {
			t.Errorf("got %+v, want %+v", got, u)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("consistency check: %v", err)
	}
}

// A store written before schema versions existed (an empty bbolt file with
// none of our buckets) is migrated to the current layout on open.
func TestOpenMigratesUnversionedStore(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(dir+"/"+FileName, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *Tx) error {
		v, err := readSchemaVersion(tx.btx)
		if err != nil || v != SchemaVersion {
			t.Errorf("schema version %d (%v), want %d", v, err, SchemaVersion)
		}
		for _, b := range allBuckets {
			if tx.bucket(b) == nil {
				t.Errorf("bucket %s missing after migration", b)
			}
		}
		return nil
	})
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	s, dir := openTemp(t)
	s.Update(func(tx *Tx) error { return writeSchemaVersion(tx.btx, SchemaVersion+1) })
	s.Close()
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a newer store: %v, want a 'newer' error", err)
	}
}

func TestIDsIncreaseAndEmailIndexFollowsRenames(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	err := s.Update(func(tx *Tx) error {
		a := User{Email: "a@x.org"}
		b := User{Email: "b@x.org"}
		if err := tx.CreateUser(&a); err != nil {
			return err
		}
		if err := tx.CreateUser(&b); err != nil {
			return err
		}
		if b.ID <= a.ID {
			t.Errorf("IDs %d then %d, want increasing", a.ID, b.ID)
		}
		a.Email = "new@x.org"
		if err := tx.PutUser(a); err != nil {
			return err
		}
		if _, err := tx.UserByEmail("a@x.org"); !errors.Is(err, ErrNotFound) {
			t.Errorf("old address still resolves: %v", err)
		}
		if got, err := tx.UserByEmail("NEW@x.org"); err != nil || got.ID != a.ID {
			t.Errorf("new address: %+v %v", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSubscriberIndex(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	err := s.Update(func(tx *Tx) error {
		st := Stream{Name: "General"}
		if err := tx.CreateStream(&st); err != nil {
			return err
		}
		for _, uid := range []int64{3, 1, 2} {
			if err := tx.PutSubscription(Subscription{UserID: uid, StreamID: st.ID, Active: true}); err != nil {
				return err
			}
		}
		if err := tx.PutSubscription(Subscription{UserID: 2, StreamID: st.ID, Active: false}); err != nil {
			return err
		}
		if got := tx.StreamSubscriberIDs(st.ID); len(got) != 2 || got[0] != 1 || got[1] != 3 {
			t.Errorf("subscribers %v, want [1 3]", got)
		}
		if tx.IsSubscribed(2, st.ID) || !tx.IsSubscribed(3, st.ID) {
			t.Error("IsSubscribed disagrees with the rows")
		}
		if byName, err := tx.StreamByName("general"); err != nil || byName.ID != st.ID {
			t.Errorf("StreamByName: %+v %v", byName, err)
		}
		subs, err := tx.UserSubscriptions(2)
		if err != nil || len(subs) != 1 || subs[0].Active {
			t.Errorf("inactive row not kept: %+v %v", subs, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// AccountsVersion moves with every committed write of an account, through
// Update and Batch alike, and not for a write that rolls back or touches
// no account.
func TestAccountsVersionMovesOnCommittedAccountWrites(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	u := User{Email: "ada@example.com", IsActive: true}
	steps := []struct {
		name  string
		write func() error
		moves bool
	}{
		{"create", func() error { return s.Update(func(tx *Tx) error { return tx.CreateUser(&u) }) }, true},
		{"change in a batch", func() error { return s.Batch(func(tx *Tx) error { u.FullName = "Ada"; return tx.PutUser(u) }) }, true},
		{"rolled back", func() error {
			s.Update(func(tx *Tx) error { tx.PutUser(u); return errors.New("no") })
			return nil
		}, false},
		{"no account", func() error {
			return s.Update(func(tx *Tx) error { return tx.PutUserGroup(UserGroup{ID: 1, Name: "g"}) })
		}, false},
	}
	for _, step := range steps {
		before := s.AccountsVersion()
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if moved := s.AccountsVersion() != before; moved != step.moves {
			t.Errorf("%s: version moved %v, want %v", step.name, moved, step.moves)
		}
	}
}

// Store.Reopen swaps the database file's handle in place: what was
// written stays, and the same Store goes on reading and writing.
func TestReopenInPlaceGoesOnWriting(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	for i, email := range []string{"a@example.com", "b@example.com"} {
		if i > 0 {
			if err := s.Reopen(); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Update(func(tx *Tx) error { return tx.CreateUser(&User{Email: email, IsActive: true}) }); err != nil {
			t.Fatal(err)
		}
	}
	s.View(func(tx *Tx) error {
		if users, err := tx.Users(); err != nil || len(users) != 2 {
			t.Errorf("users after reopening %v %v", users, err)
		}
		return nil
	})
}
