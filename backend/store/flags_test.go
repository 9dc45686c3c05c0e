package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// teamStore makes users 1..n subscribed to one stream and returns the
// stream's recipient ID.
func teamStore(t *testing.T, s *Store, n int) (streamID, rid int64) {
	t.Helper()
	err := s.Update(func(tx *Tx) error {
		st := Stream{Name: "team"}
		if err := tx.CreateStream(&st); err != nil {
			return err
		}
		streamID = st.ID
		for i := range n {
			u := User{Email: fmt.Sprintf("u%d@example.com", i), IsActive: true}
			if err := tx.CreateUser(&u); err != nil {
				return err
			}
			if err := tx.PutSubscription(Subscription{UserID: u.ID, StreamID: st.ID, Active: true}); err != nil {
				return err
			}
		}
		var err error
		rid, err = tx.RecipientID(st.ID, nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return streamID, rid
}

// send stores a stream message from sender (read by them) to every
// subscriber, as the domain does.
func send(t *testing.T, s *Store, streamID, rid, sender int64, flags map[int64]Flags) int64 {
	t.Helper()
	m := Message{SenderID: sender, RecipientID: rid, StreamID: streamID, Topic: "t", Content: "hello"}
	err := s.Update(func(tx *Tx) error {
		subscribers := tx.StreamSubscriberIDs(streamID)
		recipients := NewRecipients(subscribers, 0)
		for _, uid := range subscribers {
			recipients.Set(uid, flags[uid])
		}
		own, _ := recipients.Flags(sender)
		recipients.Set(sender, own|FlagRead)
		return tx.CreateMessage(&m, recipients)
	})
	if err != nil {
		t.Fatal(err)
	}
	return m.ID
}

func keyCount(t *testing.T, s *Store) int {
	t.Helper()
	n := 0
	s.View(func(tx *Tx) error {
		return tx.btx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			n += b.Stats().KeyN
			return nil
		})
	})
	return n
}

// A stream message writes the same keys whether 5 or 500 users receive
// it: recipients are implied by their subscriptions, not written.
func TestSendWritesNothingPerRecipient(t *testing.T) {
	written := map[int]int{}
	for _, n := range []int{5, 500} {
		s, _ := openTemp(t)
		streamID, rid := teamStore(t, s, n)
		send(t, s, streamID, rid, 1, nil) // the topic and its first run exist
		before := keyCount(t, s)
		for range 10 {
			send(t, s, streamID, rid, 1, nil)
		}
		written[n] = keyCount(t, s) - before
		s.Close()
	}
	if written[5] != written[500] {
		t.Errorf("10 messages wrote %d keys with 5 subscribers and %d with 500", written[5], written[500])
	}
}

// Subscribing, leaving and coming back decide who receives what: only
// messages sent while subscribed, unread until read, and marking reads in
// any order keeps the read state to a run per stretch of unread.
func TestSpansAndReadRunsFollowSubscriptionsAndReads(t *testing.T) {
	s, _ := openTemp(t)
	streamID, rid := teamStore(t, s, 3) // users 1, 2, 3
	leave := func(uid int64, active bool) {
		t.Helper()
		if err := s.Update(func(tx *Tx) error {
			return tx.PutSubscription(Subscription{UserID: uid, StreamID: streamID, Active: active})
		}); err != nil {
			t.Fatal(err)
		}
	}
	var ids []int64
	for range 3 {
		ids = append(ids, send(t, s, streamID, rid, 1, nil))
	}
	leave(3, false)
	ids = append(ids, send(t, s, streamID, rid, 1, nil)) // user 3 away
	leave(3, true)
	leave(2, false)
	leave(2, true) // left and back with nothing sent between: no gap
	ids = append(ids, send(t, s, streamID, rid, 1, map[int64]Flags{2: FlagMentioned}))
	for _, c := range []struct {
		user int64
		read []int64 // marked read, in this order
	}{
		{2, []int64{ids[2], ids[0], ids[4], ids[1]}},
		{3, []int64{ids[4]}},
	} {
		err := s.Update(func(tx *Tx) error {
			for _, id := range c.read {
				f, _ := tx.Flags(c.user, id)
				if err := tx.SetFlags(c.user, id, f|FlagRead); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	s.View(func(tx *Tx) error {
		for _, c := range []struct {
			user     int64
			received []int64
			unread   []int64
		}{
			{1, ids, nil},
			{2, ids, []int64{ids[3]}},
			{3, slices.Concat(ids[:3], ids[4:]), ids[:3]},
		} {
			var got []int64
			tx.Scan(UserRange(c.user), 0, false, func(id int64) bool { got = append(got, id); return true })
			if !slices.Equal(got, c.received) {
				t.Errorf("user %d received %v, want %v", c.user, got, c.received)
			}
			if got := tx.FlaggedIDs(c.user, IndexUnread); !slices.Equal(got, c.unread) {
				t.Errorf("user %d unread %v, want %v", c.user, got, c.unread)
			}
			var desc []int64
			tx.Scan(FlagRange(c.user, IndexUnread), ids[4], true, func(id int64) bool { desc = append(desc, id); return true })
			want := slices.Clone(c.unread)
			slices.Reverse(want)
			if !slices.Equal(desc, want) {
				t.Errorf("user %d unread descending %v, want %v reversed", c.user, desc, c.unread)
			}
		}
		if f, ok := tx.Flags(2, ids[4]); !ok || f != FlagRead|FlagMentioned {
			t.Errorf("user 2's flags on the mention: %v %v", f.Names(), ok)
		}
		if got := tx.FlaggedIDs(2, IndexMentioned); !slices.Equal(got, ids[4:]) {
			t.Errorf("user 2 mentioned in %v, want %v", got, ids[4:])
		}
		// User 2 read around the one unread message: two runs, whatever
		// the order of the reads.
		if rs := tx.readRuns(readRunKeyOf(2, rid, ids[0])); len(rs) != 4 {
			t.Errorf("user 2's runs %v, want two", rs)
		}
		return nil
	})
}

// MarkAllRead reads everything a user received up to the ID it is given,
// across read-run blocks and around a stretch away from the stream, and
// leaves later messages unread.
func TestMarkAllReadCoversEveryBlockUpToTheLastID(t *testing.T) {
	s, _ := openTemp(t)
	streamID, rid := teamStore(t, s, 2) // users 1, 2
	var ids []int64
	for range 3 {
		ids = append(ids, send(t, s, streamID, rid, 1, nil))
	}
	// Later IDs in further blocks: the message sequence jumps.
	if err := s.Update(func(tx *Tx) error {
		return tx.bucket(bucketMessages).SetSequence(uint64(3 << readRunBlockBits))
	}); err != nil {
		t.Fatal(err)
	}
	// A row of flags carries read itself, as an import writes it.
	ids = append(ids, send(t, s, streamID, rid, 1, map[int64]Flags{2: FlagMentioned | FlagRead}))
	last := ids[len(ids)-1]
	later := send(t, s, streamID, rid, 1, nil)
	var blocks []int64
	for _, id := range ids {
		if b := ReadRunBlock(id); !slices.Contains(blocks, b) {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) != 2 {
		t.Fatalf("messages in blocks %v, want two", blocks)
	}
	err := s.Update(func(tx *Tx) error {
		return tx.MarkAllRead(2, last, func(r int64) []int64 {
			if r != rid {
				return nil
			}
			return blocks
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		if got := tx.FlaggedIDs(2, IndexUnread); !slices.Equal(got, []int64{later}) {
			t.Errorf("user 2 unread %v, want only %d", got, later)
		}
		return nil
	})
}

// subscribersOf reads a stream's subscribers in a read transaction of its
// own.
func subscribersOf(t *testing.T, s *Store, streamID int64) []int64 {
	t.Helper()
	return viewed(t, s, func(tx *Tx) ([]int64, error) { return tx.StreamSubscriberIDs(streamID), nil })
}

// Subscriber lists are kept between transactions; each must still see the
// latest commit, its own writes and nothing of a rolled-back one.
func TestKeptSubscriberListsFollowWrites(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	streamID, _ := teamStore(t, s, 3)
	subscribe := func(tx *Tx, uid int64, active bool) error {
		return tx.PutSubscription(Subscription{UserID: uid, StreamID: streamID, Active: active})
	}
	if got := subscribersOf(t, s, streamID); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("created: %v", got)
	}
	// Callers own what they get: changing it changes nobody else's.
	if err := s.View(func(tx *Tx) error {
		slices.Reverse(tx.StreamSubscriberIDs(streamID))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := subscribersOf(t, s, streamID); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("after a caller changed its list: %v", got)
	}
	if err := s.Update(func(tx *Tx) error { return subscribe(tx, 2, false) }); err != nil {
		t.Fatal(err)
	}
	if got := subscribersOf(t, s, streamID); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("after one left: %v", got)
	}
	// A write sees its own change, before and after reading the list; a
	// rolled-back one leaves no trace.
	err := s.Update(func(tx *Tx) error {
		tx.StreamSubscriberIDs(streamID)
		if err := subscribe(tx, 2, true); err != nil {
			return err
		}
		if got := tx.StreamSubscriberIDs(streamID); !slices.Equal(got, []int64{1, 2, 3}) {
			t.Errorf("inside the write: %v", got)
		}
		return errors.New("roll back")
	})
	if err == nil {
		t.Fatal("the write did not fail")
	}
	if got := subscribersOf(t, s, streamID); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("after a rolled-back write: %v", got)
	}
	if err := s.Update(func(tx *Tx) error { return subscribe(tx, 1, false) }); err != nil {
		t.Fatal(err)
	}
	if got := subscribersOf(t, s, streamID); !slices.Equal(got, []int64{3}) {
		t.Errorf("after another left: %v", got)
	}
}
