package api_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"lanchat/backend/apitest"
)

func msgPath(id int64, suffix string) string { return fmt.Sprintf("/api/v1/messages/%d%s", id, suffix) }

func TestEditContentAndHistory(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("general", "plans", "first draft"))
	alice.Patch(msgPath(id, ""), apitest.Form{"content": "second draft"}).OK()
	alice.Patch(msgPath(id, ""), apitest.Form{"topic": "Plans v2"}).OK()

	res := bob.Get(msgPath(id, ""), apitest.Form{"apply_markdown": false}).OK()
	msg := res.Body["message"].(map[string]any)
	if res.Str("raw_content") != "second draft" || msg["content"] != "second draft" || msg["content_type"] != "text/x-markdown" || msg["subject"] != "Plans v2" {
		t.Errorf("after edits: %s", res.Raw)
	}
	if msg["last_edit_timestamp"] == nil || len(msg["edit_history"].([]any)) != 2 {
		t.Fatalf("edit markers: %v", msg)
	}
	// A move's entry names the topic after it beside the one before, as
	// Zulip's (the mobile app cannot parse the message otherwise).
	if move := msg["edit_history"].([]any)[0].(map[string]any); move["prev_topic"] != "plans" || move["topic"] != "Plans v2" {
		t.Errorf("move entry %v", move)
	}
	hist := bob.Get(msgPath(id, "/history"), nil).OK().List("message_history")
	if len(hist) != 3 {
		t.Fatalf("history %v", hist)
	}
	first, second, third := hist[0].(map[string]any), hist[1].(map[string]any), hist[2].(map[string]any)
	if first["content"] != "first draft" || first["topic"] != "plans" || first["prev_content"] != nil {
		t.Errorf("original version %v", first)
	}
	if second["content"] != "second draft" || second["prev_content"] != "first draft" || second["topic"] != "plans" {
		t.Errorf("content edit %v", second)
	}
	if third["topic"] != "Plans v2" || third["prev_topic"] != "plans" {
		t.Errorf("topic edit %v", third)
	}
	// Search follows the edit.
	if got, _ := history(t, bob, narrowed(`[["search","second"]]`)); !slices.Equal(got, []int64{id}) {
		t.Errorf("search after edit %v", got)
	}
	if got, _ := history(t, bob, narrowed(`[["search","first"]]`)); len(got) != 0 {
		t.Errorf("old content still indexed: %v", got)
	}

	bob.Patch(msgPath(id, ""), apitest.Form{"content": "bob was here"}).Fails(400, "BAD_REQUEST")
	alice.Patch(msgPath(id, ""), nil).Fails(400, "BAD_REQUEST")
	alice.Patch(msgPath(id, ""), apitest.Form{"content": " "}).Fails(400, "BAD_REQUEST")
	alice.Patch(msgPath(999999, ""), apitest.Form{"content": "x"}).Fails(400, "BAD_REQUEST")
	alice.Patch(msgPath(id, ""), apitest.Form{"topic": "x", "propagate_mode": "change_some"}).Fails(400, "REQUEST_VARIABLE_INVALID")
	pm := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "hi"})
	alice.Patch(msgPath(pm, ""), apitest.Form{"topic": "x"}).Fails(400, "BAD_REQUEST")
	bob.Get(msgPath(pm, "/history"), nil).OK()
	s.Login("guest@example.com").Get(msgPath(pm, "/history"), nil).Fails(400, "BAD_REQUEST")
}

// zulip-terminal sends a stream message's topic, unchanged, with every edit
// of its text: as in Zulip, that is a content edit, not a move, and the
// propagate mode still needs a move to act on.
func TestEditContentWithUnchangedTopic(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "plans", "first draft"))
	cases := []struct {
		name string
		form apitest.Form
		msg  string // the error, or "" for success
	}{
		{"zulip-terminal's edit", apitest.Form{"topic": " plans ", "propagate_mode": "change_one", "content": "second draft"}, ""},
		{"no propagate mode", apitest.Form{"topic": "plans", "content": "third draft"}, ""},
		{"the same topic alone", apitest.Form{"topic": "plans"}, "Nothing to change"},
		{"the same topic, propagated", apitest.Form{"topic": "plans", "propagate_mode": "change_later", "content": "x"}, "Invalid propagate_mode without topic edit"},
		{"content, propagated", apitest.Form{"propagate_mode": "change_all", "content": "x"}, "Invalid propagate_mode without topic edit"},
	}
	for _, c := range cases {
		res := alice.Patch(msgPath(id, ""), c.form)
		if c.msg == "" {
			res.OK()
		} else if got := res.Fails(400, "BAD_REQUEST").Msg(); got != c.msg {
			t.Errorf("%s: %q, want %q", c.name, got, c.msg)
		}
	}
	msg := alice.Get(msgPath(id, ""), apitest.Form{"apply_markdown": false}).OK().Body["message"].(map[string]any)
	if msg["content"] != "third draft" || msg["subject"] != "plans" {
		t.Errorf("after the edits: %v", msg)
	}
	for _, e := range msg["edit_history"].([]any) {
		if entry := e.(map[string]any); entry["prev_topic"] != nil || entry["prev_content"] == nil {
			t.Errorf("an edit recorded as a move: %v", entry)
		}
	}
}

