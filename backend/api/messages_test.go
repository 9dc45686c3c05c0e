package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// send posts a message and returns its ID.
func send(t *testing.T, c *apitest.Client, f apitest.Form) int64 {
	t.Helper()
	return c.Post("/api/v1/messages", f).OK().Int("id")
}

func streamMsg(stream, topic, content string) apitest.Form {
	return apitest.Form{"type": "stream", "to": stream, "topic": topic, "content": content}
}

// history fetches messages and returns their IDs with the whole answer.
func history(t *testing.T, c *apitest.Client, f apitest.Form) ([]int64, *apitest.Response) {
	t.Helper()
	res := c.Get("/api/v1/messages", f).OK()
	var ids []int64
	for _, m := range res.List("messages") {
		ids = append(ids, int64(m.(map[string]any)["id"].(float64)))
	}
	return ids, res
}

func narrowed(narrow string) apitest.Form {
	return apitest.Form{"anchor": "newest", "num_before": 100, "num_after": 0, "narrow": narrow}
}

func TestSendMessageErrors(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	guest := s.Login("guest@example.com")
	cases := []struct {
		name   string
		client *apitest.Client
		form   apitest.Form
		code   string
		msg    string
	}{
		{"no such stream", alice, streamMsg("nowhere", "t", "x"), "STREAM_DOES_NOT_EXIST", "Channel 'nowhere' does not exist"},
		{"unknown recipient", alice, apitest.Form{"type": "private", "to": "ghost@example.com", "content": "x"}, "BAD_REQUEST", "Invalid email 'ghost@example.com'"},
		{"empty content", alice, streamMsg("general", "t", "  \n "), "BAD_REQUEST", "Message must not be empty"},
		{"missing content", alice, apitest.Form{"type": "stream", "to": "general", "topic": "t"}, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument"},
		{"missing type", alice, apitest.Form{"to": "general", "content": "x"}, "REQUEST_VARIABLE_MISSING", "Missing 'type' argument"},
		{"bad type", alice, apitest.Form{"type": "fax", "to": "general", "content": "x"}, "BAD_REQUEST", "Invalid message type"},
		{"empty topic", alice, streamMsg("general", " ", "x"), "BAD_REQUEST", "Topic can't be empty!"},
		{"private stream hidden from outsiders", s.Login("bob@example.com"), streamMsg("secret", "t", "x"), "STREAM_DOES_NOT_EXIST", "Channel 'secret' does not exist"},
		{"guest to unsubscribed public stream", guest, streamMsg("random", "t", "x"), "STREAM_DOES_NOT_EXIST", "Channel 'random' does not exist"},
		{"empty stream list", alice, streamMsg("[]", "t", "x"), "BAD_REQUEST", "Expected exactly one channel"},
		{"two streams", alice, streamMsg(`["general","random"]`, "t", "x"), "BAD_REQUEST", "Expected exactly one channel"},
		{"stream list of an object", alice, streamMsg("[{}]", "t", "x"), "BAD_REQUEST", "Invalid data type for channel"},
		{"stream as an object", alice, streamMsg("{}", "t", "x"), "BAD_REQUEST", "Invalid data type for channel"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.client.Post("/api/v1/messages", tc.form).Fails(400, tc.code)
			if res.Msg() != tc.msg {
				t.Errorf("msg %q, want %q", res.Msg(), tc.msg)
			}
		})
	}
	res := alice.Post("/api/v1/messages", streamMsg("nowhere", "t", "x"))
	if res.Body["stream"] != "nowhere" {
		t.Errorf("STREAM_DOES_NOT_EXIST without stream field: %s", res.Raw)
	}
}

func TestSendLimitsTruncateAsZulipDoes(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	long := strings.Repeat("é", 6000) // 12000 bytes
	id := send(t, alice, streamMsg("general", strings.Repeat("t", 70), long))
	res := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK()
	raw := res.Str("raw_content")
	if len(raw) > 10000 || !strings.HasSuffix(raw, "\n[message truncated]") {
		t.Errorf("content of %d bytes, suffix %q", len(raw), raw[max(0, len(raw)-25):])
	}
	topic := res.Body["message"].(map[string]any)["subject"].(string)
	if len([]rune(topic)) != 60 || !strings.HasSuffix(topic, "...") {
		t.Errorf("topic %q (%d chars)", topic, len([]rune(topic)))
	}
}

