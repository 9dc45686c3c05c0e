package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// scanSearch is what SearchIDs must return, whether a message is pending
// or merged: the pending messages' scan run over every message.
func scanSearch(tx *Tx, query string) []int64 {
	words := SearchTerms(query)
	if len(words) == 0 {
		return nil
	}
	return tx.pendingSearchIDs(0, words)
}

var searchVocabulary = strings.Fields("apple apricot banana band bandana cherry kubernetes coffee café über zebra 42 4242")

func randomText(r *rand.Rand, words int) string {
	var b strings.Builder
	for range words {
		b.WriteString(searchVocabulary[r.IntN(len(searchVocabulary))])
		b.WriteString(" ")
	}
	return b.String()
}

// checkSearches compares SearchIDs with a scan for every word of the
// vocabulary, its prefixes and pairs of words.
func checkSearches(t *testing.T, s *Store, when string) {
	t.Helper()
	queries := []string{"", "nothing", "APPLE Band"}
	for _, w := range searchVocabulary {
		queries = append(queries, w, w[:1], w[:min(3, len(w))], w+" cherry", "topic "+w)
	}
	s.View(func(tx *Tx) error {
		for _, q := range queries {
			got, want := tx.SearchIDs(q), scanSearch(tx, q)
			if !slices.Equal(got, want) {
				t.Errorf("%s: search %q found %d messages %v, want %d %v", when, q, len(got), got, len(want), want)
			}
		}
		return nil
	})
}

// Searches find the same messages whether they are merged into the
// postings or still pending, through edits, moves and deletions on both
// sides of the watermark, and after the store is reopened.
func TestSearchAgreesWithAScanAcrossMerges(t *testing.T) {
	s, dir := openTemp(t)
	r := rand.New(rand.NewPCG(1, 2))
	var stored []Message
	send := func(n int) {
		err := s.Update(func(tx *Tx) error {
			for range n {
				m := Message{SenderID: 1, RecipientID: 1, StreamID: 7,
					Topic: "topic " + searchVocabulary[r.IntN(len(searchVocabulary))], Content: randomText(r, 1+r.IntN(6))}
				if err := tx.CreateMessage(&m, Recipients{}); err != nil {
					return err
				}
				stored = append(stored, m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	change := func(i int) {
		old := stored[i]
		m := old
		m.Content = randomText(r, 1+r.IntN(6))
		if r.IntN(2) == 0 {
			m.Topic = "topic " + searchVocabulary[r.IntN(len(searchVocabulary))]
		}
		if err := s.Update(func(tx *Tx) error { return tx.UpdateMessage(old, m) }); err != nil {
			t.Fatal(err)
		}
		stored[i] = m
	}
	remove := func(i int) {
		if err := s.Update(func(tx *Tx) error { return tx.DeleteMessage(stored[i], nil) }); err != nil {
			t.Fatal(err)
		}
		stored = slices.Delete(stored, i, i+1)
	}

	send(100) // all pending
	checkSearches(t, s, "100 pending")
	change(10)
	send(300) // one merge, in a transaction of single sends
	for i := 0; i < 100; i++ {
		send(1)
	}
	if through := viewed(t, s, func(tx *Tx) (int64, error) { return tx.searchIndexedThrough(), nil }); through < searchMergeEvery {
		t.Fatalf("watermark %d after %d sends: nothing merged", through, len(stored))
	}
	checkSearches(t, s, "merged and pending")
	for _, i := range []int{3, 200, 300, len(stored) - 2} { // merged, merged, merged, pending
		change(i)
	}
	remove(5)
	remove(len(stored) - 1)
	checkSearches(t, s, "after edits and deletions")
	send(600) // several merges in one transaction
	checkSearches(t, s, "after a large transaction")
	s = reopen(t, s, dir)
	checkSearches(t, s, "reopened")
}

// A term that recurs is one posting per block of IDs, not a key per
// message.
func TestPostingsHoldABlockOfMessagesPerKey(t *testing.T) {
	s, _ := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		for range 3 * searchMergeEvery {
			m := Message{SenderID: 1, RecipientID: 1, StreamID: 7, Topic: "t", Content: "coffee"}
			if err := tx.CreateMessage(&m, Recipients{}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		var keys []string
		c := tx.bucket(bucketSearchPostings).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			keys = append(keys, fmt.Sprintf("%q(%d)", k[:len(k)-9], len(v)))
		}
		// Merges at IDs 256, 512 and 768 took them all; blocks of 256 IDs
		// hold 1–255, 256–511, 512–767 and 768.
		want := []string{`"coffee"(255)`, `"coffee"(256)`, `"coffee"(256)`, `"coffee"(1)`, `"t"(255)`, `"t"(256)`, `"t"(256)`, `"t"(1)`}
		if !slices.Equal(keys, want) {
			t.Errorf("postings %v, want %v", keys, want)
		}
		return nil
	})
}
