package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

func TestUpdateStream(t *testing.T) {
	s := apitest.Start(t)
	admin, bob, alice := s.Login("admin@example.com"), s.Login("bob@example.com"), s.Login("alice@example.com")
	qBob := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream"}})
	qAlice := registerQueue(t, alice, apitest.Form{"event_types": []string{"stream"}})
	randomID := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	path := fmt.Sprintf("/api/v1/streams/%d", randomID)

	bob.Patch(path, apitest.Form{"description": "mine now"}).Fails(400, "BAD_REQUEST")
	admin.Patch(path, apitest.Form{"new_name": "general"}).Fails(400, "BAD_REQUEST")
	admin.Patch(path, nil).Fails(400, "BAD_REQUEST")
	admin.Patch(path, apitest.Form{"new_name": "watercooler", "description": "Chat **freely**"}).OK()
	evs := qBob.next()
	if got := types(evs); !slices.Equal(got, []string{"stream:update", "stream:update"}) {
		t.Fatalf("bob's events %v", got)
	}
	if evs[0]["property"] != "name" || evs[0]["value"] != "watercooler" || evs[0]["name"] != "random" {
		t.Errorf("rename event %v", evs[0])
	}
	if evs[1]["property"] != "description" || evs[1]["rendered_description"] == nil {
		t.Errorf("description event %v", evs[1])
	}
	qAlice.next()
	bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "watercooler"}).OK()

	// Making it private: bob (not subscribed) sees it go away.
	admin.Patch(path, apitest.Form{"is_private": true}).OK()
	if got := types(qBob.next()); !slices.Equal(got, []string{"stream:delete"}) {
		t.Errorf("bob after privatising: %v", got)
	}
	if got := types(qAlice.next()); !slices.Equal(got, []string{"stream:update"}) {
		t.Errorf("alice (subscribed) after privatising: %v", got)
	}
	bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "watercooler"}).Fails(400, "BAD_REQUEST")
	admin.Patch(path, apitest.Form{"is_private": false}).OK()
	if got := types(qBob.next()); !slices.Equal(got, []string{"stream:create"}) {
		t.Errorf("bob after publishing again: %v", got)
	}
}

func TestDeleteStream(t *testing.T) {
	s := apitest.Start(t)
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("random", "t", "soon gone"))
	qAlice := registerQueue(t, alice, apitest.Form{"event_types": []string{"stream", "subscription"}})
	qBob := registerQueue(t, bob, apitest.Form{"event_types": []string{"stream", "subscription"}})
	randomID := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")

	alice.Delete(fmt.Sprintf("/api/v1/streams/%d", randomID), nil).Fails(400, "BAD_REQUEST")
	admin.Delete(fmt.Sprintf("/api/v1/streams/%d", randomID), nil).OK()
	if got := types(qAlice.next()); !slices.Equal(got, []string{"subscription:remove", "stream:delete"}) {
		t.Errorf("alice: %v", got)
	}
	evs := qBob.next()
	if got := types(evs); !slices.Equal(got, []string{"stream:delete"}) {
		t.Fatalf("bob: %v", got)
	}
	// The stream's ID, as Zulip sends it since level 343; the deprecated
	// streams keep only the ID.
	if ids, gone := fmt.Sprint(evs[0]["stream_ids"]), fmt.Sprint(evs[0]["streams"]); ids != fmt.Sprintf("[%d]", randomID) || gone != fmt.Sprintf("[map[stream_id:%d]]", randomID) {
		t.Errorf("stream delete event %v", evs[0])
	}
	admin.Delete(fmt.Sprintf("/api/v1/streams/%d", randomID), nil).Fails(400, "BAD_REQUEST")
	alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).Fails(400, "BAD_REQUEST")
	if got := subNames(t, alice); slices.Contains(got, "random") {
		t.Errorf("still subscribed: %v", got)
	}
	bob.Get(msgPath(id, ""), nil).Fails(400, "BAD_REQUEST")
	// The name is free again.
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "random"}}}).OK()
	if newID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id"); newID == randomID {
		t.Errorf("stream ID %d reused", newID)
	}
}