func TestSendByStreamIDAndPrivateForms(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	bob := s.Login("bob@example.com")
	id1 := send(t, alice, apitest.Form{"type": "stream", "to": `["general"]`, "topic": "t", "content": "by list"})
	id2 := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com, guest@example.com", "content": "csv"})
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	id3 := send(t, alice, apitest.Form{"type": "direct", "to": fmt.Sprintf("[%d]", bobID), "content": "by id"})
	ids, res := history(t, bob, narrowed(`[["pm-with","alice@example.com"]]`))
	if !slices.Equal(ids, []int64{id3}) {
		t.Errorf("pm-with alice: %v, want [%d]", ids, id3)
	}
	msg := res.List("messages")[0].(map[string]any)
	if msg["type"] != "private" || len(msg["display_recipient"].([]any)) != 2 || msg["subject"] != "" {
		t.Errorf("private message shape %v", msg)
	}
	ids, _ = history(t, bob, narrowed(`[["group-pm-with","guest@example.com"]]`))
	if !slices.Equal(ids, []int64{id2}) {
		t.Errorf("group-pm-with guest: %v, want [%d]", ids, id2)
	}
	if msg := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id1), nil).OK().Body["message"].(map[string]any); msg["display_recipient"] != "general" {
		t.Errorf("stream message %v", msg)
	}
}

