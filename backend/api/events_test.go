package api_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/events"
)

// queue is a registered event queue read over HTTP.
type queue struct {
	t      *testing.T
	c      *apitest.Client
	id     string
	lastID int64
	state  *apitest.Response
}

func registerQueue(t *testing.T, c *apitest.Client, f apitest.Form) *queue {
	t.Helper()
	res := c.Post("/api/v1/register", f).OK()
	return &queue{t: t, c: c, id: res.Str("queue_id"), lastID: res.Int("last_event_id"), state: res}
}

// next returns the queue's pending events without blocking, acknowledging
// them.
func (q *queue) next() []map[string]any {
	q.t.Helper()
	return q.fetch(apitest.Form{"dont_block": true})
}

func (q *queue) fetch(extra apitest.Form) []map[string]any {
	q.t.Helper()
	f := apitest.Form{"queue_id": q.id, "last_event_id": q.lastID}
	for k, v := range extra {
		f[k] = v
	}
	var out []map[string]any
	for _, e := range q.c.Get("/api/v1/events", f).OK().List("events") {
		ev := e.(map[string]any)
		q.lastID = int64(ev["id"].(float64))
		out = append(out, ev)
	}
	return out
}

func types(evs []map[string]any) []string {
	var out []string
	for _, e := range evs {
		t := e["type"].(string)
		if op, ok := e["op"].(string); ok {
			t += ":" + op
		}
		out = append(out, t)
	}
	return out
}

func TestRegisterInitialState(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	alice := s.Login("alice@example.com")
	pm := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "hi @**Bob Brown**"})
	res := bob.Post("/api/v1/register", apitest.Form{"include_subscribers": true}).OK()
	for _, key := range []string{"queue_id", "last_event_id", "zulip_version", "zulip_feature_level", "chat_version",
		"max_message_id", "realm_users", "realm_non_active_users", "cross_realm_bots", "subscriptions", "unsubscribed",
		"never_subscribed", "realm_user_groups", "muted_topics", "user_topics", "unread_msgs", "starred_messages",
		"recent_private_conversations", "realm_name", "max_message_length", "realm_filters", "realm_linkifiers",
		"streams", "alert_words", "user_settings", "user_id", "email", "full_name"} {
		if _, ok := res.Body[key]; !ok {
			t.Errorf("register lacks %q", key)
		}
	}
	if res.Int("last_event_id") != -1 || res.Int("max_message_id") != pm {
		t.Errorf("last_event_id %v max_message_id %v (pm %d)", res.Body["last_event_id"], res.Body["max_message_id"], pm)
	}
	unread := res.Body["unread_msgs"].(map[string]any)
	pms := unread["pms"].([]any)
	if len(pms) != 1 || pms[0].(map[string]any)["sender_id"] == nil || fmt.Sprint(pms[0].(map[string]any)["unread_message_ids"]) != fmt.Sprintf("[%d]", pm) {
		t.Errorf("unread pms %v", pms)
	}
	if !slices.Contains(unread["mentions"].([]any), any(float64(pm))) || unread["count"].(float64) < 1 {
		t.Errorf("unread mentions/count %v", unread)
	}
	for _, key := range []string{"streams", "huddles", "old_unreads_missing"} {
		if _, ok := unread[key]; !ok {
			t.Errorf("unread_msgs lacks %q", key)
		}
	}
	var names []string
	for _, sub := range res.List("subscriptions") {
		m := sub.(map[string]any)
		names = append(names, m["name"].(string))
		if _, ok := m["subscribers"].([]any); !ok {
			t.Errorf("subscription without subscribers IDs: %v", m)
		}
	}
	var never []string
	for _, st := range res.List("never_subscribed") {
		never = append(never, st.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, []string{"general"}) || !slices.Equal(never, []string{"random"}) {
		t.Errorf("subscribed %v never %v (secret must not appear)", names, never)
	}
	// fetch_event_types narrows the state.
	small := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"message"}}).OK()
	if _, ok := small.Body["realm_users"]; ok {
		t.Errorf("realm_users sent without being asked for")
	}
	bob.Post("/api/v1/register", apitest.Form{"event_types": "message"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	// Zulip checks a queue's narrow for its operators only.
	bob.Post("/api/v1/register", apitest.Form{"narrow": `[["frob","x"]]`}).Fails(400, "BAD_NARROW")
}

func TestLongPollWakesOnNewMessage(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "apply_markdown": true})
	got := make(chan []map[string]any, 1)
	go func() { got <- q.fetch(nil) }()
	time.Sleep(100 * time.Millisecond)
	id := send(t, alice, streamMsg("general", "wake", "wake up"))
	select {
	case evs := <-got:
		msg := evs[0]["message"].(map[string]any)
		if evs[0]["type"] != "message" || int64(msg["id"].(float64)) != id || msg["content"] != "<p>wake up</p>" {
			t.Errorf("event %v", evs[0])
		}
		if flags := evs[0]["flags"].([]any); len(flags) != 0 {
			t.Errorf("bob's flags %v, want [] (unread)", flags)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("long-poll not woken by a new message")
	}
}

