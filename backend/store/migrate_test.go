package store

import (
	"slices"
	"testing"
)

// reopen closes s and opens its directory again, migrating it; the store
// closes when the test ends.
func reopen(t *testing.T, s *Store, dir string) *Store {
	t.Helper()
	s.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A schema-3 store holding the topic names moves used to leave behind (the
// name before the move, another topic's name, an emptied topic) is
// repaired on open: each topic is named after its newest message.
func TestOpenRepairsTopicNamesOfSchema3(t *testing.T) {
	s, dir := openTemp(t)
	var ids []int64
	err := s.Update(func(tx *Tx) error {
		for _, topic := range []string{"alpha", "Beta", "beta", "gamma"} {
			m := Message{SenderID: 1, RecipientID: 1, StreamID: 7, Topic: topic, Content: "x"}
			if err := tx.CreateMessage(&m, Recipients{}); err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		// What the old write order stored: the moved-to topic under the
		// old name, and a topic whose messages have all gone.
		wrong := map[string]Topic{
			"beta":  {Name: "alpha", MaxID: ids[2]},
			"gamma": {Name: "Beta", MaxID: ids[3]},
			"gone":  {Name: "gone", MaxID: ids[0]},
		}
		for folded, tp := range wrong {
			if err := tx.put(bucketTopics, append(itob(7), folded...), tp); err != nil {
				return err
			}
		}
		return writeSchemaVersion(tx.btx, 3)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	var got []Topic
	s.View(func(tx *Tx) error {
		got, err = tx.StreamTopics(7)
		return err
	})
	want := []Topic{{"alpha", ids[0]}, {"beta", ids[2]}, {"gamma", ids[3]}}
	if !slices.Equal(got, want) {
		t.Errorf("topics after migration %+v, want %+v", got, want)
	}
}

// A schema-4 store's uploads, recorded without IDs, get distinct ones.
func TestOpenNumbersUploadsOfSchema4(t *testing.T) {
	s, dir := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		for _, path := range []string{"1/aa/x/a.txt", "1/bb/y/b.txt"} {
			if err := tx.put(bucketUploads, []byte(path), Upload{Path: path, OwnerID: 1}); err != nil {
				return err
			}
		}
		return writeSchemaVersion(tx.btx, 4)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	s.View(func(tx *Tx) error {
		list, err := tx.UserUploads(1)
		if err != nil || len(list) != 2 || list[0].ID == 0 || list[1].ID == 0 || list[0].ID == list[1].ID {
			t.Errorf("uploads after migration %+v (%v)", list, err)
		}
		return nil
	})
}