func TestMoveTopicPropagation(t *testing.T) {
	s := apitest.Start(t)
	alice, admin, bob := s.Login("alice@example.com"), s.Login("admin@example.com"), s.Login("bob@example.com")
	var ids []int64
	for i := range 4 {
		ids = append(ids, send(t, alice, streamMsg("general", "old name", fmt.Sprint("m", i))))
	}
	admin.Patch(msgPath(ids[2], ""), apitest.Form{"topic": "new name", "propagate_mode": "change_later"}).OK()
	if got, _ := history(t, bob, narrowed(`[["stream","general"],["topic","new name"]]`)); !slices.Equal(got, ids[2:]) {
		t.Errorf("change_later moved %v, want %v", got, ids[2:])
	}
	admin.Patch(msgPath(ids[0], ""), apitest.Form{"topic": "new name", "propagate_mode": "change_all"}).OK()
	if got, _ := history(t, bob, narrowed(`[["stream","general"],["topic","old name"]]`)); len(got) != 0 {
		t.Errorf("change_all left %v", got)
	}
	generalID := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	topics := bob.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", generalID), nil).OK().List("topics")
	for _, tp := range topics {
		if tp.(map[string]any)["name"] == "old name" {
			t.Errorf("emptied topic still listed: %v", topics)
		}
	}
	// Moving to another stream is for administrators.
	randomID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	alice.Patch(msgPath(ids[0], ""), apitest.Form{"stream_id": randomID}).Fails(400, "BAD_REQUEST")
	admin.Patch(msgPath(ids[0], ""), apitest.Form{"stream_id": randomID, "propagate_mode": "change_all"}).OK()
	if got, _ := history(t, alice, narrowed(`[["stream","random"],["topic","new name"]]`)); !slices.Equal(got, ids) {
		t.Errorf("moved to random: %v", got)
	}
	// Bob may not rename alice's message.
	bob.Patch(msgPath(ids[1], ""), apitest.Form{"topic": "bob's"}).Fails(400, "BAD_REQUEST")
}