func TestHeartbeatGCAndBadQueue(t *testing.T) {
	s := apitest.StartEvents(t, events.Settings{Heartbeat: 50 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, MaxEvents: 100})
	bob := s.Login("bob@example.com")
	q := registerQueue(t, bob, nil)
	if evs := q.fetch(nil); !slices.Equal(types(evs), []string{"heartbeat"}) {
		t.Errorf("want a heartbeat, got %v", types(evs))
	}
	time.Sleep(700 * time.Millisecond)
	res := bob.Get("/api/v1/events", apitest.Form{"queue_id": q.id, "last_event_id": q.lastID}).Fails(400, "BAD_EVENT_QUEUE_ID")
	if res.Body["queue_id"] != q.id {
		t.Errorf("BAD_EVENT_QUEUE_ID without queue_id: %s", res.Raw)
	}
	bob.Get("/api/v1/events", apitest.Form{"queue_id": "nonsense"}).Fails(400, "BAD_EVENT_QUEUE_ID")
	// Another user's queue is as good as missing.
	q2 := registerQueue(t, bob, nil)
	s.Login("alice@example.com").Get("/api/v1/events", apitest.Form{"queue_id": q2.id, "dont_block": true}).Fails(400, "BAD_EVENT_QUEUE_ID")
	bob.Delete("/api/v1/events", apitest.Form{"queue_id": q2.id}).OK()
	bob.Get("/api/v1/events", apitest.Form{"queue_id": q2.id, "dont_block": true}).Fails(400, "BAD_EVENT_QUEUE_ID")
}

func TestImplicitRegistration(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	res := bob.Get("/api/v1/events", apitest.Form{"dont_block": true, "event_types": []string{"message"}}).OK()
	qid := res.Str("queue_id")
	send(t, s.Login("alice@example.com"), streamMsg("general", "t", "hello"))
	evs := bob.Get("/api/v1/events", apitest.Form{"queue_id": qid, "last_event_id": -1, "dont_block": true}).OK().List("events")
	if len(evs) != 1 || evs[0].(map[string]any)["type"] != "message" {
		t.Errorf("implicit queue events %v", evs)
	}
}

