package api_test

import (
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// submessagesOf is a message's submessages as GET /messages/{id} gives them.
func submessagesOf(t *testing.T, c *apitest.Client, id int64) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, s := range c.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["submessages"].([]any) {
		out = append(out, s.(map[string]any))
	}
	return out
}

func userID(c *apitest.Client) int64 { return c.Get("/api/v1/users/me", nil).OK().Int("user_id") }

func submit(c *apitest.Client, id int64, content string) *apitest.Response {
	return c.Post("/api/v1/submessage", apitest.Form{"message_id": id, "msg_type": "widget", "content": content})
}

// TestWidgetMessagesCarryTheirDefinition: /poll and /todo messages are
// stored with the widget submessage Zulip's server writes, byte for byte,
// in history and in the message event; other messages carry none.
func TestWidgetMessagesCarryTheirDefinition(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}})
	cases := []struct{ content, def string }{
		{"/poll Lunch?\nPizza\n- Soup\n* Café ☕\n\n", `{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Soup", "Caf\u00e9 \u2615"]}}`},
		{"/poll", `{"widget_type": "poll", "extra_data": {"question": "", "options": []}}`},
		{"/poll\nyes\nno", `{"widget_type": "poll", "extra_data": {"question": "", "options": ["yes", "no"]}}`},
		{"/todo Release\nTag it: on main\n- \"Announce\"", `{"widget_type": "todo", "extra_data": {"task_list_title": "Release", "tasks": [{"task": "Tag it", "desc": "on main"}, {"task": "\"Announce\"", "desc": ""}]}}`},
		{"/todo", `{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": []}}`},
		{"/polls are open", ""},
		{"see /poll", ""},
	}
	for _, c := range cases {
		id := send(t, alice, streamMsg("general", "widgets", c.content))
		subs := submessagesOf(t, bob, id)
		if c.def == "" {
			if len(subs) != 0 {
				t.Errorf("%q: submessages %v", c.content, subs)
			}
			continue
		}
		if len(subs) != 1 || subs[0]["content"] != c.def || subs[0]["msg_type"] != "widget" ||
			subs[0]["sender_id"] != float64(userID(alice)) || subs[0]["message_id"] != float64(id) || subs[0]["id"] == nil {
			t.Errorf("%q: submessages %v, want content %s", c.content, subs, c.def)
		}
	}
	evs := q.next()
	if len(evs) != len(cases) {
		t.Fatalf("%d message events", len(evs))
	}
	first := evs[0]["message"].(map[string]any)["submessages"].([]any)
	if len(first) != 1 || first[0].(map[string]any)["content"] != cases[0].def {
		t.Errorf("the message event's submessages %v", first)
	}
	// As in Zulip, a widget's content cannot be edited (its topic can).
	poll := send(t, alice, streamMsg("general", "widgets", "/poll Edit me?"))
	alice.Patch(msgPath(poll, ""), apitest.Form{"content": "/poll Edited?"}).Fails(400, "BAD_REQUEST")
	alice.Patch(msgPath(poll, ""), apitest.Form{"topic": "moved widgets"}).OK()
}

// TestPollVotesReachEveryone: votes, a new option and the author's question
// edit are stored in order and heard by everyone who holds the message.
func TestPollVotesReachEveryone(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	qAlice := registerQueue(t, alice, apitest.Form{"event_types": []string{"submessage"}})
	qBob := registerQueue(t, bob, apitest.Form{"event_types": []string{"submessage"}})
	id := send(t, alice, streamMsg("general", "lunch", "/poll Lunch?\nPizza\nSoup"))
	vote := `{"type":"vote","key":"canned,0","vote":1}`
	submit(bob, id, vote).OK()
	submit(admin, id, `{"type":"new_option","idx":1,"option":"Salad"}`).OK()
	submit(alice, id, `{"type":"question","question":"Lunch today?"}`).OK()
	submit(bob, id, `{"type":"vote","key":"canned,0","vote":-1}`).OK()

	subs := submessagesOf(t, alice, id)
	if len(subs) != 5 || subs[1]["content"] != vote || subs[1]["sender_id"] != float64(userID(bob)) {
		t.Fatalf("submessages %v", subs)
	}
	for i := 1; i < len(subs); i++ {
		if subs[i]["id"].(float64) <= subs[i-1]["id"].(float64) {
			t.Errorf("submessage IDs out of order: %v", subs)
		}
	}
	for who, q := range map[string]*queue{"alice": qAlice, "bob": qBob} {
		evs := q.next()
		if got := types(evs); !slices.Equal(got, []string{"submessage", "submessage", "submessage", "submessage"}) {
			t.Fatalf("%s heard %v", who, got)
		}
		e := evs[0]
		if e["message_id"] != float64(id) || e["msg_type"] != "widget" || e["content"] != vote ||
			e["sender_id"] != float64(userID(bob)) || e["submessage_id"] != subs[1]["id"] {
			t.Errorf("%s's event %v", who, e)
		}
	}
	if subs[0]["sender_id"] != float64(userID(alice)) {
		t.Errorf("the widget's definition is not its author's: %v", subs[0])
	}
}

// TestTodoStrikes: anyone who sees a todo list strikes and adds tasks; only
// its author retitles it.
func TestTodoStrikes(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("general", "release", "/todo Release\nTag it"))
	submit(bob, id, `{"type":"strike","key":"0,canned"}`).OK()
	submit(bob, id, `{"type":"new_task","key":1,"task":"Announce","desc":"","completed":false}`).OK()
	submit(alice, id, `{"type":"new_task_list_title","title":"Release 2"}`).OK()
	submit(bob, id, `{"type":"new_task_list_title","title":"Mine"}`).Fails(400, "BAD_REQUEST")
	if subs := submessagesOf(t, bob, id); len(subs) != 4 {
		t.Errorf("submessages %v", subs)
	}
}

