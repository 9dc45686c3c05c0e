package api_test

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"lanchat/backend/apitest"
)

// TestTextLimits sends each limited text at its limit, which is stored,
// and one character over, which is refused with Zulip's message. Unlimited,
// a megabyte sent once went out again in every client's register. Each
// case's form holds the limited text at n characters (é where any text
// goes, so that characters are counted, not bytes).
func TestTextLimits(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	created := 0
	unique := func(name string) string { created++; return fmt.Sprintf("%s %d", name, created) }
	group := admin.Post("/api/v1/user_groups/create", apitest.Form{"name": "limits", "description": "", "members": []int64{}}).OK().Int("group_id")
	linkifier := admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": "L-(?P<id>[0-9]+)", "url_template": "https://l.lan/{id}"}).OK().Int("id")
	general := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	urlField := admin.Post("/api/v1/realm/profile_fields", apitest.Form{"name": "Website", "field_type": 5}).OK().Int("id")
	pad := func(prefix, filler string, n int) string {
		return prefix + strings.Repeat(filler, n-utf8.RuneCountInString(prefix))
	}
	cases := []struct {
		method, path string
		form         func(n int) apitest.Form
		limit        int
		msg          string
	}{
		{"PATCH", "/api/v1/realm", func(n int) apitest.Form { return apitest.Form{"description": pad("", "é", n)} },
			1000, "description is too long (limit: 1000 characters)"},
		{"PATCH", "/api/v1/realm", func(n int) apitest.Form { return apitest.Form{"jitsi_server_url": pad("https://meet.lan/", "a", n)} },
			200, "jitsi_server_url is too long (limit: 200 characters)"},
		{"POST", "/api/v1/user_groups/create", func(n int) apitest.Form {
			return apitest.Form{"name": pad("", "é", n), "description": "", "members": []int64{}}
		}, 100, "User group name cannot exceed 100 characters."},
		{"POST", "/api/v1/user_groups/create", func(n int) apitest.Form {
			return apitest.Form{"name": unique("group"), "description": pad("", "é", n), "members": []int64{}}
		}, 1024, "description is too long (limit: 1024 characters)"},
		{"PATCH", fmt.Sprintf("/api/v1/user_groups/%d", group), func(n int) apitest.Form { return apitest.Form{"description": pad("", "é", n)} },
			1024, "description is too long (limit: 1024 characters)"},
		{"POST", "/api/v1/realm/filters", func(n int) apitest.Form {
			return apitest.Form{"pattern": pad("", "é", n), "url_template": "https://l.lan/"}
		}, 1000, "pattern is too long (limit: 1000 characters)"},
		{"PATCH", fmt.Sprintf("/api/v1/realm/filters/%d", linkifier), func(n int) apitest.Form {
			return apitest.Form{"pattern": "L-(?P<id>[0-9]+)", "url_template": pad("https://l.lan/{id}/", "é", n)}
		}, 2048, "url_template is too long (limit: 2048 characters)"},
		{"POST", "/api/v1/realm/playgrounds", func(n int) apitest.Form {
			return apitest.Form{"name": pad("", "é", n), "pygments_language": "Go", "url_template": "https://go.lan/?c={code}"}
		}, 100, "name is too long (limit: 100 characters)"},
		{"POST", "/api/v1/realm/playgrounds", func(n int) apitest.Form {
			return apitest.Form{"name": unique("Go"), "pygments_language": pad("", "a", n), "url_template": "https://go.lan/?c={code}"}
		}, 40, "pygments_language is too long (limit: 40 characters)"},
		{"POST", "/api/v1/realm/playgrounds", func(n int) apitest.Form {
			return apitest.Form{"name": unique("Go"), "pygments_language": "Go", "url_template": pad("https://go.lan/?c={code}&", "é", n)}
		}, 2048, "url_template is too long (limit: 2048 characters)"},
		{"POST", "/api/v1/realm/profile_fields", func(n int) apitest.Form {
			data := fmt.Sprintf(`{"subtype":"custom","url_pattern":"%s"}`, pad("https://x.lan/%(username)s/", "é", n))
			return apitest.Form{"name": unique("Account"), "field_type": 7, "field_data": data}
		}, 1024, "url_pattern is too long (limit: 1024 characters)"},
		{"POST", "/api/v1/realm/profile_fields", func(n int) apitest.Form {
			data := pad(`{"1":{"text":"`, "é", n-len(`","order":"1"}}`)) + `","order":"1"}}`
			return apitest.Form{"name": unique("List"), "field_type": 3, "field_data": data}
		}, 50000, "field_data is too long (limit: 50000 characters)"},
		{"POST", "/api/v1/messages", func(n int) apitest.Form {
			return apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c", "queue_id": "q", "local_id": pad("", "é", n)}
		}, 100, "local_id is too long (limit: 100 characters)"},
		{"POST", "/api/v1/messages", func(n int) apitest.Form {
			return apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c", "queue_id": pad("", "é", n), "local_id": "1"}
		}, 100, "queue_id is too long (limit: 100 characters)"},
		{"PUT", "/api/v1/bot_storage", func(n int) apitest.Form {
			return apitest.Form{"storage": map[string]string{pad("", "é", n): "v"}}
		}, 1000, "storage key is too long (limit: 1000 characters)"},
		{"POST", "/api/v1/user_topics", func(n int) apitest.Form {
			return apitest.Form{"stream_id": general, "topic": pad("", "é", n), "visibility_policy": 3}
		}, 60, "topic is too long (limit: 60 characters)"},
		{"PATCH", "/api/v1/users/me/subscriptions/muted_topics", func(n int) apitest.Form {
			return apitest.Form{"stream": "general", "topic": pad("", "ü", n), "op": "add"}
		}, 60, "topic is too long (limit: 60 characters)"},
		{"PATCH", "/api/v1/users/me/profile_data", func(n int) apitest.Form {
			return apitest.Form{"data": []map[string]any{{"id": urlField, "value": pad("https://x.lan/", "a", n)}}}
		}, 2048, "Website is too long (limit: 2048 characters)"},
	}
	for _, tc := range cases {
		body := func(n int) io.Reader { return strings.NewReader(tc.form(n).Encode()) }
		if r := admin.Do(tc.method, tc.path, "application/x-www-form-urlencoded", body(tc.limit)); r.Status != 200 {
			t.Errorf("%s %s at its limit of %d: %s", tc.method, tc.path, tc.limit, r)
		}
		over := admin.Do(tc.method, tc.path, "application/x-www-form-urlencoded", body(tc.limit+1))
		if over.Status != 400 || over.Body["code"] != "BAD_REQUEST" || over.Msg() != tc.msg {
			t.Errorf("%s %s over its limit: %s, want 400 BAD_REQUEST %q", tc.method, tc.path, over, tc.msg)
		}
	}
	if got := admin.Post("/api/v1/register", nil).OK().Str("realm_description"); got != strings.Repeat("é", 1000) {
		t.Errorf("realm_description is %d bytes, want the 1000 characters at the limit", len(got))
	}
}