func TestHistoryAnchorsAndLimits(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	var ids []int64
	for i := range 10 {
		ids = append(ids, send(t, alice, streamMsg("random", "count", fmt.Sprint("n", i))))
	}
	narrow := `[["stream","random"]]`
	got, res := history(t, alice, apitest.Form{"anchor": ids[5], "num_before": 2, "num_after": 2, "narrow": narrow})
	if !slices.Equal(got, ids[3:8]) || res.Body["found_anchor"] != true || res.Body["found_oldest"] != false || res.Body["found_newest"] != false {
		t.Errorf("around %d: %v %s", ids[5], got, res.Raw[:min(200, len(res.Raw))])
	}
	got, res = history(t, alice, apitest.Form{"anchor": "newest", "num_before": 3, "num_after": 0, "narrow": narrow})
	if !slices.Equal(got, ids[7:]) || res.Body["found_newest"] != true || res.Int("anchor") != 10000000000000000 {
		t.Errorf("newest: %v anchor %v", got, res.Body["anchor"])
	}
	got, res = history(t, alice, apitest.Form{"anchor": "oldest", "num_before": 0, "num_after": 20, "narrow": narrow})
	if !slices.Equal(got, ids) || res.Body["found_oldest"] != true || res.Body["found_newest"] != true {
		t.Errorf("oldest: %v", got)
	}
	got, _ = history(t, alice, apitest.Form{"anchor": ids[5], "num_before": 0, "num_after": 2, "include_anchor": false, "narrow": narrow})
	if !slices.Equal(got, ids[6:8]) {
		t.Errorf("include_anchor=false: %v", got)
	}
	got, res = history(t, alice, apitest.Form{"anchor": -5, "num_before": 0, "num_after": 1, "narrow": narrow})
	if res.Int("anchor") != 0 || !slices.Equal(got, ids[:1]) {
		t.Errorf("negative anchor → %v %v", res.Body["anchor"], got)
	}
	// Bob has read nothing in random (not subscribed): first_unread falls back to newest.
	_, res = history(t, s.Login("bob@example.com"), apitest.Form{"anchor": "first_unread", "num_before": 1, "num_after": 1, "narrow": narrow})
	if res.Int("anchor") != 10000000000000000 {
		t.Errorf("first_unread without unreads: %v", res.Body["anchor"])
	}
	for _, tc := range []struct {
		form apitest.Form
		code string
		msg  string
	}{
		{apitest.Form{"anchor": "newest", "num_before": 3000, "num_after": 2001}, "BAD_REQUEST", "Too many messages requested (maximum 5000)."},
		{apitest.Form{"num_before": 1, "num_after": 1}, "REQUEST_VARIABLE_MISSING", "Missing 'anchor' argument"},
		{apitest.Form{"anchor": "sideways", "num_before": 1, "num_after": 1}, "BAD_REQUEST", "Invalid anchor"},
		{apitest.Form{"anchor": "newest", "num_after": 1}, "REQUEST_VARIABLE_MISSING", "Missing 'num_before' argument"},
		{apitest.Form{"anchor": 5, "num_before": 1, "num_after": 1, "include_anchor": false}, "BAD_REQUEST", "The anchor can only be excluded at an end of the range"},
		{apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": `[["bogus","x"]]`}, "BAD_NARROW", "Invalid narrow operator: unknown operator bogus"},
		{apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": `{"not":"a list"}`}, "REQUEST_VARIABLE_INVALID", ""},
	} {
		res := alice.Get("/api/v1/messages", tc.form).Fails(400, tc.code)
		if tc.msg != "" && res.Msg() != tc.msg {
			t.Errorf("%v: msg %q, want %q", tc.form, res.Msg(), tc.msg)
		}
	}
}

func TestNarrowOperators(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	m1 := send(t, alice, streamMsg("general", "Lunch", "pizza today https://example.org/menu"))
	m2 := send(t, bob, streamMsg("general", "lunch", "pasta tomorrow"))
	m3 := send(t, bob, streamMsg("general", "deploys", "release notes ready"))
	m4 := send(t, bob, apitest.Form{"type": "private", "to": "alice@example.com", "content": "psst pizza"})
	m5 := send(t, alice, streamMsg("random", "misc", "bread"))
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{m1}, "op": "add", "flag": "starred"}).OK()
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")

	cases := []struct {
		narrow string
		want   []int64
	}{
		{`[]`, nil}, // filled below: everything bob received
		{`[["stream","general"]]`, []int64{m1, m2, m3}},
		{`[{"operator":"channel","operand":"GENERAL"}]`, []int64{m1, m2, m3}},
		{`[["stream","general"],["topic","LUNCH"]]`, []int64{m1, m2}},
		{`[["sender","bob@example.com"]]`, []int64{m2, m3, m4}},
		{fmt.Sprintf(`[["sender",%d],["stream","general"]]`, bobID), []int64{m2, m3}},
		{`[["pm-with","alice@example.com"]]`, []int64{m4}},
		{`[{"operator":"dm","operand":[` + fmt.Sprint(s.Login("alice@example.com").Get("/api/v1/users/me", nil).OK().Int("user_id")) + `]}]`, []int64{m4}},
		{`[["is","private"]]`, []int64{m4}},
		{`[["is","starred"]]`, []int64{m1}},
		{`[["is","unread"]]`, []int64{m1}},
		{`[["has","link"]]`, []int64{m1}},
		{`[["search","pizza"]]`, []int64{m1, m4}},
		{`[["search","PIZ"]]`, []int64{m1, m4}},
		{`[["search","pizza today"]]`, []int64{m1}},
		{`[["search","lunch"]]`, []int64{m1, m2}},
		{`[["stream","general"],["search","pizza"]]`, []int64{m1}},
		{`[["stream","general"],{"operator":"topic","operand":"lunch","negated":true}]`, []int64{m3}},
		{fmt.Sprintf(`[["id",%d]]`, m2), []int64{m2}},
		{`[["streams","public"]]`, []int64{m1, m2, m3, m5}},
		{fmt.Sprintf(`[["stream","general"],["near",%d]]`, m2), []int64{m1, m2, m3}},
	}
	// Bob's own sends start read; alice's m1 is unread for him.
	for _, tc := range cases {
		if tc.narrow == `[]` {
			continue
		}
		t.Run(tc.narrow, func(t *testing.T) {
			got, res := history(t, bob, narrowed(tc.narrow))
			got = slices.DeleteFunc(got, func(id int64) bool { return id < m1 }) // the demo messages
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v (%s)", got, tc.want, res.Raw[:min(300, len(res.Raw))])
			}
		})
	}
	// Bob is not subscribed to random: its messages are historical for him.
	_, res := history(t, bob, narrowed(`[["stream","random"]]`))
	flags := res.List("messages")[0].(map[string]any)["flags"].([]any)
	if !slices.Contains(flags, any("historical")) || !slices.Contains(flags, any("read")) {
		t.Errorf("unsubscribed public stream flags %v", flags)
	}
	// Search answers carry highlighted matches.
	_, res = history(t, bob, narrowed(`[["search","pizza"]]`))
	if mc, _ := res.List("messages")[0].(map[string]any)["match_content"].(string); !strings.Contains(mc, `<span class="highlight">pizza</span>`) {
		t.Errorf("match_content %q", mc)
	}
	// Without a stream term, only received messages count: bob never got m5.
	got, _ := history(t, bob, narrowed(`[]`))
	if slices.Contains(got, m5) || !slices.Contains(got, m4) {
		t.Errorf("[] narrow for bob: %v", got)
	}
	for _, bad := range []string{`[["stream","secret"]]`, `[["stream","nope"]]`, `[["sender","ghost@example.com"]]`, `[["is","sleepy"]]`, `[["has","cheese"]]`, `[["stream","general"],["pm-with","alice@example.com"]]`, `[["search",""]]`} {
		bob.Get("/api/v1/messages", narrowed(bad)).Fails(400, "BAD_NARROW")
	}
}

