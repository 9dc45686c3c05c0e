package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// openTestdata opens a copy of a committed, gzipped store.
func openTestdata(t *testing.T, name string) *Store {
	t.Helper()
	dir := t.TempDir()
	gz, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var db bytes.Buffer
	if _, err := db.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), db.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A store written at schema 2 (a row per recipient and a flag index; made by
// that build through the domain: stars, mentions, a wildcard, alert words,
// a star on history, moves into public and private streams, a user who
// left a stream and came back) opens with every user's flags on every
// message as they were, the same messages received, and the same flag
// scans.
func TestOpenMigratesFlagRowsToSpans(t *testing.T) {
	s := openTestdata(t, "schema2-flags.db.gz")
	data, err := os.ReadFile(filepath.Join("testdata", "schema2-flags.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][3]int64 // user, message, flags, as the schema-2 build read them
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	want := map[[2]int64]Flags{}
	for _, r := range rows {
		want[[2]int64{r[0], r[1]}] = Flags(r[2])
	}
	s.View(func(tx *Tx) error {
		if v, _ := readSchemaVersion(tx.btx); v != SchemaVersion {
			t.Errorf("schema version %d, want %d", v, SchemaVersion)
		}
		users, err := tx.Users()
		if err != nil {
			t.Fatal(err)
		}
		maxID := tx.nextMessageID() - 1
		for _, u := range users {
			var received []int64
			indexed := map[FlagIndex][]int64{}
			for id := int64(1); id <= maxID; id++ {
				f, ok := tx.Flags(u.ID, id)
				wf, wok := want[[2]int64{u.ID, id}]
				if ok != wok || f != wf {
					t.Errorf("user %d, message %d: flags %v (held %v), want %v (held %v)", u.ID, id, f.Names(), ok, wf.Names(), wok)
				}
				if !wok {
					continue
				}
				received = append(received, id)
				for _, ix := range []FlagIndex{IndexUnread, IndexStarred, IndexMentioned, IndexAlerted} {
					if ix.holds(wf) {
						indexed[ix] = append(indexed[ix], id)
					}
				}
			}
			var got []int64
			tx.Scan(UserRange(u.ID), 0, false, func(id int64) bool { got = append(got, id); return true })
			if !slices.Equal(got, received) {
				t.Errorf("user %d received %v, want %v", u.ID, got, received)
			}
			for _, ix := range []FlagIndex{IndexUnread, IndexStarred, IndexMentioned, IndexAlerted} {
				if got := tx.FlaggedIDs(u.ID, ix); !slices.Equal(got, indexed[ix]) {
					t.Errorf("user %d, index %c: %v, want %v", u.ID, ix, got, indexed[ix])
				}
			}
		}
		if len(want) == 0 || maxID < 10 {
			t.Fatalf("testdata holds %d rows over %d messages", len(want), maxID)
		}
		return nil
	})
	// New messages reach exactly the streams' subscribers and the private
	// conversations' participants.
	err = s.Update(func(tx *Tx) error {
		streams, err := tx.Streams()
		if err != nil {
			return err
		}
		users, err := tx.Users()
		if err != nil {
			return err
		}
		check := func(m Message, want []int64) {
			for _, u := range users {
				f, ok := tx.Flags(u.ID, m.ID)
				if ok != slices.Contains(want, u.ID) || f != 0 {
					t.Errorf("new message %d to %d: user %d holds it %v with %v, want %v", m.ID, m.RecipientID, u.ID, ok, f.Names(), !ok)
				}
			}
		}
		for _, st := range streams {
			rid, err := tx.RecipientID(st.ID, nil)
			if err != nil {
				return err
			}
			subscribers := tx.StreamSubscriberIDs(st.ID)
			m := Message{SenderID: subscribers[0], RecipientID: rid, StreamID: st.ID, Topic: "after"}
			if err := tx.CreateMessage(&m, NewRecipients(subscribers, 0)); err != nil {
				return err
			}
			check(m, subscribers)
		}
		pair := []int64{users[1].ID, users[2].ID} // alice and bob wrote to each other
		rid, ok := tx.LookupRecipientID(0, pair)
		if !ok {
			t.Fatalf("no conversation between %v", pair)
		}
		m := Message{SenderID: pair[1], RecipientID: rid, PrivateUserIDs: pair}
		if err := tx.CreateMessage(&m, NewRecipients(pair, 0)); err != nil {
			return err
		}
		check(m, pair)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("consistency check: %v", err)
	}
}
