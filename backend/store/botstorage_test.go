package store

import (
	"slices"
	"testing"
)

// TestBotStorageIsPerUser: one user's entries never show in another's,
// whatever the IDs' bytes (user 1's key may start with user 256's bytes).
func TestBotStorageIsPerUser(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	err := s.Update(func(tx *Tx) error {
		for _, e := range []struct {
			user int64
			key  string
		}{{1, "b"}, {1, "a"}, {256, "a"}, {2, ""}} {
			if err := tx.PutBotStorage(e.user, BotStorageEntry{Key: e.key, Value: e.key + "!"}); err != nil {
				return err
			}
		}
		return tx.DeleteBotStorage(256, "a")
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][]BotStorageEntry{1: {{"a", "a!"}, {"b", "b!"}}, 2: {{"", "!"}}, 256: nil}
	s.View(func(tx *Tx) error {
		for user, entries := range want {
			got, err := tx.BotStorage(user)
			if err != nil || !slices.Equal(got, entries) {
				t.Errorf("user %d: %v %v, want %v", user, got, err, entries)
			}
		}
		return nil
	})
}
