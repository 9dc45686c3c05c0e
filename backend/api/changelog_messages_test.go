package api_test

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// Changelog entries about messages: sending, reactions, narrows, typing,
// mentions and deletion. Each function is one row of changelogCases.

// checkReactionErrorCodes: level 193.
func checkReactionErrorCodes(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "reactions", "react to me"))
	path := fmt.Sprintf("/api/v1/messages/%d/reactions", id)
	smile := apitest.Form{"emoji_name": "smile"}
	alice.Delete(path, smile).Fails(400, "REACTION_DOES_NOT_EXIST")
	alice.Post(path, smile).OK()
	alice.Post(path, smile).Fails(400, "REACTION_ALREADY_EXISTS")
	alice.Delete(path, smile).OK()
}

// narrowIDs lists the IDs of the messages a narrow matches, newest last.
func narrowIDs(t *testing.T, c *apitest.Client, narrow string) []int64 {
	t.Helper()
	ids, _ := history(t, c, narrowed(narrow))
	return ids
}

// checkNarrowOperators checks search operators added by changelog entries
// (levels 194, 249, 250, 265, 271): each narrow matches exactly the
// messages it names, in GET /messages and GET /messages/matches_narrow.
func checkNarrowOperators(ops ...string) func(t *testing.T, s *apitest.Server) {
	return func(t *testing.T, s *apitest.Server) {
		alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
		// Only the topic followed below is followed: not those alice starts (level 214).
		alice.Patch("/api/v1/settings", apitest.Form{"automatically_follow_topics_policy": 4}).OK()
		first := send(t, alice, streamMsg("general", "plans", "first"))
		reacted := send(t, alice, streamMsg("general", "plans", "second"))
		bob.Post(fmt.Sprintf("/api/v1/messages/%d/reactions", reacted), apitest.Form{"emoji_name": "smile"}).OK()
		elsewhere := send(t, alice, streamMsg("random", "other", "third"))
		followed := send(t, alice, streamMsg("general", "followed", "fourth"))
		general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
		alice.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": "followed", "visibility_policy": 3}).OK()
		cases := map[string]struct {
			narrow string
			want   []int64
		}{
			"id as an integer (194)":     {fmt.Sprintf(`[{"operator":"id","operand":%d}]`, reacted), []int64{reacted}},
			"id as a string (194)":       {fmt.Sprintf(`[{"operator":"id","operand":"%d"}]`, first), []int64{first}},
			"has:reaction (249)":         {`[{"operator":"has","operand":"reaction"}]`, []int64{reacted}},
			"channel (250)":              {`[{"operator":"channel","operand":"random"}]`, []int64{elsewhere}},
			"channels:public (250)":      {`[{"operator":"channels","operand":"public"},{"operator":"topic","operand":"plans"}]`, []int64{first, reacted}},
			"is:followed (265)":          {`[{"operator":"is","operand":"followed"}]`, []int64{followed}},
			"with, a topic's link (271)": {fmt.Sprintf(`[{"operator":"with","operand":%d}]`, first), []int64{first, reacted}},
		}
		for _, op := range ops {
			c, ok := cases[op]
			if !ok {
				t.Fatalf("no narrow case %q", op)
			}
			got := narrowIDs(t, alice, c.narrow)
			// The demo organization's own messages may match too: keep ours.
			got = slices.DeleteFunc(got, func(id int64) bool { return id < first })
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %s matched %v, want %v", op, c.narrow, got, c.want)
			}
			res := alice.Get("/api/v1/messages/matches_narrow", apitest.Form{"msg_ids": c.want, "narrow": c.narrow}).OK()
			if m := res.Body["messages"].(map[string]any); len(m) != len(c.want) {
				t.Errorf("%s: matches_narrow %v", op, m)
			}
		}
	}
}

// checkWithFollowsMoves: level 271's with operand keeps finding the
// conversation after the topic is moved.
func checkWithFollowsMoves(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "old name", "a link to me lasts"))
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"topic": "new name", "propagate_mode": "change_all"}).OK()
	later := send(t, alice, streamMsg("general", "new name", "after the move"))
	if got := narrowIDs(t, alice, fmt.Sprintf(`[{"operator":"with","operand":%d}]`, id)); !slices.Equal(got, []int64{id, later}) {
		t.Errorf("with after a move: %v, want %v", got, []int64{id, later})
	}
	alice.Get("/api/v1/messages", narrowed(`[{"operator":"with","operand":"x"}]`)).Fails(400, "BAD_NARROW")
}

