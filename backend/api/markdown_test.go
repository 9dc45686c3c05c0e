package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func TestLinkifiersEndToEnd(t *testing.T) {
	s := apitest.Start(t)
	admin, alice := s.Login("admin@example.com"), s.Login("alice@example.com")
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"realm_linkifiers", "realm_filters"}})

	alice.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://git.lan/issues/{id}"}).Fails(400, "BAD_REQUEST")
	id := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://git.lan/issues/{id}"}).OK().Int("id")
	legacy := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `RFC(?P<num>[0-9]+)`, "url_format_string": "https://rfc.lan/%(num)s"}).OK().Int("id")
	if got := types(q.next()); !slices.Equal(got, []string{"realm_linkifiers", "realm_filters", "realm_linkifiers", "realm_filters"}) {
		t.Errorf("events %v", got)
	}
	admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `(?P<x`, "url_template": "https://x.lan/{x}"}).Fails(400, "BAD_REQUEST")
	admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `x`}).Fails(400, "REQUEST_VARIABLE_MISSING")

	list := alice.Get("/api/v1/realm/linkifiers", nil).OK().List("linkifiers")
	if len(list) != 2 || list[1].(map[string]any)["url_template"] != "https://rfc.lan/{num}" {
		t.Errorf("linkifiers %v", list)
	}
	if filters := alice.Get("/api/v1/realm/filters", nil).OK().List("filters"); len(filters) != 2 || len(filters[0].([]any)) != 3 {
		t.Errorf("legacy filters %v", filters)
	}

	msg := send(t, alice, streamMsg("general", "fix #42", "closes #42, see RFC2119"))
	m := alice.Get(msgPath(msg, ""), nil).OK().Body["message"].(map[string]any)
	if !strings.Contains(m["content"].(string), `<a href="https://git.lan/issues/42">#42</a>`) || !strings.Contains(m["content"].(string), `<a href="https://rfc.lan/2119">RFC2119</a>`) {
		t.Errorf("linkified content %v", m["content"])
	}
	if links := m["topic_links"].([]any); len(links) != 1 || links[0].(map[string]any)["url"] != "https://git.lan/issues/42" {
		t.Errorf("topic_links %v", links)
	}

	admin.Patch(fmt.Sprintf("/api/v1/realm/filters/%d", id), apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://tracker.lan/{id}"}).OK()
	admin.Delete(fmt.Sprintf("/api/v1/realm/filters/%d", legacy), nil).OK()
	if msg := admin.Delete(fmt.Sprintf("/api/v1/realm/filters/%d", legacy), nil).Fails(400, "BAD_REQUEST").Msg(); msg != "Linkifier not found." {
		t.Errorf("unknown linkifier: %q", msg)
	}
	alice.Delete(fmt.Sprintf("/api/v1/realm/filters/%d", id), nil).Fails(400, "BAD_REQUEST")
	preview := alice.Post("/api/v1/messages/render", apitest.Form{"content": "#7 RFC1"}).OK().Str("rendered")
	if preview != `<p><a href="https://tracker.lan/7">#7</a> RFC1</p>` {
		t.Errorf("after update and delete: %q", preview)
	}
}

func TestMentionFlagsPerRecipient(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	flagsOf := func(c *apitest.Client, id int64) []any {
		return c.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["flags"].([]any)
	}
	direct := send(t, alice, streamMsg("general", "m", "hey @**Bob Brown**"))
	if f := flagsOf(bob, direct); !slices.Contains(f, any("mentioned")) {
		t.Errorf("bob's flags %v", f)
	}
	if f := flagsOf(admin, direct); slices.Contains(f, any("mentioned")) {
		t.Errorf("admin's flags %v", f)
	}
	group := send(t, admin, streamMsg("general", "m", "@*engineering* standup"))
	if f := flagsOf(alice, group); !slices.Contains(f, any("mentioned")) {
		t.Errorf("alice (engineering) %v", f)
	}
	wildcard := send(t, admin, streamMsg("general", "m", "@**all** heads up"))
	if f := flagsOf(bob, wildcard); !slices.Contains(f, any("wildcard_mentioned")) || !slices.Contains(f, any("stream_wildcard_mentioned")) {
		t.Errorf("wildcard flags %v", f)
	}
	quoted := send(t, alice, streamMsg("general", "m", "> @**Bob Brown** said so"))
	silent := send(t, alice, streamMsg("general", "m", "thanks @_**Bob Brown**"))
	for _, id := range []int64{quoted, silent} {
		if f := flagsOf(bob, id); slices.Contains(f, any("mentioned")) {
			t.Errorf("message %d: bob mentioned %v", id, f)
		}
	}
	got, _ := history(t, bob, narrowed(`[["is","mentioned"]]`))
	got = slices.DeleteFunc(got, func(id int64) bool { return id < direct }) // the demo messages
	if !slices.Equal(got, []int64{direct, group, wildcard}) {
		t.Errorf("is:mentioned %v", got)
	}
	// An edit that adds a mention sets the flag.
	later := send(t, alice, streamMsg("general", "m", "no one yet"))
	alice.Patch(msgPath(later, ""), apitest.Form{"content": "now @**Bob Brown**"}).OK()
	if f := flagsOf(bob, later); !slices.Contains(f, any("mentioned")) {
		t.Errorf("after edit %v", f)
	}
	// Stream links never reveal a private stream.
	bobPreview := bob.Post("/api/v1/messages/render", apitest.Form{"content": "#**secret** #**general**"}).OK().Str("rendered")
	if strings.Contains(bobPreview, "data-stream-id=\"3\"") || !strings.Contains(bobPreview, `class="stream"`) {
		t.Errorf("bob's preview %q", bobPreview)
	}
	bob.Post("/api/v1/messages/render", apitest.Form{"content": " "}).Fails(400, "BAD_REQUEST")
}
