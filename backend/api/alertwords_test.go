package api_test

import (
	"slices"
	"testing"

	"lanchat/backend/apitest"
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