func TestMessageEventsReachExactlyTheRightQueues(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	qBob := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}})
	qBobPublic := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "all_public_streams": true})
	guest.Post("/api/v1/register", apitest.Form{"all_public_streams": true}).Fails(400, "BAD_REQUEST")
	qGuest := registerQueue(t, guest, apitest.Form{"event_types": []string{"message"}})
	qBobLunch := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "narrow": `[["stream","general"],["topic","lunch"]]`})
	qAlice := registerQueue(t, alice, apitest.Form{"event_types": []string{"message"}})
	// A narrow naming a stream that does not exist, or one hidden from the
	// user, is accepted as Zulip does, and matches nothing.
	qBobNowhere := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "narrow": `[["stream","nowhere"]]`})
	qBobSecret := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}, "narrow": `[["stream","secret"]]`})

	inGeneral := send(t, alice, streamMsg("general", "lunch", "pizza"))
	otherTopic := send(t, alice, streamMsg("general", "work", "deploy"))
	inRandom := send(t, alice, streamMsg("random", "x", "random thought"))
	inSecret := send(t, alice, streamMsg("secret", "x", "secret thought"))
	pm := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "psst", "queue_id": qAlice.id, "local_id": "42"})

	ids := func(q *queue) []int64 {
		var out []int64
		for _, e := range q.next() {
			out = append(out, int64(e["message"].(map[string]any)["id"].(float64)))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    *queue
		want []int64
	}{
		{"bob", qBob, []int64{inGeneral, otherTopic, pm}},
		{"bob all public", qBobPublic, []int64{inGeneral, otherTopic, inRandom, pm}},
		{"guest", qGuest, []int64{inGeneral, otherTopic}},
		{"bob narrowed to lunch", qBobLunch, []int64{inGeneral}},
		{"alice", qAlice, []int64{inGeneral, otherTopic, inRandom, inSecret, pm}},
		{"bob narrowed to a stream that does not exist", qBobNowhere, nil},
		{"bob narrowed to a stream hidden from him", qBobSecret, nil},
	} {
		if got := ids(tc.q); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// The sender's own queue echoes local_id for the message sent with it.
	last := registerQueue(t, alice, apitest.Form{"event_types": []string{"message"}})
	send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "again", "queue_id": last.id, "local_id": "7"})
	if evs := last.next(); evs[0]["local_message_id"] != "7" {
		t.Errorf("local_message_id %v", evs[0]["local_message_id"])
	}
}

