package api_test

import (
	"fmt"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

func scheduledList(t *testing.T, c *apitest.Client) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, v := range c.Get("/api/v1/scheduled_messages", nil).OK().List("scheduled_messages") {
		out = append(out, v.(map[string]any))
	}
	return out
}

func topicContents(t *testing.T, c *apitest.Client, stream, topic string) []string {
	t.Helper()
	f := narrowed(fmt.Sprintf(`[["stream",%q],["topic",%q]]`, stream, topic))
	f["apply_markdown"] = "false"
	_, res := history(t, c, f)
	var out []string
	for _, m := range res.List("messages") {
		out = append(out, m.(map[string]any)["content"].(string))
	}
	return out
}

// Scheduled messages, Zulip's API: create, list, edit and cancel one's own;
// bad input answers Zulip's errors.
func TestScheduledMessagesCreateListEditCancel(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	bob := s.Login("bob@example.com")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	later := time.Now().Add(time.Hour).Unix()
	generalID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	id := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": fmt.Sprint(generalID), "topic": "plans",
		"content": "see you **tomorrow**", "scheduled_delivery_timestamp": fmt.Sprint(later)}).OK().Int("scheduled_message_id")
	dm := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "direct", "to": fmt.Sprintf("[%d]", bobID),
		"content": "psst", "scheduled_delivery_timestamp": fmt.Sprint(later + 60)}).OK().Int("scheduled_message_id")
	list := scheduledList(t, alice)
	if len(list) != 2 || int64(list[0]["scheduled_message_id"].(float64)) != id || list[0]["type"] != "stream" ||
		int64(list[0]["to"].(float64)) != generalID || list[0]["topic"] != "plans" || list[0]["rendered_content"] != "<p>see you <strong>tomorrow</strong></p>" ||
		int64(list[0]["scheduled_delivery_timestamp"].(float64)) != later || list[0]["failed"] != false {
		t.Fatalf("list %v", list)
	}
	if to := list[1]["to"].([]any); list[1]["type"] != "private" || len(to) != 1 || int64(to[0].(float64)) != bobID {
		t.Errorf("direct one %v", list[1])
	}
	if got := scheduledList(t, bob); len(got) != 0 {
		t.Errorf("bob sees alice's scheduled messages %v", got)
	}
	alice.Patch(fmt.Sprintf("/api/v1/scheduled_messages/%d", id), apitest.Form{"content": "see you soon"}).OK()
	if got := scheduledList(t, alice)[0]["content"]; got != "see you soon" {
		t.Errorf("after edit: %v", got)
	}
	bob.Patch(fmt.Sprintf("/api/v1/scheduled_messages/%d", id), apitest.Form{"content": "mine now"}).Fails(400, "BAD_REQUEST")
	bob.Delete(fmt.Sprintf("/api/v1/scheduled_messages/%d", id), nil).Fails(400, "BAD_REQUEST")
	alice.Delete(fmt.Sprintf("/api/v1/scheduled_messages/%d", dm), nil).OK()
	alice.Delete(fmt.Sprintf("/api/v1/scheduled_messages/%d", dm), nil).Fails(400, "BAD_REQUEST")
	if got := scheduledList(t, alice); len(got) != 1 {
		t.Errorf("after cancel: %v", got)
	}
	cases := []struct {
		name string
		form apitest.Form
		msg  string
	}{
		{"in the past", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "x", "scheduled_delivery_timestamp": "1000"}, "Scheduled delivery time must be in the future."},
		{"no time", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "x"}, "Missing 'scheduled_delivery_timestamp' argument"},
		{"no such stream", apitest.Form{"type": "stream", "to": "nowhere", "topic": "t", "content": "x", "scheduled_delivery_timestamp": fmt.Sprint(later)}, "Channel 'nowhere' does not exist"},
		{"empty content", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": " ", "scheduled_delivery_timestamp": fmt.Sprint(later)}, "Message must not be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := alice.Post("/api/v1/scheduled_messages", tc.form)
			if res.Status != 400 || res.Msg() != tc.msg {
				t.Errorf("%s, want 400 %q", res, tc.msg)
			}
		})
	}
	if reg := alice.Post("/api/v1/register", apitest.Form{"fetch_event_types": `["scheduled_messages"]`}).OK(); len(reg.List("scheduled_messages")) != 1 {
		t.Errorf("register's scheduled_messages %v", reg.Body["scheduled_messages"])
	}
}

// A scheduled message is sent at its time, once, even when the server was
// stopped over that time: the next start sends it.
func TestScheduledMessageIsSentAtItsTimeAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	s := apitest.StartIn(t, dir, true)
	alice := s.Login("alice@example.com")
	soon := time.Now().Add(2 * time.Second).Unix()
	alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "on time",
		"content": "right on time", "scheduled_delivery_timestamp": fmt.Sprint(soon)}).OK()
	afterRestart := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "after restart",
		"content": "sent by the next start", "scheduled_delivery_timestamp": fmt.Sprint(soon + 3)}).OK().Int("scheduled_message_id")
	waitFor(t, "sent on time", func() bool { return len(topicContents(t, alice, "general", "on time")) == 1 })
	waitFor(t, "taken off the list once sent", func() bool { return len(scheduledList(t, alice)) == 1 })
	if list := scheduledList(t, alice); int64(list[0]["scheduled_message_id"].(float64)) != afterRestart {
		t.Errorf("after the first was sent: %v", list)
	}
	s.Stop()
	time.Sleep(time.Until(time.Unix(soon+4, 0)))
	s = apitest.StartIn(t, dir, true)
	alice = s.As(alice.Email(), alice.Key())
	waitFor(t, "sent after the restart", func() bool { return len(scheduledList(t, alice)) == 0 })
	if got := topicContents(t, alice, "general", "on time"); len(got) != 1 || got[0] != "right on time" {
		t.Errorf("on time: %q", got)
	}
	if got := topicContents(t, alice, "general", "after restart"); len(got) != 1 {
		t.Errorf("after restart: %q", got)
	}
}
