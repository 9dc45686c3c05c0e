package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// inStream marks the event types that can concern a private stream:
// TestPrivateStreamEventsStayInside triggers each inside one.
const inStream = "about a stream"

// eventTypes classifies every event type the server emits: inStream, or
// why it cannot concern a private stream. TestEveryEventTypeIsClassified
// fails when the source emits a type missing here.
var eventTypes = map[string]string{
	"message":              inStream,
	"update_message":       inStream,
	"delete_message":       inStream,
	"reaction":             inStream,
	"submessage":           inStream,
	"typing":               inStream,
	"typing_edit_message":  inStream,
	"stream":               inStream,
	"subscription":         inStream,
	"update_message_flags": inStream,
	"muted_topics":         inStream,
	"user_topic":           inStream,
	"presence":             "a person's status, which the whole organization sees",
	"realm_user":           "people belong to the organization, not to streams",
	"realm_bot":            "bots belong to the organization, not to streams",
	"muted_users":          "the muter's own list of people",
	"realm":                "organization settings",
	"realm_emoji":          "custom emoji belong to the organization",
	"default_streams":      "public streams only: a private stream cannot be a default one",
	"realm_linkifiers":     "organization settings",
	"realm_playgrounds":    "organization settings",
	"realm_filters":        "organization settings (realm_linkifiers' legacy name)",
	"user_group":           "groups of people, organization-wide",
	"alert_words":          "the user's own words, sent to that user alone",
	"user_settings":        "the user's own preferences, sent to that user alone",
	"onboarding_steps":     "the notices the user has yet to see, sent to that user alone",
	"invites_changed":      "carries nothing: administrators and the inviter fetch GET /invites again",
	"user_status":          "a person's status, which the whole organization sees",
	"attachment":           "the user's own uploads (an ID and the space used), sent to that user alone",
	"heartbeat":            "keeps a long poll alive; carries nothing",
	"scheduled_messages":   "the sender's own scheduled messages, sent to that user alone",

	"custom_profile_fields": "organization settings",
	"saved_snippets":        "the user's own snippets, sent to that user alone",
	"realm_export_consent":  "a person's consent to data exports, sent to administrators",
}

// TestEveryEventTypeIsClassified compares eventTypes with the types the
// source can emit.
func TestEveryEventTypeIsClassified(t *testing.T) {
	emitted := emittedEventTypes(t)
	for typ, where := range emitted {
		if _, ok := eventTypes[typ]; !ok {
			t.Errorf("event type %q (%s) is not classified: add it to eventTypes, and if it can concern a private stream, a step to TestPrivateStreamEventsStayInside", typ, where)
		}
	}
	for typ := range eventTypes {
		if _, ok := emitted[typ]; !ok {
			t.Errorf("eventTypes lists %q, which the server no longer emits", typ)
		}
	}
}

// emittedEventTypes finds, by type-checking packages events and domain,
// every constant set as the "type" of an events.Event (in a composite
// literal or by assignment), with where it is. Type information keeps out
// maps that merely have a "type" key; a type that is not a constant fails
// the test, since it could not be classified.
func emittedEventTypes(t *testing.T) map[string]string {
	t.Helper()
	const eventsPkg, domainPkg = "lanchat/backend/events", "lanchat/backend/domain"
	out, err := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export", eventsPkg, domainPkg).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type listed struct {
		ImportPath, Dir, Export string
		GoFiles                 []string
	}
	pkgs := map[string]listed{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = p
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(pkgs[path].Export) })
	found := map[string]string{}
	for _, path := range []string{eventsPkg, domainPkg} {
		var files []*ast.File
		for _, name := range pkgs[path].GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(pkgs[path].Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &gotypes.Info{Types: map[ast.Expr]gotypes.TypeAndValue{}}
		if _, err := (&gotypes.Config{Importer: imp}).Check(path, fset, files, info); err != nil {
			t.Fatalf("type-check %s: %v", path, err)
		}
		isEvent := func(e ast.Expr) bool {
			named, ok := info.TypeOf(e).(*gotypes.Named)
			return ok && named.Obj().Name() == "Event" && named.Obj().Pkg().Path() == eventsPkg
		}
		str := func(e ast.Expr) (string, bool) {
			v := info.Types[e].Value
			if v == nil || v.Kind() != constant.String {
				return "", false
			}
			return constant.StringVal(v), true
		}
		record := func(key, value ast.Expr) {
			if k, _ := str(key); k != "type" {
				return
			}
			where := fset.Position(value.Pos()).String()
			if typ, ok := str(value); ok {
				found[typ] = where
			} else {
				t.Errorf("%s: an event's type is not a constant, so the permission tests cannot classify it", where)
			}
		}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					if isEvent(n) {
						for _, el := range n.Elts {
							if kv, ok := el.(*ast.KeyValueExpr); ok {
								record(kv.Key, kv.Value)
							}
						}
					}
				case *ast.AssignStmt:
					for i, lhs := range n.Lhs {
						if ix, ok := lhs.(*ast.IndexExpr); ok && isEvent(ix.X) && len(n.Rhs) == len(n.Lhs) {
							record(ix.Index, n.Rhs[i])
						}
					}
				}
				return true
			})
		}
	}
	return found
}

