package domain

import (
	"errors"
	"testing"

	"lanchat/backend/store"
)

// FuzzNarrow parses arbitrary narrows and resolves them for a demo user
// against a real store: nothing may panic, and every failure is a domain
// error a client can read.
func FuzzNarrow(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[["stream","general"],["topic","lunch"]]`, `[{"operator":"dm","operand":[1,2]}]`,
		`[{"operator":"search","operand":"pizza","negated":true}]`, `[["is","unread"],["has","link"]]`,
		`[["near",5],["id","7"]]`, `[["sender","alice@example.com"]]`, `{"a":1}`, `[[1,2,3]]`, `[["in","home"]]`,
	} {
		f.Add(seed)
	}
	st, err := store.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	svc := New(st, Config{Dev: true})
	if err := svc.SeedDevOrganization(); err != nil {
		f.Fatal(err)
	}
	var alice store.User
	st.View(func(tx *store.Tx) error { alice, err = tx.UserByEmail("alice@example.com"); return err })
	f.Fuzz(func(t *testing.T, text string) {
		terms, err := ParseNarrow(text)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("parse error is not a domain error: %v", err)
			}
			return
		}
		_, err = svc.Messages(alice, HistoryQuery{Anchor: "newest", NumBefore: 5, IncludeAnchor: true, Narrow: terms})
		var de *Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("narrow %q: %v", text, err)
		}
	})
}
