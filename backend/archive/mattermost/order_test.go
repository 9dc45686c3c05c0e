package mattermost

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestEntriesInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var es entries
	var want []entry
	// Enough for several chunks, with repeated times ordered by line.
	for i := range 3*chunkLen + 17 {
		e := entry{at: rng.Int64N(1000), num: int32(i / 3), reply: int32(i%3 - 1)}
		es.add(e)
		want = append(want, e)
	}
	if len(es) != 4 {
		t.Fatalf("%d chunks, want 4", len(es))
	}
	slices.SortFunc(want, compareEntries)
	var got []entry
	if err := es.inOrder(func(e entry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries out of order")
	}

	stop := errors.New("stop")
	n := 0
	if err := es.inOrder(func(entry) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("an error from yield: %v after %d entries", err, n)
	}
}
