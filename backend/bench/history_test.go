package bench

import (
	"testing"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// BenchmarkHistory measures the history action without HTTP, for profiling
// (go test -bench History -cpuprofile cpu.prof ./backend/bench).
func BenchmarkHistory(b *testing.B) {
	dir := b.TempDir()
	if err := Fixture(dir, 20000); err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := domain.New(st, domain.Config{Dev: true})
	var alice store.User
	st.View(func(tx *store.Tx) error { alice, err = tx.UserByEmail("alice@example.com"); return err })
	for _, bc := range []struct{ name, narrow string }{
		{"stream", `[["stream","general"]]`},
		{"topic", `[["stream","general"],["topic","topic 0"]]`},
		{"search", `[["search","kubernetes"]]`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			terms, err := domain.ParseNarrow(bc.narrow)
			if err != nil {
				b.Fatal(err)
			}
			q := domain.HistoryQuery{Anchor: "newest", NumBefore: 1000, IncludeAnchor: true, ApplyMarkdown: true, Narrow: terms}
			for b.Loop() {
				res, err := svc.Messages(alice, q)
				if err != nil || len(res.Messages) != 1000 {
					b.Fatalf("%d messages, %v", len(res.Messages), err)
				}
			}
		})
	}
}