// checkStreamTyping: level 215's typing protocol, and 248's "channel".
func checkStreamTyping(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"typing"}})
	for _, typ := range []string{"stream", "channel"} {
		alice.Post("/api/v1/typing", apitest.Form{"op": "start", "type": typ, "stream_id": general, "topic": "plans"}).OK()
		evs := q.next()
		if len(evs) != 1 || evs[0]["message_type"] != "stream" || evs[0]["stream_id"] != float64(general) || evs[0]["topic"] != "plans" {
			t.Errorf("type=%s: %v", typ, evs)
		}
	}
	alice.Post("/api/v1/typing", apitest.Form{"op": "start", "type": "direct", "to": `["bob@example.com"]`}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["message_type"] != "direct" {
		t.Errorf("direct typing: %v", evs)
	}
	alice.Post("/api/v1/typing", apitest.Form{"op": "start", "type": "stream", "topic": "plans"}).Fails(400, "BAD_REQUEST")
}

// checkChannelMessageType: level 248, "channel" as the type of POST
// /messages and of POST and PATCH /scheduled_messages.
func checkChannelMessageType(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	id := send(t, alice, apitest.Form{"type": "channel", "to": "general", "topic": "plans", "content": "sent to a channel"})
	m := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)
	if m["type"] != "stream" || m["display_recipient"] != "general" {
		t.Errorf("message %v", m)
	}
	later := time.Now().Add(time.Hour).Unix()
	general := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	scheduled := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "channel", "to": general, "topic": "plans",
		"content": "later, to a channel", "scheduled_delivery_timestamp": later}).OK().Int("scheduled_message_id")
	bob := s.Login("bob@example.com").Get("/api/v1/users/me", nil).OK().Int("user_id")
	dm := alice.Post("/api/v1/scheduled_messages", apitest.Form{"type": "direct", "to": fmt.Sprintf("[%d]", bob), "content": "a note to bob",
		"scheduled_delivery_timestamp": later}).OK().Int("scheduled_message_id")
	alice.Patch(fmt.Sprintf("/api/v1/scheduled_messages/%d", dm), apitest.Form{"type": "channel", "to": general, "topic": "moved"}).OK()
	for _, sm := range alice.Get("/api/v1/scheduled_messages", nil).OK().List("scheduled_messages") {
		sm := sm.(map[string]any)
		if id := int64(sm["scheduled_message_id"].(float64)); (id == scheduled || id == dm) && sm["type"] != "stream" {
			t.Errorf("scheduled message %v", sm)
		}
	}
}

// checkWildcardFlags: levels 224 and 247: @**all**, @**channel** and
// @**topic** set stream_wildcard_mentioned or topic_wildcard_mentioned,
// and the deprecated wildcard_mentioned beside them.
func checkWildcardFlags(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	send(t, bob, streamMsg("general", "mentions", "so bob took part"))
	for _, tc := range []struct {
		content, flag string
	}{
		{"hello @**all**", "stream_wildcard_mentioned"},
		{"hello @**channel**", "stream_wildcard_mentioned"},
		{"hello @**stream**", "stream_wildcard_mentioned"},
		{"hello @**topic**", "topic_wildcard_mentioned"},
	} {
		id := send(t, alice, streamMsg("general", "mentions", tc.content))
		m := bob.Get(fmt.Sprintf("/api/v1/messages/%d", id), apitest.Form{"apply_markdown": true}).OK().Body["message"].(map[string]any)
		flags := m["flags"].([]any)
		if !slices.Contains(flags, any(tc.flag)) || !slices.Contains(flags, any("wildcard_mentioned")) {
			t.Errorf("%q: flags %v", tc.content, flags)
		}
		if html := m["content"].(string); tc.flag == "stream_wildcard_mentioned" && (!strings.Contains(html, `user-mention`) || !strings.Contains(html, `data-user-id="*"`)) ||
			tc.flag == "topic_wildcard_mentioned" && !strings.Contains(html, `<span class="topic-mention">`) {
			t.Errorf("%q rendered %s", tc.content, html)
		}
	}
}