// TestFarFutureTimes sends times that overflow or pass the last date a
// calendar holds (year 9999): refused, where an invitation was stored
// already expired (its expiry overflowed to the past) and a scheduled
// message for a time no client can show.
func TestFarFutureTimes(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	cases := []struct {
		path string
		form apitest.Form
		msg  string
	}{
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "9223372036854775807"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "153722867280912930"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "5000000000"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c",
			"scheduled_delivery_timestamp": "9223372036854775807"}, "Scheduled delivery time is past the year 9999."},
		{"/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c",
			"scheduled_delivery_timestamp": "253402300800"}, "Scheduled delivery time is past the year 9999."},
	}
	for _, tc := range cases {
		if msg := admin.Post(tc.path, tc.form).Msg(); msg != tc.msg {
			t.Errorf("%s %v: %q, want %q", tc.path, tc.form, msg, tc.msg)
		}
	}
	// A year ahead is still fine.
	admin.Post("/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "525600"}).OK()
	if got := len(admin.Get("/api/v1/invites", nil).OK().List("invites")); got != 1 {
		t.Errorf("%d invitations listed, want the one valid", got)
	}
}

// TestClientNameLimit sends with a User-Agent whose first token is 40,000
// characters: the client's name is cut to Zulip's 30 (Client.MAX_NAME_LENGTH)
// where it was stored whole with the message, and as a presence key
// over bbolt's 32 KiB key limit failed with a 500.
func TestClientNameLimit(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	long := strings.Repeat("é", 40000)
	alice.Header = map[string][]string{"User-Agent": {long + "/1.0"}}
	presence := alice.Post("/api/v1/users/me/presence", apitest.Form{"status": "active"})
	if presence.Status != 200 {
		t.Errorf("presence from a long client name: %s", presence)
	} else if got := presence.Body["presences"].(map[string]any)["alice@example.com"].(map[string]any)["aggregated"].(map[string]any)["client"]; got != long[:60] {
		t.Errorf("presence's client is %d bytes, want the first 30 characters", len(fmt.Sprint(got)))
	}
	id := alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "hi"}).OK().Int("id")
	msg := alice.Get(fmt.Sprintf("/api/v1/messages/%d", id), nil).OK().Body["message"].(map[string]any)
	if got := msg["client"]; got != long[:60] {
		t.Errorf("the message's client is %d bytes, want the first 30 characters", len(fmt.Sprint(got)))
	}
}

// TestEventTypesAreBounded registers with 201 event types, and with one
// name of 101 characters: refused, where each queue kept the whole list (a
// megabyte, 50 queues a person) in memory and in its stored record.
func TestEventTypesAreBounded(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	types := func(n int, name string) []string {
		out := []string{name}
		for i := 1; i < n; i++ {
			out = append(out, fmt.Sprintf("type%d", i))
		}
		return out
	}
	alice.Post("/api/v1/register", apitest.Form{"event_types": types(200, strings.Repeat("é", 100))}).OK()
	for _, param := range []string{"event_types", "fetch_event_types"} {
		for _, list := range [][]string{types(201, "message"), types(1, strings.Repeat("é", 101))} {
			r := alice.Post("/api/v1/register", apitest.Form{param: list})
			if want := "Invalid " + param + ": at most 200 types of at most 100 characters"; r.Status != 400 || r.Msg() != want {
				t.Errorf("%s of %d types: %s, want %q", param, len(list), r, want)
			}
		}
	}
}