// A deleted stream's messages stay with those who received them; moving
// one, within its stream or out of it, is refused as for any unknown
// stream (it was a 500: the move looked the stream up as if it must exist).
func TestMoveInDeletedStreamRefused(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"doomed"}]`}).OK()
	doomedID := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "doomed"}).OK().Int("stream_id")
	randomID := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	id := send(t, admin, streamMsg("doomed", "old", "kept by its sender"))
	admin.Delete(fmt.Sprintf("/api/v1/streams/%d", doomedID), nil).OK()
	admin.Get(msgPath(id, ""), nil).OK()
	for _, move := range []apitest.Form{{"topic": "new"}, {"stream_id": randomID}, {"topic": "new", "propagate_mode": "change_all"}} {
		if msg := admin.Patch(msgPath(id, ""), move).Fails(400, "BAD_REQUEST").Msg(); msg != "Invalid channel ID" {
			t.Errorf("move %v: %q", move, msg)
		}
	}
}

func TestDeleteMessage(t *testing.T) {
	s := apitest.Start(t)
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	id := send(t, alice, streamMsg("general", "oops", "delete me"))
	if msg := alice.Delete(msgPath(id, ""), nil).Fails(400, "BAD_REQUEST").Msg(); msg != "You don't have permission to delete this message" {
		t.Errorf("non-admin delete: %q", msg)
	}
	admin.Delete(msgPath(id, ""), nil).OK()
	if msg := admin.Delete(msgPath(id, ""), nil).Fails(400, "BAD_REQUEST").Msg(); msg != "Invalid message(s)" {
		t.Errorf("second delete: %q", msg)
	}
	alice.Get(msgPath(id, ""), nil).Fails(400, "BAD_REQUEST")
	if got, _ := history(t, s.Login("bob@example.com"), narrowed(`[["is","unread"]]`)); slices.Contains(got, id) {
		t.Errorf("deleted message still unread: %v", got)
	}
	if got, _ := history(t, alice, narrowed(`[["search","delete"]]`)); len(got) != 0 {
		t.Errorf("deleted message still searchable: %v", got)
	}
	admin.Delete("/api/v1/messages/abc", nil).Fails(400, "REQUEST_VARIABLE_INVALID")
}

// The topic list names each topic by its messages' current spelling after
// every kind of move, and keeps that across a restart.
func TestMoveTopicKeepsTopicListNames(t *testing.T) {
	dir := t.TempDir()
	s := apitest.StartIn(t, dir, true)
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	generalID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	randomID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "random"}).OK().Int("stream_id")
	topicNames := func(c *apitest.Client, streamID int64) []string {
		var names []string
		for _, tp := range c.Get(fmt.Sprintf("/api/v1/users/me/%d/topics", streamID), nil).OK().List("topics") {
			names = append(names, tp.(map[string]any)["name"].(string))
		}
		slices.Sort(names)
		return names
	}
	want := append(topicNames(alice, generalID), "Gamma", "beta", "delta") // the demo's topics and ours
	slices.Sort(want)
	one := send(t, alice, streamMsg("general", "alpha", "a1"))
	send(t, alice, streamMsg("general", "beta", "b1"))
	two := send(t, alice, streamMsg("general", "alpha", "a2"))
	three := send(t, alice, streamMsg("general", "gamma", "g1"))

	admin.Patch(msgPath(two, ""), apitest.Form{"topic": "beta", "propagate_mode": "change_one"}).OK()
	admin.Patch(msgPath(one, ""), apitest.Form{"topic": "delta", "propagate_mode": "change_all"}).OK()
	admin.Patch(msgPath(three, ""), apitest.Form{"topic": "Gamma"}).OK()
	admin.Patch(msgPath(two, ""), apitest.Form{"stream_id": randomID, "topic": "moved", "propagate_mode": "change_one"}).OK()

	check := func(c *apitest.Client, when string) {
		if got := topicNames(c, generalID); !slices.Equal(got, want) {
			t.Errorf("%s: general topics %q, want %q", when, got, want)
		}
		if got := topicNames(c, randomID); !slices.Contains(got, "moved") {
			t.Errorf("%s: random topics %q lack the moved one", when, got)
		}
	}
	check(alice, "after the moves")
	s.Stop()
	s = apitest.StartIn(t, dir, true)
	check(s.Login("alice@example.com"), "after a restart")
}

// Search finds messages the full-text index has merged and those still
// pending after them, through an edit and a deletion of merged ones and a
// restart: the store merges at every 256th message, so 600 messages on
// the first two are merged and the newest are not.
func TestSearchAcrossTheIndexMerge(t *testing.T) {
	dir := t.TempDir()
	s := apitest.StartIn(t, dir, true)
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	edited := send(t, alice, streamMsg("general", "merge", "walrus alpha"))
	deleted := send(t, alice, streamMsg("general", "merge", "walrus beta"))
	for i := range 600 {
		send(t, alice, streamMsg("general", "filler", fmt.Sprintf("filler %d", i)))
	}
	pending := send(t, alice, streamMsg("general", "merge", "walrus gamma"))
	alice.Patch(msgPath(edited, ""), apitest.Form{"content": "narwhal alpha"}).OK()
	admin.Delete(msgPath(deleted, ""), nil).OK()
	check := func(when string, c *apitest.Client) {
		t.Helper()
		for _, tc := range []struct {
			search string
			want   []int64
		}{
			{"walrus", []int64{pending}},
			{"narwhal", []int64{edited}},
			{"alpha", []int64{edited}},
			{"beta", nil},
			{"filler 599", []int64{pending - 1}},
		} {
			if got, _ := history(t, c, narrowed(`[["search",`+strconv.Quote(tc.search)+`]]`)); !slices.Equal(got, tc.want) {
				t.Errorf("%s: search %q found %v, want %v", when, tc.search, got, tc.want)
			}
		}
	}
	check("running", alice)
	s.Stop()
	s = apitest.StartIn(t, dir, true)
	check("restarted", s.Login("bob@example.com"))
}

// Older clients name the topic subject; a request with both is read as a
// send reads it, topic first.
func TestEditTopicNamedSubject(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "plans", "first draft"))
	for _, c := range []struct {
		form apitest.Form
		want string
	}{
		{apitest.Form{"subject": "by subject"}, "by subject"},
		{apitest.Form{"topic": "by topic", "subject": "ignored"}, "by topic"},
	} {
		alice.Patch(msgPath(id, ""), c.form).OK()
		msg := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)
		if msg["subject"] != c.want {
			t.Errorf("%v: topic %v, want %q", c.form, msg["subject"], c.want)
		}
	}
}