// checkWildcardPolicyCodes: level 229: a wildcard mention the
// organization's wildcard_mention_policy forbids is refused with its own
// code, in a new message or an edit, a topic wildcard too.
func checkWildcardPolicyCodes(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	// Since level 352 can_mention_many_users_group says who may.
	admins := systemGroups(t, admin)["role:administrators"]
	admin.Patch("/api/v1/realm", apitest.Form{"can_mention_many_users_group": fmt.Sprintf(`{"new":%d}`, admins)}).OK()
	if p := alice.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm"}}).OK().Int("realm_wildcard_mention_policy"); p != 5 {
		t.Errorf("realm_wildcard_mention_policy %d", p)
	}
	// Zulip applies the policy to wildcards reaching more than 15 people.
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	admin.Post("/api/v1/default_streams", apitest.Form{"stream_id": general}).OK()
	send(t, alice, streamMsg("random", "few", "few people here: @**all**"))
	for i := 0; i < 16; i++ {
		admin.Post("/api/v1/users", apitest.Form{"email": fmt.Sprintf("crowd%d@example.com", i), "password": "crowd-pass-1", "full_name": fmt.Sprintf("Crowd %d", i)}).OK()
	}
	alice.Post("/api/v1/messages", streamMsg("general", "crowd", "hello @**all**")).Fails(400, "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
	quiet := send(t, alice, streamMsg("general", "crowd", "hello"))
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", quiet), apitest.Form{"content": "hello @**channel**"}).Fails(400, "STREAM_WILDCARD_MENTION_NOT_ALLOWED")
	// A topic of more than 15 participants is refused @**topic** as well.
	for i := 0; i < 16; i++ {
		send(t, s.Login(fmt.Sprintf("crowd%d@example.com", i)), streamMsg("general", "busy", "here"))
	}
	alice.Post("/api/v1/messages", streamMsg("general", "busy", "hello @**topic**")).Fails(400, "TOPIC_WILDCARD_MENTION_NOT_ALLOWED")
	send(t, alice, streamMsg("general", "quiet topic", "hello @**topic**"))
	send(t, admin, streamMsg("general", "crowd", "admins may: @**all**"))
}

// checkReadBySender: level 236.
func checkReadBySender(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	flags := func(id int64) []any {
		return alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)["flags"].([]any)
	}
	if f := flags(send(t, alice, streamMsg("general", "reads", "read by default"))); !slices.Contains(f, any("read")) {
		t.Errorf("default: %v", f)
	}
	unread := streamMsg("general", "reads", "left unread")
	unread["read_by_sender"] = false
	if f := flags(send(t, alice, unread)); slices.Contains(f, any("read")) {
		t.Errorf("read_by_sender=false: %v", f)
	}
}

// checkCompleteOnMarkAllAsRead: level 211.
func checkCompleteOnMarkAllAsRead(t *testing.T, s *apitest.Server) {
	bob := s.Login("bob@example.com")
	res := bob.Post("/api/v1/mark_all_as_read", nil).OK()
	if res.Body["complete"] != true || res.Body["result"] != "success" {
		t.Errorf("mark_all_as_read: %s", res.Raw)
	}
}

// checkDeleteToDeleter: level 274: the deleter gets delete_message even
// for a stream they are not subscribed to.
func checkDeleteToDeleter(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	alice.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"alices-own"}]`}).OK()
	id := send(t, alice, streamMsg("alices-own", "x", "to be deleted"))
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"delete_message"}})
	admin.Delete(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["type"] != "delete_message" {
		t.Errorf("the deleter's events: %v", evs)
	}
}

// checkFirstMessageIDUpdate: level 256: deleting a stream's first message
// sends a stream update of first_message_id.
func checkFirstMessageIDUpdate(t *testing.T, s *apitest.Server) {
	admin := s.Login("admin@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"fresh"}]`}).OK()
	first := send(t, admin, streamMsg("fresh", "x", "first"))
	second := send(t, admin, streamMsg("fresh", "x", "second"))
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"stream"}})
	admin.Delete(fmt.Sprintf("/api/v1/messages/%d", first), nil).OK()
	evs := q.next()
	if len(evs) != 1 || evs[0]["op"] != "update" || evs[0]["property"] != "first_message_id" || evs[0]["value"] != float64(second) {
		t.Errorf("events %v", evs)
	}
}

// checkUploadURL: level 272: POST /user_uploads answers url, uri kept.
func checkUploadURL(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	res := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"notes.txt", "hello"}}).OK()
	if u := res.Str("url"); !strings.HasPrefix(u, "/user_uploads/") || res.Str("uri") != u {
		t.Errorf("upload answer %s", res.Raw)
	}
}