func TestPrivateStreamsStayPrivate(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	secret := send(t, alice, streamMsg("secret", "plans", "the secret plan"))
	for _, c := range []*apitest.Client{bob, guest} {
		c.Get(fmt.Sprintf("/api/v1/messages/%d", secret), nil).Fails(400, "BAD_REQUEST")
		c.Get("/api/v1/messages", narrowed(`[["stream","secret"]]`)).Fails(400, "BAD_NARROW")
		got, _ := history(t, c, narrowed(`[["search","secret"]]`))
		got2, _ := history(t, c, narrowed(`[["streams","public"]]`))
		if slices.Contains(got, secret) || slices.Contains(got2, secret) {
			t.Errorf("%s sees the private message", c.Email())
		}
		c.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{secret}, "op": "add", "flag": "starred"}).Fails(400, "BAD_REQUEST")
	}
	// Guests do not see unsubscribed public streams either.
	random := send(t, alice, streamMsg("random", "t", "public but not for guests"))
	guest.Get(fmt.Sprintf("/api/v1/messages/%d", random), nil).Fails(400, "BAD_REQUEST")
	bob.Get(fmt.Sprintf("/api/v1/messages/%d", random), nil).OK()
}

func TestFlagsAndReadState(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	m1 := send(t, alice, streamMsg("general", "a", "one"))
	m2 := send(t, alice, streamMsg("general", "b", "two"))
	m3 := send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "three"})
	unread := func() []int64 {
		ids, _ := history(t, bob, narrowed(`[["is","unread"]]`))
		return slices.DeleteFunc(ids, func(id int64) bool { return id < m1 }) // the demo messages
	}
	if got := unread(); !slices.Equal(got, []int64{m1, m2, m3}) {
		t.Fatalf("unread %v", got)
	}
	// The sender's own copy starts read.
	if got, _ := history(t, alice, narrowed(`[["is","unread"]]`)); slices.Contains(got, m1) {
		t.Errorf("sender's message unread: %v", got)
	}
	res := bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{m1, m1}, "op": "add", "flag": "read"}).OK()
	if changed := res.List("messages"); len(changed) != 1 {
		t.Errorf("changed %v, want [m1]", changed)
	}
	res = bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{m1}, "op": "add", "flag": "read"}).OK()
	if changed := res.List("messages"); len(changed) != 0 {
		t.Errorf("re-adding read changed %v", changed)
	}
	for _, tc := range []struct {
		form apitest.Form
		msg  string
	}{
		{apitest.Form{"messages": []int64{m1}, "op": "add", "flag": "mentioned"}, "Flag not editable: 'mentioned'"},
		{apitest.Form{"messages": []int64{m1}, "op": "add", "flag": "shiny"}, "Invalid flag: 'shiny'"},
		{apitest.Form{"messages": []int64{m1}, "op": "toggle", "flag": "read"}, "Invalid message flag operation: 'toggle'"},
		{apitest.Form{"messages": []int64{999999}, "op": "add", "flag": "read"}, "Invalid message(s)"},
	} {
		if got := bob.Post("/api/v1/messages/flags", tc.form).Fails(400, "BAD_REQUEST").Msg(); got != tc.msg {
			t.Errorf("msg %q, want %q", got, tc.msg)
		}
	}
	bob.Post("/api/v1/mark_topic_as_read", apitest.Form{"stream_id": 1, "topic_name": "B"}).OK()
	if got := unread(); !slices.Equal(got, []int64{m3}) {
		t.Errorf("after mark_topic_as_read: %v", got)
	}
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{m1, m2}, "op": "remove", "flag": "read"}).OK()
	bob.Post("/api/v1/mark_stream_as_read", apitest.Form{"stream_id": 1}).OK()
	if got := unread(); !slices.Equal(got, []int64{m3}) {
		t.Errorf("after mark_stream_as_read: %v", got)
	}
	bob.Post("/api/v1/mark_stream_as_read", apitest.Form{"stream_id": 3}).Fails(400, "BAD_REQUEST")
	bob.Post("/api/v1/mark_stream_as_read", nil).Fails(400, "REQUEST_VARIABLE_MISSING")
	if res := bob.Post("/api/v1/mark_all_as_read", nil).OK(); res.Body["complete"] != true {
		t.Errorf("mark_all_as_read: %s", res.Raw)
	}
	if got := unread(); len(got) != 0 {
		t.Errorf("after mark_all_as_read: %v", got)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// GET /messages/matches_narrow tells which of some messages a narrow holds,
// with search hits highlighted, as the Python client's bots ask.
func TestMatchesNarrow(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	hit := send(t, alice, streamMsg("general", "zebras", "a zebra crossing"))
	miss := send(t, alice, streamMsg("general", "horses", "a horse"))
	hidden := send(t, alice, streamMsg("secret", "zebras", "a secret zebra"))
	res := bob.Get("/api/v1/messages/matches_narrow", apitest.Form{"msg_ids": []int64{hit, miss, hidden}, "narrow": `[["search","zebra"]]`}).OK()
	got := res.Body["messages"].(map[string]any)
	m, ok := got[fmt.Sprint(hit)].(map[string]any)
	if len(got) != 1 || !ok || !strings.Contains(m["match_content"].(string), `<span class="highlight">zebra</span>`) || m["match_subject"] != `<span class="highlight">zebras</span>` {
		t.Errorf("matches %s", res.Raw)
	}
	res = bob.Get("/api/v1/messages/matches_narrow", apitest.Form{"msg_ids": []int64{hit, miss}, "narrow": `[["topic","horses"]]`}).OK()
	if got := res.Body["messages"].(map[string]any); len(got) != 1 || got[fmt.Sprint(miss)].(map[string]any)["match_subject"] != "horses" {
		t.Errorf("topic matches %s", res.Raw)
	}
	bob.Get("/api/v1/messages/matches_narrow", apitest.Form{"narrow": "[]"}).Fails(400, "REQUEST_VARIABLE_MISSING")
}

// Spec 2.1's message object: every field it lists, in history and in
// message events (whose flags travel beside the message, as the spec
// notes), with its private recipients' fields; subject_links is
// topic_links under the spec's name.
func TestMessageObjectsCarrySpecFields(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}})
	send(t, alice, streamMsg("general", "see https://example.com/plan", "the plan"))
	send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "psst"})
	spec := []string{"id", "type", "content", "content_type", "subject", "subject_links", "display_recipient", "recipient_id",
		"sender_id", "sender_email", "sender_full_name", "sender_realm_str", "sender_short_name", "avatar_url", "client",
		"is_me_message", "reactions", "submessages", "timestamp"}
	recipientFields := []string{"email", "full_name", "id", "short_name", "is_mirror_dummy"}
	check := func(where string, m map[string]any, withFlags bool) {
		want := spec
		if withFlags {
			want = append(slices.Clone(spec), "flags")
		}
		if m["type"] == "stream" {
			want = append(slices.Clone(want), "stream_id")
			if links, ok := m["subject_links"].([]any); !ok || len(links) != 1 || fmt.Sprint(links) != fmt.Sprint(m["topic_links"]) {
				t.Errorf("%s: subject_links %v, topic_links %v", where, m["subject_links"], m["topic_links"])
			}
		}
		for _, f := range want {
			if _, ok := m[f]; !ok {
				t.Errorf("%s %s message: no %s", where, m["type"], f)
			}
		}
		if people, ok := m["display_recipient"].([]any); ok {
			for _, p := range people {
				for _, f := range recipientFields {
					if _, ok := p.(map[string]any)[f]; !ok {
						t.Errorf("%s: display_recipient entry without %s: %v", where, f, p)
					}
				}
			}
		}
	}
	_, res := history(t, bob, apitest.Form{"anchor": "newest", "num_before": 2, "num_after": 0})
	for _, m := range res.List("messages") {
		check("history", m.(map[string]any), true)
	}
	evs := q.next()
	if len(evs) != 2 {
		t.Fatalf("events %v", evs)
	}
	for _, ev := range evs {
		check("event", ev["message"].(map[string]any), false)
	}
}
