package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// readName reads a user's name in a read transaction of its own.
func readName(t *testing.T, s *Store, id int64) string {
	t.Helper()
	return viewed(t, s, func(tx *Tx) (string, error) {
		u, err := tx.User(id)
		return u.FullName, err
	})
}

// Decoded users are shared between transactions; each must still see the
// latest commit, its own writes and nothing of a rolled-back one.
func TestCachedUsersFollowWrites(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	u := User{Email: "ada@example.com", FullName: "Ada", IsActive: true}
	if err := s.Update(func(tx *Tx) error { return tx.CreateUser(&u) }); err != nil {
		t.Fatal(err)
	}
	if got := readName(t, s, u.ID); got != "Ada" {
		t.Errorf("created: %q", got)
	}
	u.FullName = "Ada Lovelace"
	if err := s.Update(func(tx *Tx) error { return tx.PutUser(u) }); err != nil {
		t.Fatal(err)
	}
	if got := readName(t, s, u.ID); got != "Ada Lovelace" {
		t.Errorf("after the rename: %q", got)
	}

	// A write sees its own change; a rolled-back one leaves no trace.
	err := s.Update(func(tx *Tx) error {
		changed := u
		changed.FullName = "Countess"
		if err := tx.PutUser(changed); err != nil {
			return err
		}
		if got, _ := tx.User(u.ID); got.FullName != "Countess" {
			t.Errorf("inside the write: %q", got.FullName)
		}
		return errors.New("roll back")
	})
	if err == nil {
		t.Fatal("the write did not fail")
	}
	if got := readName(t, s, u.ID); got != "Ada Lovelace" {
		t.Errorf("after a rolled-back write: %q", got)
	}
}

// A reader whose snapshot predates a change gets the record its snapshot
// holds, though a newer reader has meanwhile cached the changed one: a cached
// record is used only for the very bytes it was decoded from. (Bytes stand
// for the two snapshots: a reader held open across a write can block that
// write's remapping of the file.)
func TestCachedRecordsMatchTheirBytes(t *testing.T) {
	c := decodeCache[User]{own: ownUser}
	old, renamed := []byte(`{"id":1,"full_name":"Ada"}`), []byte(`{"id":1,"full_name":"Ada Lovelace"}`)
	for _, step := range []struct {
		data []byte
		want string
	}{{old, "Ada"}, {renamed, "Ada Lovelace"}, {old, "Ada"}, {old, "Ada"}, {renamed, "Ada Lovelace"}} {
		got, err := c.decode(1, step.data)
		if err != nil || got.FullName != step.want {
			t.Errorf("decode %s: %q %v, want %q", step.data, got.FullName, err, step.want)
		}
	}
}

// Callers own what they read: changing it in place changes nothing cached.
func TestCachedUsersAreCopies(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	u := User{Email: "ada@example.com", AlertWords: []string{"engine"},
		Settings: map[string]any{"twenty_four_hour_time": true}, Status: &UserStatus{Text: "calculating"}}
	if err := s.Update(func(tx *Tx) error { return tx.CreateUser(&u) }); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the first read decodes, the second comes from the cache
		s.View(func(tx *Tx) error {
			got, err := tx.User(u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.AlertWords[0] != "engine" || got.Settings["twenty_four_hour_time"] != true || got.Status.Text != "calculating" {
				t.Errorf("read %+v %+v", got, *got.Status)
			}
			got.AlertWords[0], got.Status.Text = "changed", "changed"
			got.Settings["twenty_four_hour_time"] = false
			return nil
		})
	}
}

// A deactivated stream is gone even when its active record was cached.
func TestCachedStreamsFollowDeactivation(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	st := Stream{Name: "general"}
	if err := s.Update(func(tx *Tx) error { return tx.CreateStream(&st) }); err != nil {
		t.Fatal(err)
	}
	read := func() error { return s.View(func(tx *Tx) error { _, err := tx.Stream(st.ID); return err }) }
	if err := read(); err != nil {
		t.Fatal(err)
	}
	st.Deactivated = true
	if err := s.Update(func(tx *Tx) error { return tx.PutStream(st) }); err != nil {
		t.Fatal(err)
	}
	if err := read(); !errors.Is(err, ErrNotFound) {
		t.Errorf("deactivated stream: %v, want not found", err)
	}
}

// A change that keeps the record's length (a role, a flag, a same-length
// name) is as visible as any other, in every transaction after it and in no
// snapshot before it.
func TestCachedUsersFollowSameLengthChanges(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	u := User{Email: "ada@example.com", FullName: "Ada", Role: RoleMember, IsActive: true, APIKey: "bbbb"}
	if err := s.Update(func(tx *Tx) error { return tx.CreateUser(&u) }); err != nil {
		t.Fatal(err)
	}
	for _, change := range []func(*User){
		func(u *User) { u.FullName = "Eve" },
		func(u *User) { u.Role = RoleAdmin },
		func(u *User) { u.Role = RoleGuest },
		func(u *User) { u.APIKey = "cccc" },
	} {
		readName(t, s, u.ID) // cache the record as it is
		change(&u)
		if err := s.Update(func(tx *Tx) error { return tx.PutUser(u) }); err != nil {
			t.Fatal(err)
		}
		s.View(func(tx *Tx) error {
			got, err := tx.User(u.ID)
			if err != nil || got.FullName != u.FullName || got.Role != u.Role || got.APIKey != u.APIKey {
				t.Errorf("read %+v %v, want %+v", got, err, u)
			}
			return nil
		})
	}
}

// The cache keeps a decoded record, not the bytes it was decoded from: a
// thousand accounts whose records carry 4 KB each that no field keeps (what
// a newer version wrote, say) hold well under a megabyte.
func TestCachedRecordsKeepNoCopyOfTheirBytes(t *testing.T) {
	const records, padding = 1000, 4 << 10
	c := decodeCache[User]{own: ownUser}
	before := liveHeap()
	data := make([][]byte, records)
	for i := range data {
		data[i] = fmt.Appendf(nil, `{"id":%d,"full_name":"Ada","unknown":%q}`, i, strings.Repeat("x", padding))
	}
	for i, d := range data {
		if _, err := c.decode(int64(i), d); err != nil {
			t.Fatal(err)
		}
	}
	data = nil // the transactions' bytes are gone once they end
	if held := liveHeap() - before; held > records*padding/4 {
		t.Errorf("the cache holds %d bytes for %d records of %d bytes", held, records, padding)
	}
	runtime.KeepAlive(&c)
}

// liveHeap is the heap's live bytes after a full collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkCachedUser reads a typical account through the cache, as each
// request does several times: the check that the cached copy is current.
func BenchmarkCachedUser(b *testing.B) {
	c := decodeCache[User]{own: ownUser}
	data, err := json.Marshal(User{ID: 7, Email: "person7@example.com", FullName: "Person Seven", Role: RoleMember, IsActive: true,
		APIKey: strings.Repeat("k", 32), PasswordHash: strings.Repeat("p", 97), DateJoined: 1700000000, Timezone: "Europe/Berlin"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.decode(7, data); err != nil {
			b.Fatal(err)
		}
	}
}