// checkDeleteTopic: levels 211 and 256: POST /streams/{id}/delete_topic
// answers complete, deletes the topic's messages (delete_message events),
// and updates first_message_id when the first message goes.
func checkDeleteTopic(t *testing.T, s *apitest.Server) {
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": `[{"name":"fresh"}]`}).OK()
	fresh := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "fresh"}).OK().Int("stream_id")
	doomed := []int64{send(t, admin, streamMsg("fresh", "doomed", "one")), send(t, admin, streamMsg("fresh", "Doomed", "two"))}
	kept := send(t, admin, streamMsg("fresh", "kept", "three"))
	q := registerQueue(t, admin, apitest.Form{"event_types": []string{"delete_message", "stream"}})
	path := fmt.Sprintf("/api/v1/streams/%d/delete_topic", fresh)
	alice.Post(path, apitest.Form{"topic_name": "doomed"}).Fails(400, "UNAUTHORIZED_PRINCIPAL")
	if res := admin.Post(path, apitest.Form{"topic_name": "doomed"}).OK(); res.Body["complete"] != true {
		t.Errorf("answer %s", res.Raw)
	}
	evs := q.next()
	if !slices.Equal(types(evs), []string{"delete_message", "delete_message", "stream:update"}) {
		t.Fatalf("events %v", evs)
	}
	for i, id := range doomed {
		if evs[i]["message_id"] != float64(id) {
			t.Errorf("event %d: %v", i, evs[i])
		}
	}
	if evs[2]["property"] != "first_message_id" || evs[2]["value"] != float64(kept) {
		t.Errorf("stream update %v", evs[2])
	}
	if got := narrowIDs(t, admin, `[{"operator":"channel","operand":"fresh"}]`); !slices.Equal(got, []int64{kept}) {
		t.Errorf("left in the stream: %v", got)
	}
}

// checkImageDimensions: level 276: an uploaded PNG, JPEG or GIF's preview
// carries its size as data-original-dimensions; a file that only calls
// itself an image gets a preview without one.
func checkImageDimensions(t *testing.T, s *apitest.Server) {
	alice := s.Login("alice@example.com")
	picture := image.NewRGBA(image.Rect(0, 0, 7, 3))
	encoded := map[string]func(io.Writer) error{
		"a.png": func(w io.Writer) error { return png.Encode(w, picture) },
		"b.jpg": func(w io.Writer) error { return jpeg.Encode(w, picture, nil) },
		"c.gif": func(w io.Writer) error { return gif.Encode(w, picture, nil) },
	}
	var links []string
	for _, name := range []string{"a.png", "b.jpg", "c.gif"} {
		var buf bytes.Buffer
		if err := encoded[name](&buf); err != nil {
			t.Fatal(err)
		}
		url := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {name, buf.String()}}).OK().Str("url")
		links = append(links, fmt.Sprintf("[%s](%s)", name, url))
	}
	fake := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"fake.png", "not an image"}}).OK().Str("url")
	id := send(t, alice, streamMsg("general", "pictures", strings.Join(links, "\n")+"\n\n[fake.png]("+fake+")"))
	content := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)["content"].(string)
	if got := strings.Count(content, `<img data-original-dimensions="7x3" src="/user_uploads/`); got != 3 {
		t.Errorf("%d previews with the size in %s", got, content)
	}
	if !strings.Contains(content, `<img src="`+fake+`"`) {
		t.Errorf("the fake image's preview: %s", content)
	}
}