func TestEventTypesForActions(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	qAlice := registerQueue(t, alice, nil)
	qBob := registerQueue(t, bob, nil)
	qGuest := registerQueue(t, s.Login("guest@example.com"), nil)

	id := send(t, alice, streamMsg("general", "t", "hello"))
	qAlice.next()
	qBob.next()
	qGuest.next()

	check := func(name string, q *queue, want ...string) []map[string]any {
		t.Helper()
		evs := q.next()
		if got := types(evs); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
		return evs
	}
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{id}, "op": "add", "flag": "starred"}).OK()
	evs := check("bob stars", qBob, "update_message_flags:add")
	if evs[0]["flag"] != "starred" || fmt.Sprint(evs[0]["messages"]) != fmt.Sprintf("[%d]", id) || evs[0]["all"] != false {
		t.Errorf("flags event %v", evs[0])
	}
	check("alice hears nothing of bob's star", qAlice)
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{id}, "op": "add", "flag": "read"}).OK()
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{id}, "op": "remove", "flag": "read"}).OK()
	evs = check("bob reads and unreads", qBob, "update_message_flags:add", "update_message_flags:remove")
	if details := evs[1]["message_details"].(map[string]any)[fmt.Sprint(id)].(map[string]any); details["type"] != "stream" || details["topic"] != "t" {
		t.Errorf("message_details %v", details)
	}
	bob.Post("/api/v1/mark_all_as_read", nil).OK()
	evs = check("mark all", qBob, "update_message_flags:add")
	if evs[0]["all"] != true || len(evs[0]["messages"].([]any)) != 0 {
		t.Errorf("mark-all event %v", evs[0])
	}

	alice.Patch(msgPath(id, ""), apitest.Form{"content": "hello, edited"}).OK()
	evs = check("bob sees the edit", qBob, "update_message")
	if evs[0]["rendered_content"] != "<p>hello, edited</p>" || evs[0]["orig_content"] != "hello" || evs[0]["flags"] == nil {
		t.Errorf("update_message %v", evs[0])
	}
	check("alice sees her edit", qAlice, "update_message")
	alice.Patch(msgPath(id, ""), apitest.Form{"topic": "renamed"}).OK()
	evs = check("topic move", qBob, "update_message")
	if evs[0]["orig_subject"] != "t" || evs[0]["subject"] != "renamed" || evs[0]["stream_id"] == nil || evs[0]["message_ids"] == nil {
		t.Errorf("move event %v", evs[0])
	}
	qAlice.next()
	qGuest.next()
	admin.Delete(msgPath(id, ""), nil).OK()
	evs = check("delete", qBob, "delete_message")
	if int64(evs[0]["message_id"].(float64)) != id || evs[0]["message_type"] != "stream" || evs[0]["topic"] != "renamed" {
		t.Errorf("delete event %v", evs[0])
	}
	check("guest had the message too", qGuest, "delete_message")
	qAlice.next()

	bob.Post("/api/v1/typing", apitest.Form{"op": "start", "to": `["alice@example.com"]`}).OK()
	evs = check("alice sees bob typing", qAlice, "typing:start")
	if evs[0]["sender"].(map[string]any)["email"] != "bob@example.com" || len(evs[0]["recipients"].([]any)) != 2 {
		t.Errorf("typing event %v", evs[0])
	}
	check("bob does not hear himself type", qBob)
	bob.Post("/api/v1/typing", apitest.Form{"op": "dance", "to": `["alice@example.com"]`}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/typing", apitest.Form{"op": "start", "to": `["ghost@example.com"]`}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/typing", apitest.Form{"op": "start", "to": "5"}).OK() // zulip-js sends a bare id

	// Subscriptions: a new private stream is announced only to its members.
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "bobs-den"}}, "invite_only": true}).OK()
	check("bob creates a private stream", qBob, "stream:create", "subscription:add")
	check("alice does not hear of it", qAlice)
	check("guest does not hear of it", qGuest)
	bob.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "bobs-den"}}, "principals": []string{"alice@example.com"}}).OK()
	// As in Zulip, someone added to a private stream is told of it first.
	check("alice is added", qAlice, "stream:create", "subscription:add")
	check("bob sees alice join", qBob, "subscription:peer_add")
	alice.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"bobs-den"}}).OK()
	check("alice leaves", qAlice, "subscription:remove")
	check("bob sees alice leave", qBob, "subscription:peer_remove")
	bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{{"stream_id": 1, "property": "is_muted", "value": true}}}).OK()
	evs = check("mute stream", qBob, "subscription:update", "subscription:update")
	if evs[1]["property"] != "in_home_view" || evs[1]["value"] != false {
		t.Errorf("legacy in_home_view event %v", evs[1])
	}
	bob.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream": "general", "topic": "noise", "op": "add"}).OK()
	evs = check("mute topic", qBob, "muted_topics", "user_topic")
	if mt := evs[0]["muted_topics"].([]any); len(mt) != 1 || len(mt[0].([]any)) != 3 {
		t.Errorf("muted_topics %v", mt)
	}
	if evs[1]["visibility_policy"] != float64(1) || evs[1]["topic_name"] != "noise" {
		t.Errorf("user_topic %v", evs[1])
	}
}

// Registering while messages are being sent: each message is either in the
// initial state (at or below max_message_id) or among the queue's events,
// never both and never neither.
func TestRegisterIsConsistentWithConcurrentSends(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	const total = 60
	var sent []int64
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range total {
			id := alice.Post("/api/v1/messages", streamMsg("general", "race", fmt.Sprint(i))).OK().Int("id")
			mu.Lock()
			sent = append(sent, id)
			mu.Unlock()
		}
	}()
	var queues []*queue
	for range 5 {
		queues = append(queues, registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}}))
		time.Sleep(5 * time.Millisecond)
	}
	<-done
	for i, q := range queues {
		maxID := q.state.Int("max_message_id")
		seen := map[int64]int{}
		for _, e := range q.next() {
			seen[int64(e["message"].(map[string]any)["id"].(float64))]++
		}
		for _, id := range sent {
			switch {
			case id <= maxID && seen[id] != 0:
				t.Errorf("queue %d: message %d in both the state (max %d) and the events", i, id, maxID)
			case id > maxID && seen[id] != 1:
				t.Errorf("queue %d: message %d after the state (max %d) delivered %d times", i, id, maxID, seen[id])
			}
		}
	}
}