// TestPrivateStreamEventsStayInside does, inside the private stream, one
// action for each kind of event that can concern a stream: each step's
// events reach exactly the subscribers they should, and no outsider queue
// (a member's, a member's with all_public_streams, a guest's) hears
// anything at all.
func TestPrivateStreamEventsStayInside(t *testing.T) {
	s := apitest.Start(t)
	alice, admin, echo := s.Login("alice@example.com"), s.Login("admin@example.com"), s.Login("echo-bot@example.com")
	bob, guest := s.Login("bob@example.com"), s.Login("guest@example.com")
	outsiders := []*queue{
		registerQueue(t, bob, nil),
		registerQueue(t, bob, apitest.Form{"all_public_streams": true}),
		registerQueue(t, guest, nil),
	}
	// The administrator and alice are subscribed; the bot joins and leaves.
	insiders := map[string]*queue{"alice": registerQueue(t, alice, nil), "admin": registerQueue(t, admin, nil), "bot": registerQueue(t, echo, nil)}
	secretID := alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "secret"}).OK().Int("stream_id")
	secretPath := fmt.Sprintf("/api/v1/streams/%d", secretID)
	var id int64
	join := func(c *apitest.Client, stream string, f apitest.Form) {
		f["subscriptions"] = []map[string]string{{"name": stream}}
		c.Post("/api/v1/users/me/subscriptions", f).OK()
	}
	flag := func(c *apitest.Client, op, flag string) {
		c.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{id}, "op": op, "flag": flag}).OK()
	}
	both := func(types ...string) map[string][]string { return map[string][]string{"alice": types, "admin": types} }
	steps := []struct {
		name string
		do   func()
		want map[string][]string // the types each insider hears
	}{
		// Starting the topic follows it for alice (level 214), for her alone.
		{"send", func() { id = send(t, alice, streamMsg("secret", "plans", "hidden")) },
			map[string][]string{"alice": {"muted_topics", "user_topic", "message"}, "admin": {"message"}}},
		{"edit", func() { alice.Patch(msgPath(id, ""), apitest.Form{"content": "hidden, edited"}).OK() }, both("update_message")},
		{"rename topic", func() {
			alice.Patch(msgPath(id, ""), apitest.Form{"topic": "schemes", "propagate_mode": "change_all"}).OK()
		}, both("update_message")},
		{"react", func() { alice.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "+1"}).OK() }, both("reaction:add")},
		{"unreact", func() { alice.Delete(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "+1"}).OK() }, both("reaction:remove")},
		{"add a submessage", func() {
			alice.Post("/api/v1/submessage", apitest.Form{"message_id": id, "msg_type": "widget", "content": `{"type":"strike","key":"1,1"}`}).OK()
		}, both("submessage")},
		{"start editing", func() {
			alice.Post(msgPath(id, "/typing"), apitest.Form{"op": "start"}).OK()
		}, map[string][]string{"admin": {"typing_edit_message:start"}}},
		{"start typing", func() {
			alice.Post("/api/v1/typing", apitest.Form{"op": "start", "type": "stream", "stream_id": secretID, "topic": "schemes"}).OK()
		}, map[string][]string{"admin": {"typing:start"}}},
		{"stop typing", func() {
			alice.Post("/api/v1/typing", apitest.Form{"op": "stop", "type": "stream", "stream_id": secretID, "topic": "schemes"}).OK()
		}, map[string][]string{"admin": {"typing:stop"}}},
		{"star", func() { flag(alice, "add", "starred") }, map[string][]string{"alice": {"update_message_flags:add"}}},
		{"mark unread", func() { flag(admin, "remove", "read") }, map[string][]string{"admin": {"update_message_flags:remove"}}},
		{"mark stream read", func() { admin.Post("/api/v1/mark_stream_as_read", apitest.Form{"stream_id": secretID}).OK() },
			map[string][]string{"admin": {"update_message_flags:add"}}},
		{"mark topic read", func() {
			flag(admin, "remove", "read")
			admin.Post("/api/v1/mark_topic_as_read", apitest.Form{"stream_id": secretID, "topic_name": "schemes"}).OK()
		}, map[string][]string{"admin": {"update_message_flags:remove", "update_message_flags:add"}}},
		{"mute topic", func() {
			alice.Patch("/api/v1/users/me/subscriptions/muted_topics", apitest.Form{"stream": "secret", "topic": "schemes", "op": "add"}).OK()
		}, map[string][]string{"alice": {"muted_topics", "user_topic"}}},
		{"subscription color", func() {
			alice.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{{"stream_id": secretID, "property": "color", "value": "#aabbcc"}}}).OK()
		}, map[string][]string{"alice": {"subscription:update"}}},
		{"describe stream", func() { admin.Patch(secretPath, apitest.Form{"description": "still hidden"}).OK() }, both("stream:update")},
		{"rename stream and back", func() {
			admin.Patch(secretPath, apitest.Form{"new_name": "hush"}).OK()
			admin.Patch(secretPath, apitest.Form{"new_name": "secret"}).OK()
		}, both("stream:update", "stream:update")},
		{"add a subscriber", func() { join(alice, "secret", apitest.Form{"principals": []string{"echo-bot@example.com"}}) },
			map[string][]string{"alice": {"subscription:peer_add"}, "admin": {"subscription:peer_add"}, "bot": {"stream:create", "subscription:add"}}},
		{"a subscriber leaves", func() {
			echo.Delete("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []string{"secret"}}).OK()
		},
			map[string][]string{"alice": {"subscription:peer_remove"}, "admin": {"subscription:peer_remove"}, "bot": {"subscription:remove"}}},
		{"create a private stream", func() {
			join(alice, "hideout", apitest.Form{"invite_only": true, "principals": []string{"alice@example.com", "admin@example.com"}})
		}, both("stream:create", "subscription:add")},
		{"delete it", func() {
			admin.Delete(fmt.Sprintf("/api/v1/streams/%d", alice.Get("/api/v1/get_stream_id", apitest.Form{"stream": "hideout"}).OK().Int("stream_id")), nil).OK()
		}, both("subscription:remove", "stream:delete")},
		// It was the stream's first message: first_message_id changes (level 256).
		{"delete message", func() { admin.Delete(msgPath(id, ""), nil).OK() }, both("delete_message", "stream:update")},
	}
	heard := map[string]bool{}
	for _, step := range steps {
		step.do()
		for i, q := range outsiders {
			if evs := q.next(); len(evs) != 0 {
				t.Errorf("%s: outsider queue %d heard %v", step.name, i, types(evs))
			}
		}
		for _, who := range slices.Sorted(maps.Keys(insiders)) {
			got := types(insiders[who].next())
			if !slices.Equal(got, step.want[who]) {
				t.Errorf("%s: %s heard %v, want %v", step.name, who, got, step.want[who])
			}
			for _, typ := range got {
				typ, _, _ = strings.Cut(typ, ":")
				if _, ok := eventTypes[typ]; !ok {
					t.Errorf("%s: %s heard %q, which eventTypes does not classify", step.name, who, typ)
				}
				heard[typ] = true
			}
		}
	}
	for typ, class := range eventTypes {
		if class == inStream && !heard[typ] {
			t.Errorf("no step triggers %q inside the private stream", typ)
		}
	}
}
