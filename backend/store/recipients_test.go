package store

import (
	"maps"
	"testing"
)

func TestRecipientsFlags(t *testing.T) {
	mentioned := func() Recipients {
		r := NewRecipients([]int64{9, 3, 5}, 0) // unsorted on purpose
		r.Set(5, FlagMentioned)
		r.Set(1, FlagRead) // the sender, not subscribed
		return r
	}
	wildcard := func() Recipients {
		r := NewRecipients([]int64{3, 5}, FlagWildcardMentioned)
		r.Set(3, FlagRead)
		return r
	}
	oneByOne := func() Recipients {
		var r Recipients
		r.Set(2, 0)
		r.Set(4, FlagStarred)
		return r
	}
	imported := func() Recipients {
		r := wildcard()
		r.Set(7, 0)
		r.ReadWhereFlagged()
		return r
	}
	for _, tc := range []struct {
		name    string
		r       Recipients
		all     map[int64]Flags
		flagged map[int64]Flags
		len     int
	}{
		{"mentioned", mentioned(), map[int64]Flags{1: FlagRead, 3: 0, 5: FlagMentioned, 9: 0},
			map[int64]Flags{1: FlagRead, 5: FlagMentioned}, 4},
		{"wildcard", wildcard(), map[int64]Flags{3: FlagRead, 5: FlagWildcardMentioned},
			map[int64]Flags{3: FlagRead, 5: FlagWildcardMentioned}, 2},
		{"imported", imported(), map[int64]Flags{3: FlagRead, 5: FlagWildcardMentioned | FlagRead, 7: 0},
			map[int64]Flags{3: FlagRead, 5: FlagWildcardMentioned | FlagRead, 7: 0}, 3},
		{"one by one", oneByOne(), map[int64]Flags{2: 0, 4: FlagStarred},
			map[int64]Flags{2: 0, 4: FlagStarred}, 2},
		{"none", Recipients{}, map[int64]Flags{}, map[int64]Flags{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := maps.Collect(tc.r.All()); !maps.Equal(got, tc.all) {
				t.Errorf("All() = %v, want %v", got, tc.all)
			}
			if got := maps.Collect(tc.r.Flagged()); !maps.Equal(got, tc.flagged) {
				t.Errorf("Flagged() = %v, want %v", got, tc.flagged)
			}
			if got := tc.r.Len(); got != tc.len {
				t.Errorf("Len() = %d, want %d", got, tc.len)
			}
			for uid, want := range tc.all {
				if got, ok := tc.r.Flags(uid); !ok || got != want {
					t.Errorf("Flags(%d) = %v, %v; want %v, true", uid, got, ok, want)
				}
			}
			if f, ok := tc.r.Flags(100); ok {
				t.Errorf("Flags(100) = %v, true; want no holder", f)
			}
			n := 0
			for uid := range tc.r.Holders() {
				if _, ok := tc.all[uid]; !ok {
					t.Errorf("Holders() yields %d, who holds nothing", uid)
				}
				n++
			}
			if n != len(tc.all) {
				t.Errorf("Holders() yields %d, want %d", n, len(tc.all))
			}
		})
	}
}