// TestSubmessageRefusals: bad input gets Zulip's JSON error, never a 500,
// and leaves the message as it was.
func TestSubmessageRefusals(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	poll := send(t, alice, streamMsg("general", "lunch", "/poll Lunch?\nPizza"))
	todo := send(t, alice, streamMsg("general", "release", "/todo\nTag it"))
	plain := send(t, alice, streamMsg("general", "chat", "no widget here"))
	secret := send(t, alice, streamMsg("secret", "plans", "/poll Secret?"))
	cases := []struct {
		name    string
		who     *apitest.Client
		form    apitest.Form
		code    string
		message string
	}{
		{"no message_id", bob, apitest.Form{"msg_type": "widget", "content": "{}"}, "REQUEST_VARIABLE_MISSING", "Missing 'message_id' argument"},
		{"no msg_type", bob, apitest.Form{"message_id": poll, "content": "{}"}, "REQUEST_VARIABLE_MISSING", "Missing 'msg_type' argument"},
		{"no content", bob, apitest.Form{"message_id": poll, "msg_type": "widget"}, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument"},
		{"message_id not a number", bob, apitest.Form{"message_id": "x", "msg_type": "widget", "content": "{}"}, "REQUEST_VARIABLE_INVALID", ""},
		{"missing message", bob, apitest.Form{"message_id": 999999, "msg_type": "widget", "content": "{}"}, "BAD_REQUEST", "Invalid message(s)"},
		{"a private stream's message", bob, apitest.Form{"message_id": secret, "msg_type": "widget", "content": `{"type":"vote","key":"canned,0","vote":1}`}, "BAD_REQUEST", "Invalid message(s)"},
		{"a guest outside the stream", guest, apitest.Form{"message_id": secret, "msg_type": "widget", "content": `{"type":"vote","key":"canned,0","vote":1}`}, "BAD_REQUEST", "Invalid message(s)"},
		{"first submessage not the sender's", bob, apitest.Form{"message_id": plain, "msg_type": "widget", "content": "{}"}, "BAD_REQUEST", "You cannot attach a submessage to this message."},
		{"not JSON", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": "{vote"}, "BAD_REQUEST", "Invalid json for submessage"},
		{"JSON and more", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": "{} {}"}, "BAD_REQUEST", "Invalid json for submessage"},
		{"poll data not a dict", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": "[1]"}, "BAD_REQUEST", "poll data is not a dict"},
		{"no type", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"key":"a"}`}, "BAD_REQUEST", "type key is missing from poll data"},
		{"type not a string", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":3}`}, "BAD_REQUEST", `poll data["type"] is not a string`},
		{"unknown poll event", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"explode"}`}, "BAD_REQUEST", "Unknown type for poll data: explode"},
		{"vote of 2", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"vote","key":"canned,0","vote":2}`}, "BAD_REQUEST", `Invalid poll data["vote"]`},
		{"vote of 1.0", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"vote","key":"canned,0","vote":1.0}`}, "BAD_REQUEST", `poll data["vote"] is not an integer`},
		{"vote without key", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"vote","vote":1}`}, "BAD_REQUEST", "key key is missing from poll data"},
		{"vote with more", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"vote","key":"k","vote":1,"z":0,"extra":0}`}, "BAD_REQUEST", "Unexpected arguments: extra, z"},
		{"option index too large", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"new_option","idx":1001,"option":"x"}`}, "BAD_REQUEST", `poll data["idx"] is too large`},
		{"option index huge", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"new_option","idx":-99999999999999999999999,"option":"x"}`}, "BAD_REQUEST", `poll data["idx"] is too small`},
		{"question by another", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `{"type":"question","question":"Mine?"}`}, "BAD_REQUEST", "You can't edit a question unless you are the author."},
		{"todo strike with a number", bob, apitest.Form{"message_id": todo, "msg_type": "widget", "content": `{"type":"strike","key":0}`}, "BAD_REQUEST", `todo data["key"] is not a string`},
		{"todo task not completed-flagged", bob, apitest.Form{"message_id": todo, "msg_type": "widget", "content": `{"type":"new_task","key":1,"task":"x","desc":"","completed":"no"}`}, "BAD_REQUEST", `todo data["completed"] is not a boolean`},
		{"a poll event on a todo", bob, apitest.Form{"message_id": todo, "msg_type": "widget", "content": `{"type":"vote","key":"k","vote":1}`}, "BAD_REQUEST", "Unknown type for todo data: vote"},
		{"content too long", bob, apitest.Form{"message_id": poll, "msg_type": "widget", "content": `"` + strings.Repeat("x", 10000) + `"`}, "REQUEST_VARIABLE_INVALID", ""},
	}
	for _, c := range cases {
		res := c.who.Post("/api/v1/submessage", c.form).Fails(400, c.code)
		if c.message != "" && res.Msg() != c.message {
			t.Errorf("%s: %q, want %q", c.name, res.Msg(), c.message)
		}
	}
	for _, id := range []int64{poll, todo, plain} {
		if subs := submessagesOf(t, alice, id); len(subs) > 1 {
			t.Errorf("a refused submessage was stored: %v", subs)
		}
	}
	// Any JSON goes on a message that is no widget, once its sender began.
	submit(alice, plain, `{"anything": [1, 2]}`).OK()
	submit(bob, plain, `"text"`).OK()
}