// checkAutomaticVisibility: levels 214, 218 and 235. Sending in a stream
// follows or unmutes the topic as the sender's automatic policies say (by
// default: follow the topics one starts; unmute, in a muted stream, those
// one sends to), POST /messages answers automatic_new_visibility_policy
// only when that changed something, and a mention by name follows the
// topic for the person mentioned unless they muted it; each change is a
// user_topic event.
func checkAutomaticVisibility(t *testing.T, s *apitest.Server) {
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"user_topic"}})
	sendAs := func(c *apitest.Client, topic, content string) any {
		return c.Post("/api/v1/messages", streamMsg("general", topic, content)).OK().Body["automatic_new_visibility_policy"]
	}
	policies := func() map[string]float64 {
		got := map[string]float64{}
		for _, ut := range registerState(t, bob, "user_topic")["user_topics"].([]any) {
			ut := ut.(map[string]any)
			got[ut["topic_name"].(string)] = ut["visibility_policy"].(float64)
		}
		return got
	}
	const unmuted, followed = float64(2), float64(3)
	for _, tc := range []struct {
		name          string
		settings      apitest.Form
		sender        *apitest.Client
		topic, text   string
		want          any // bob's automatic_new_visibility_policy; nil: absent
		bobEvents     int
		bobHasPolicy  float64 // bob's policy for the topic after; 0: none
		muteGeneral   bool
		muteTopicBobs bool
	}{
		{name: "starting a topic follows it", sender: bob, topic: "kickoff", text: "first", want: followed, bobEvents: 1, bobHasPolicy: followed},
		{name: "a followed topic stays followed", sender: bob, topic: "kickoff", text: "second", bobHasPolicy: followed},
		{name: "sending to a topic someone else started changes nothing", sender: bob, topic: "welcome", text: "hello"},
		{name: "on send, sending follows", settings: apitest.Form{"automatically_follow_topics_policy": 2}, sender: bob, topic: "lunch", text: "me too", want: followed, bobEvents: 1, bobHasPolicy: followed},
		{name: "in a muted stream, sending unmutes", settings: apitest.Form{"automatically_follow_topics_policy": 4}, muteGeneral: true, sender: bob, topic: "welcome", text: "again", want: unmuted, bobEvents: 1, bobHasPolicy: unmuted},
		{name: "never unmuting", settings: apitest.Form{"automatically_unmute_topics_in_muted_streams_policy": 4}, sender: bob, topic: "quiet", text: "shh", bobHasPolicy: 0},
		{name: "a mention follows the topic for the one mentioned", sender: alice, topic: "plans", text: "what do you think, @**Bob Brown**?", bobEvents: 1, bobHasPolicy: followed},
		{name: "a silent mention does not", sender: alice, topic: "silent plans", text: "as @_**Bob Brown** said", bobHasPolicy: 0},
		{name: "a muted topic stays muted", muteTopicBobs: true, sender: alice, topic: "noise", text: "@**Bob Brown** look", bobEvents: 0, bobHasPolicy: 1},
		{name: "not where mentioned, if turned off", settings: apitest.Form{"automatically_follow_topics_where_mentioned": false}, sender: alice, topic: "more plans", text: "@**Bob Brown** again"},
	} {
		for k, v := range tc.settings {
			bob.Patch("/api/v1/settings", apitest.Form{k: v}).OK()
		}
		if tc.muteGeneral {
			bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": fmt.Sprintf(`[{"stream_id":%d,"property":"is_muted","value":true}]`, general)}).OK()
		}
		if tc.muteTopicBobs {
			bob.Post("/api/v1/user_topics", apitest.Form{"stream_id": general, "topic": tc.topic, "visibility_policy": 1}).OK()
			q.next()
		}
		got := sendAs(tc.sender, tc.topic, tc.text)
		if tc.sender == bob && got != tc.want {
			t.Errorf("%s: automatic_new_visibility_policy %v, want %v", tc.name, got, tc.want)
		}
		evs := q.next()
		if len(evs) != tc.bobEvents {
			t.Errorf("%s: bob's user_topic events %v", tc.name, evs)
		}
		for _, e := range evs {
			if e["topic_name"] != tc.topic || e["visibility_policy"] != tc.bobHasPolicy || e["stream_id"] != float64(general) {
				t.Errorf("%s: event %v", tc.name, e)
			}
		}
		if p := policies()[tc.topic]; p != tc.bobHasPolicy {
			t.Errorf("%s: bob's policy for %q is %v, want %v", tc.name, tc.topic, p, tc.bobHasPolicy)
		}
	}
	// Reacting is taking part: on participation, it follows.
	id := send(t, alice, streamMsg("general", "recipes", "soup?"))
	reactions := fmt.Sprintf("/api/v1/messages/%d/reactions", id)
	bob.Post(reactions, apitest.Form{"emoji_name": "smile"}).OK()
	if evs := q.next(); len(evs) != 0 {
		t.Errorf("reacting, with neither policy on participation: %v", evs)
	}
	bob.Delete(reactions, apitest.Form{"emoji_name": "smile"}).OK()
	bob.Patch("/api/v1/settings", apitest.Form{"automatically_follow_topics_policy": 1}).OK()
	bob.Post(reactions, apitest.Form{"emoji_name": "smile"}).OK()
	if evs := q.next(); len(evs) != 1 || evs[0]["topic_name"] != "recipes" || evs[0]["visibility_policy"] != followed {
		t.Errorf("reacting, with following on participation: %v", evs)
	}
}
