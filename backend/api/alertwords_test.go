package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/domain"
)

func TestAlertWords(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"alert_words"}})
	res := bob.Post("/api/v1/users/me/alert_words", apitest.Form{"alert_words": []string{"Deploy", "outage"}}).OK()
	if got := res.List("alert_words"); len(got) != 2 {
		t.Errorf("after add: %v", got)
	}
	if got := types(q.next()); !slices.Equal(got, []string{"alert_words"}) {
		t.Errorf("events %v", got)
	}
	hit := send(t, alice, streamMsg("general", "ops", "the DEPLOY is done"))
	miss := send(t, alice, streamMsg("general", "ops", "redeployment tomorrow"))
	got, _ := history(t, bob, narrowed(`[["is","alerted"]]`))
	if !slices.Equal(got, []int64{hit}) {
		t.Errorf("is:alerted %v (miss %d)", got, miss)
	}
	bob.Delete("/api/v1/users/me/alert_words", apitest.Form{"alert_words": []string{"deploy"}}).OK()
	if got := bob.Get("/api/v1/users/me/alert_words", nil).OK().List("alert_words"); len(got) != 1 || got[0] != "outage" {
		t.Errorf("after delete: %v", got)
	}
	if state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"alert_words"}}).OK(); len(state.List("alert_words")) != 1 {
		t.Errorf("register alert_words %v", state.Body["alert_words"])
	}
	send(t, alice, streamMsg("general", "ops", "another deploy"))
	if got, _ := history(t, bob, narrowed(`[["is","alerted"]]`)); len(got) != 1 {
		t.Errorf("removed word still alerts: %v", got)
	}
	bob.Post("/api/v1/users/me/alert_words", apitest.Form{"alert_words": []string{" "}}).Fails(400, "BAD_REQUEST")
}

// TestAlertWordsAreBounded: a user's alert words are checked on every
// message they receive, so their number and length are limited; adding
// many at once is refused whole.
func TestAlertWordsAreBounded(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	const path = "/api/v1/users/me/alert_words"
	words := func(n int, prefix string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return out
	}
	bob.Post(path, apitest.Form{"alert_words": words(domain.MaxAlertWords+1, "w")}).Fails(400, "BAD_REQUEST")
	bob.Post(path, apitest.Form{"alert_words": []string{strings.Repeat("é", 101)}}).Fails(400, "BAD_REQUEST")
	if got := bob.Get(path, nil).OK().List("alert_words"); len(got) != 0 {
		t.Fatalf("a refused addition left %d words", len(got))
	}
	// Duplicates (in any case) count once.
	full := append(words(domain.MaxAlertWords-1, "w"), "W0", "w0", strings.Repeat("é", 100))
	if got := bob.Post(path, apitest.Form{"alert_words": full}).OK().List("alert_words"); len(got) != domain.MaxAlertWords {
		t.Fatalf("%d words after adding the maximum", len(got))
	}
	bob.Post(path, apitest.Form{"alert_words": []string{"W1"}}).OK() // already there
	res := bob.Post(path, apitest.Form{"alert_words": []string{"one-more"}}).Fails(400, "BAD_REQUEST")
	if !strings.Contains(res.Msg(), "1000") {
		t.Errorf("message %q", res.Msg())
	}
	bob.Delete(path, apitest.Form{"alert_words": []string{"w5"}}).OK()
	bob.Post(path, apitest.Form{"alert_words": []string{"one-more"}}).OK()
}
