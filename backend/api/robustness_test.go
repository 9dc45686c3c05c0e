package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// garbage are values that every parameter must survive: wrong types,
// JSON nested 10,000 deep, numbers past int64 and float64, NaN, a lone
// surrogate, NUL and invalid UTF-8.
var garbage = []string{"", "null", "-1", "0", "99999999999999999999", "abc", "[]", "{}", `["x"]`, `[1,"a"]`,
	`{"operator":5}`, "true", strings.Repeat("x", 20000), "\x00\xff", `[["stream"]]`, `[[1,2]]`, "1e400", `"`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	"9223372036854775808", "-9223372036854775809", "1e309", "NaN", "-Infinity", "1.5", `"\ud800"`, "[NaN]",
	"[9223372036854775808]", "\xc0\x80", "newest", "first_unread"}

// paramNames are every parameter name the handlers read, found in their
// source so that a new parameter is swept from the start.
func paramNames(t *testing.T) []string {
	files, err := filepath.Glob("handlers_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("handler sources: %v %v", files, err)
	}
	read := regexp.MustCompile(`\bp\.[a-zA-Z]+\("([a-z_0-9]+)"`)
	var names []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range read.FindAllStringSubmatch(string(src), -1) {
			names = append(names, m[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// bodyRoom is how much of a form body the sweep fills, under the 1 MB
// limit, so that long values reach the handlers rather than a 413.
const bodyRoom = 900 << 10

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
	names := paramNames(t)
	requests := 0
	for _, rt := range a.routes() {
		if strings.HasSuffix(rt.path, "/socket") {
			continue // upgrades; covered by socket_test.go
		}
		for _, segment := range []string{"1", "abc", "99999999999999999999"} {
			path := pathParam.ReplaceAllString(rt.path, url.PathEscape(segment))
			for _, value := range garbage {
				if len(value) > 1000 && segment != "1" {
					continue // slow to send, and the path is not theirs to test
				}
				// Long values go in groups of names that fit the body.
				per := max(1, bodyRoom/(3*len(value)+1))
				for group := range slices.Chunk(names, per) {
					form := url.Values{}
					for _, name := range group {
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
						if resp.StatusCode == 401 && rt.auth == authUser {
							// The route regenerated the key (or locked the
							// account): without a new one, every later route
							// would answer 401 and go untested.
							if admin, err = svc.DevFetchAPIKey("admin@example.com"); err != nil {
								t.Fatalf("after %s %s: %v", rt.method, path, err)
							}
						}
						// Pages and images outside /api/ answer in their own type.
						shaped := decodeErr == nil && answer["result"] != nil || !strings.HasPrefix(rt.path, "/api/")
						if resp.StatusCode >= 500 || !shaped {
							t.Fatalf("%s %s (%s, value %.40q): %d, %v %v", rt.method, path, enc, value, resp.StatusCode, decodeErr, answer)
						}
					}
				}
			}
		}
	}
	t.Logf("%d requests, none failed", requests)
}
