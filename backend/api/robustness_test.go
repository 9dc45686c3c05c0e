package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// garbage are values that every parameter must survive.
var garbage = []string{"", "null", "-1", "0", "99999999999999999999", "abc", "[]", "{}", `["x"]`, `[1,"a"]`,
	`{"operator":5}`, "true", strings.Repeat("x", 20000), "\x00\xff", `[["stream"]]`, `[[1,2]]`, "1e400", `"`}

// paramNames are every parameter name the handlers read.
var paramNames = []string{"anchor", "num_before", "num_after", "narrow", "apply_markdown", "client_gravatar",
	"type", "to", "topic", "subject", "content", "messages", "op", "flag", "stream_id", "topic_name",
	"subscriptions", "principals", "invite_only", "subscription_data", "stream", "queue_id", "last_event_id",
	"dont_block", "event_types", "fetch_event_types", "client_capabilities", "username", "password",
	"propagate_mode", "new_name", "description", "is_private", "message_ids", "include_anchor",
	"use_first_unread_anchor", "include_subscribers", "all_public_streams", "local_id", "read_by_sender"}

var pathParam = regexp.MustCompile(`\{[a-z_]+\}`)

// TestEveryRouteSurvivesBadInput drives each route of the table, as an
// administrator, with garbage in every path segment and parameter, in the
// query and as a form body: no answer may be a 5xx or non-JSON.
func TestEveryRouteSurvivesBadInput(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := domain.New(st, domain.Config{Dev: true})
	if err := svc.SeedDevOrganization(); err != nil {
		t.Fatal(err)
	}
	a := New(svc, Options{})
	admin, err := svc.DevFetchAPIKey("admin@example.com")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a)
	defer srv.Close()
	client := &http.Client{}
	requests := 0
	for _, rt := range a.routes() {
		if strings.HasSuffix(rt.path, "/socket") {
			continue // upgrades; covered by socket_test.go
		}
		for _, segment := range []string{"1", "abc", "99999999999999999999"} {
			path := pathParam.ReplaceAllString(rt.path, url.PathEscape(segment))
			for _, value := range garbage {
				form := url.Values{}
				for _, name := range paramNames {
					form.Set(name, value)
				}
				for _, enc := range []string{"query", "form"} {
					if enc == "query" && len(value) > 1000 {
						continue // net/http itself answers 431 to huge URLs, before any handler
					}
					target, body, ctype := srv.URL+path, "", ""
					if enc == "query" {
						target += "?" + form.Encode()
					} else {
						body, ctype = form.Encode(), "application/x-www-form-urlencoded"
					}
					req, _ := http.NewRequest(rt.method, target, strings.NewReader(body))
					if ctype != "" {
						req.Header.Set("Content-Type", ctype)
					}
					req.SetBasicAuth("admin@example.com", admin.APIKey)
					// Blocking reads would wait for a heartbeat: force dont_block.
					if rt.path == "/api/v1/events" && rt.method == "GET" {
						q := req.URL.Query()
						q.Set("dont_block", "true")
						req.URL.RawQuery = q.Encode()
					}
					resp, err := client.Do(req)
					if err != nil {
						t.Fatalf("%s %s: %v", rt.method, path, err)
					}
					var answer map[string]any
					decodeErr := json.NewDecoder(resp.Body).Decode(&answer)
					resp.Body.Close()
					requests++
					if resp.StatusCode >= 500 || decodeErr != nil || answer["result"] == nil {
						t.Fatalf("%s %s (%s, value %.40q): %d, %v %v", rt.method, path, enc, value, resp.StatusCode, decodeErr, answer)
					}
				}
			}
		}
	}
	t.Logf("%d requests, none failed", requests)
}
