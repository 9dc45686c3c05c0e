package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// probe is one request of the permission matrix.
type probe struct {
	name   string
	method string
	path   string
	form   apitest.Form
}

// send makes the request, with the form in the query string for reads and
// in the body for writes.
func (p probe) send(c *apitest.Client) *apitest.Response {
	if p.method == "GET" {
		if p.form == nil {
			return c.Get(p.path, nil)
		}
		return c.Get(p.path, p.form)
	}
	return c.Do(p.method, p.path, "application/x-www-form-urlencoded", strings.NewReader(p.form.Encode()))
}

// TestPrivateStreamMatrix probes every endpoint that could reveal a private
// stream, as a member who is not subscribed and as a guest: each answer
// must be exactly the answer for something that does not exist.
func TestPrivateStreamMatrix(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	secretID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "secret"}).OK().Int("stream_id")
	secretMsg := send(t, alice, streamMsg("secret", "plans", "the hidden plan"))
	upload := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"plan.txt", "hidden"}}).OK().Str("uri")
	send(t, alice, streamMsg("secret", "plans", "[plan]("+upload+")"))
	const missingStream, missingID, missingMsg = "nowhere", int64(999), int64(999999)

	// Each probe is built twice: about the private stream, and about a twin
	// that does not exist.
	probes := func(stream string, streamID, msg int64, uri string) []probe {
		m := fmt.Sprint(msg)
		return []probe{
			{"get message", "GET", "/api/v1/messages/" + m, nil},
			{"message history", "GET", "/api/v1/messages/" + m + "/history", nil},
			{"edit message", "PATCH", "/api/v1/messages/" + m, apitest.Form{"content": "x"}},
			{"react", "POST", "/api/v1/messages/" + m + "/reactions", apitest.Form{"emoji_name": "+1"}},
			{"unreact", "DELETE", "/api/v1/messages/" + m + "/reactions", apitest.Form{"emoji_name": "+1"}},
			{"flag", "POST", "/api/v1/messages/flags", apitest.Form{"messages": []int64{msg}, "op": "add", "flag": "starred"}},
			{"narrow by stream", "GET", "/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 5, "num_after": 0, "narrow": `[["stream","` + stream + `"]]`}},
			{"stream id", "GET", "/api/v1/get_stream_id", apitest.Form{"stream": stream}},
			{"topics", "GET", fmt.Sprintf("/api/v1/users/me/%d/topics", streamID), nil},
			{"members", "GET", fmt.Sprintf("/api/v1/streams/%d/members", streamID), nil},
			{"mark stream read", "POST", "/api/v1/mark_stream_as_read", apitest.Form{"stream_id": streamID}},
			{"mark topic read", "POST", "/api/v1/mark_topic_as_read", apitest.Form{"stream_id": streamID, "topic_name": "plans"}},
			{"mute topic", "PATCH", "/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream": stream, "topic": "plans", "op": "add"}},
			{"send", "POST", "/api/v1/messages", streamMsg(stream, "plans", "let me in")},
			{"unsubscribe", "DELETE", "/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{stream}}},
			{"typing", "POST", "/api/v1/typing", apitest.Form{"op": "start", "type": "stream", "stream_id": streamID, "topic": "plans"}},
			{"upload", "GET", uri, nil},
			{"register narrow", "POST", "/api/v1/register", apitest.Form{"narrow": `[["stream","` + stream + `"]]`}},
		}
	}
	secret := probes("secret", secretID, secretMsg, upload)
	missing := probes(missingStream, missingID, missingMsg, "/user_uploads/1/00/nothingatall/plan.txt")
	// Names echo in some messages; they are the only allowed difference.
	normalize := func(msg string) string {
		msg = strings.ReplaceAll(msg, "secret", "NAME")
		return strings.ReplaceAll(msg, missingStream, "NAME")
	}
	for _, who := range []string{"bob@example.com", "guest@example.com"} {
		c := s.Login(who)
		for i := range secret {
			a, b := secret[i].send(c), missing[i].send(c)
			if a.Status != b.Status || a.Body["code"] != b.Body["code"] || normalize(a.Msg()) != normalize(b.Msg()) || a.Status == 200 {
				t.Errorf("%s, %s: private stream answers %d %s, missing one %d %s", who, secret[i].name, a.Status, a.Raw, b.Status, b.Raw)
			}
		}
		// Listings and search leave it out altogether.
		for _, path := range []string{"/api/v1/streams", "/api/v1/users/me/subscriptions"} {
			if res := c.Get(path, nil).OK(); strings.Contains(string(res.Raw), `"secret"`) {
				t.Errorf("%s: %s lists the private stream", who, path)
			}
		}
		state := c.Post("/api/v1/register", nil).OK()
		for _, key := range []string{"subscriptions", "unsubscribed", "never_subscribed", "streams", "unread_msgs"} {
			if strings.Contains(fmt.Sprint(state.Body[key]), "secret") || strings.Contains(fmt.Sprint(state.Body[key]), fmt.Sprintf("stream_id:%d ", secretID)) {
				t.Errorf("%s: register %s mentions the private stream", who, key)
			}
		}
		if got, _ := history(t, c, narrowed(`[["search","hidden"]]`)); len(got) != 0 {
			t.Errorf("%s: search finds %v", who, got)
		}
		preview := c.Post("/api/v1/messages/render", apitest.Form{"content": "#**secret**"}).OK().Str("rendered")
		if strings.Contains(preview, "data-stream-id") {
			t.Errorf("%s: stream link to the private stream: %s", who, preview)
		}
	}
}

// TestPrivateStreamEventsStayInside checks that queues of outsiders (even
// with all_public_streams) hear nothing of what happens in a private
// stream, while a subscriber hears all of it.
func TestPrivateStreamEventsStayInside(t *testing.T) {
	s := apitest.Start(t)
	alice, admin := s.Login("alice@example.com"), s.Login("admin@example.com")
	bob, guest := s.Login("bob@example.com"), s.Login("guest@example.com")
	outsiders := []*queue{
		registerQueue(t, bob, nil),
		registerQueue(t, bob, apitest.Form{"all_public_streams": true}),
		registerQueue(t, guest, nil),
	}
	insider := registerQueue(t, admin, nil)
	secretID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "secret"}).OK().Int("stream_id")

	id := send(t, alice, streamMsg("secret", "plans", "hidden"))
	alice.Patch(msgPath(id, ""), apitest.Form{"content": "hidden, edited"}).OK()
	alice.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "+1"}).OK()
	alice.Post("/api/v1/typing", apitest.Form{"op": "start", "type": "stream", "stream_id": secretID, "topic": "plans"}).OK()
	admin.Patch(fmt.Sprintf("/api/v1/streams/%d", secretID), apitest.Form{"description": "still hidden"}).OK()
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "secret"}}, "principals": []string{"echo-bot@example.com"}}).OK()
	admin.Delete(msgPath(id, ""), nil).OK()

	for i, q := range outsiders {
		if evs := q.next(); len(evs) != 0 {
			t.Errorf("outsider queue %d heard %v", i, types(evs))
		}
	}
	got := types(insider.next())
	for _, want := range []string{"message", "update_message", "reaction:add", "typing:start", "stream:update", "subscription:peer_add", "delete_message"} {
		if !slices.Contains(got, want) {
			t.Errorf("subscriber missed %s (got %v)", want, got)
		}
	}
}
