package api_test

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/events"
	"lanchat/backend/server"
)

var (
	ana = archivetest.SlackPerson{ID: "U01", Name: "Ana Lima", Email: "ana@slack.test"}
	ben = archivetest.SlackPerson{ID: "U02", Name: "Ben Okoro", Email: "ben@slack.test"}
)

// slackExport is a Slack export of people with two messages.
func slackExport(t *testing.T, people ...archivetest.SlackPerson) []byte {
	t.Helper()
	zip, err := archivetest.SlackExport(people, 2)
	if err != nil {
		t.Fatal(err)
	}
	return zip
}

// newOwner sets up a new organization on s (no message yet) and signs its
// owner in, in a browser and with an API key.
func newOwner(t *testing.T, s *apitest.Server) (*browser, *apitest.Client) {
	t.Helper()
	b := newBrowser(t, s.URL)
	status, body, _ := b.do("POST", "/accounts/setup", url.Values{"token": {s.SetupToken()}, "realm_name": {"Acme"},
		"full_name": {"Olive Owner"}, "email": {"olive@acme.test"}, "password": {"olive-pass-1"}}, false)
	if status != 200 {
		t.Fatalf("setup: %d %v", status, body)
	}
	b.csrf = body["csrf_token"].(string)
	return b, s.As("olive@acme.test", body["api_key"].(string))
}

// awaitImport polls the import's status, as the web UI does, until it
// ends; a 503 while the organization is swapped is part of the way.
func awaitImport(t *testing.T, c *apitest.Client) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		res := c.Get("/api/v1/realm/import", nil)
		if res.Status == 503 {
			continue
		}
		status := res.OK().Body["import"].(map[string]any)
		if status["state"] != "running" {
			return status
		}
	}
	t.Fatal("the import did not end within a minute")
	return nil
}

func TestImportReplacesANewOrganization(t *testing.T) {
	for _, tc := range []struct {
		name   string
		people []archivetest.SlackPerson
		// users: imported people and the owner.
		users int
	}{
		{"the owner joins the imported people", []archivetest.SlackPerson{ana, ben}, 3},
		{"the owner is one of the imported people", []archivetest.SlackPerson{ana, {ID: "U03", Name: "Olive Imported", Email: "olive@acme.test"}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			// No heartbeat ends a long-poll here: the swap must end it.
			settings := events.DefaultSettings
			settings.Heartbeat = time.Hour
			s := apitest.StartConfig(t, server.Config{DataDir: dir, Events: settings})
			b, owner := newOwner(t, s)
			queue := owner.Post("/api/v1/register", apitest.Form{"event_types": []string{"message"}}).OK().Str("queue_id")
			polled := make(chan *apitest.Response, 1)
			go func() { polled <- owner.Get("/api/v1/events", apitest.Form{"queue_id": queue, "last_event_id": -1}) }()

			// A browser's upload needs the session's CSRF token, as every write.
			if status, body, _ := b.send("POST", "/api/v1/realm/import?format=slack", "application/zip", bytes.NewReader(slackExport(t, tc.people...)), false); status != 403 || body["code"] != "CSRF_FAILED" {
				t.Errorf("without the CSRF token: %d %v", status, body)
			}
			status, body, _ := b.send("POST", "/api/v1/realm/import?format=slack", "application/zip", bytes.NewReader(slackExport(t, tc.people...)), true)
			if status != 200 || body["import"].(map[string]any)["state"] != "running" {
				t.Fatalf("start: %d %v", status, body)
			}
			done := awaitImport(t, owner)
			summary, _ := done["summary"].(map[string]any)
			if done["state"] != "done" || summary["users"] != float64(len(tc.people)) || summary["messages"] != float64(2) || summary["reactions"] != float64(1) {
				t.Fatalf("import: %v", done)
			}

			// The owner's browser session and API key carry over.
			if status, me, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 200 || me["email"] != "olive@acme.test" || me["role"] != float64(100) {
				t.Errorf("the owner's session after the import: %d %v", status, me)
			}
			if n := len(owner.Get("/api/v1/users", nil).OK().List("members")); n != tc.users {
				t.Errorf("%d users after the import, want %d", n, tc.users)
			}
			if name := owner.Get("/api/v1/server_settings", nil).OK().Str("realm_name"); name == "Acme" {
				t.Errorf("still the organization set up before the import")
			}
			msgs := owner.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 10, "num_after": 0,
				"narrow": `[["stream","general"]]`}).OK().List("messages")
			if len(msgs) != 2 {
				t.Errorf("messages in general after the import: %v", msgs)
			}
			// The long-poll ended with the old organization, and clients
			// register again: their queue belonged to it.
			if res := <-polled; res.Status != 400 || res.Str("code") != "BAD_EVENT_QUEUE_ID" {
				t.Errorf("the long-poll across the swap: %s", res)
			}
			owner.Get("/api/v1/events", apitest.Form{"queue_id": queue, "last_event_id": -1, "dont_block": true}).Fails(400, "BAD_EVENT_QUEUE_ID")
			// Signing in with the password works as before.
			if status, body, _ := newBrowser(t, s.URL).do("POST", "/accounts/login", url.Values{"username": {"olive@acme.test"}, "password": {"olive-pass-1"}}, false); status != 200 {
				t.Errorf("sign in after the import: %d %v", status, body)
			}
			// The organization before is kept beside the data folder.
			kept, _ := filepath.Glob(dir + ".before-import-*/lanchat.db")
			if len(kept) != 1 {
				t.Errorf("kept folders: %v", kept)
			}
			// Its owner has no second go: the imported organization has messages.
			owner.Do("POST", "/api/v1/realm/import?format=slack", "application/zip", bytes.NewReader(slackExport(t, ana, ben))).Fails(400, "BAD_REQUEST")
		})
	}
}

func TestImportRefusals(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: filepath.Join(t.TempDir(), "data"), MaxImportSize: 64 << 10})
	_, owner := newOwner(t, s)
	owner.Post("/api/v1/users", apitest.Form{"email": "ada@acme.test", "password": "ada-pass-1", "full_name": "Ada Admin"}).OK()
	ada := s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "ada@acme.test", "password": "ada-pass-1"}).OK()
	owner.Patch("/api/v1/users/"+strconv.FormatInt(ada.Int("user_id"), 10), apitest.Form{"role": 200}).OK()
	admin := s.As("ada@acme.test", ada.Str("api_key"))
	export := slackExport(t, ana, ben)
	for _, tc := range []struct {
		name, format string
		as           *apitest.Client
		body         []byte
		status       int
		code         string
	}{
		{"an administrator is not an owner", "slack", admin, export, 400, "UNAUTHORIZED_PRINCIPAL"},
		{"an unknown format", "hipchat", owner, export, 400, "REQUEST_VARIABLE_INVALID"},
		{"an archive over the limit", "slack", owner, make([]byte, 65<<10), 413, "BAD_REQUEST"},
	} {
		tc.as.Do("POST", "/api/v1/realm/import?format="+tc.format, "application/zip", bytes.NewReader(tc.body)).Fails(tc.status, tc.code)
	}
	admin.Get("/api/v1/realm/import", nil).Fails(400, "UNAUTHORIZED_PRINCIPAL")

	// One import at a time: the first is still arriving.
	arriving, send := io.Pipe()
	first := make(chan *apitest.Response)
	go func() { first <- owner.Do("POST", "/api/v1/realm/import?format=slack", "application/zip", arriving) }()
	for owner.Get("/api/v1/realm/import", nil).OK().Body["import"].(map[string]any)["state"] != "running" {
		time.Sleep(10 * time.Millisecond)
	}
	if res := owner.Do("POST", "/api/v1/realm/import?format=slack", "application/zip", bytes.NewReader(export)).Fails(400, "BAD_REQUEST"); res.Msg() != "An import is already running." {
		t.Errorf("second import: %s", res)
	}
	// The first is no archive at all: it fails, saying why, and the
	// organization stays as it was.
	send.Write([]byte("not a zip"))
	send.Close()
	(<-first).OK()
	failed := awaitImport(t, owner)
	if failed["state"] != "failed" || failed["error"] == "" {
		t.Errorf("a broken archive: %v", failed)
	}
	if name := owner.Get("/api/v1/server_settings", nil).OK().Str("realm_name"); name != "Acme" {
		t.Errorf("organization after a failed import: %q", name)
	}
	onlyData := func(when string) {
		t.Helper()
		if entries, _ := os.ReadDir(filepath.Dir(s.DataDir)); len(entries) != 1 || entries[0].Name() != filepath.Base(s.DataDir) {
			t.Errorf("%s, beside the data folder: %v", when, entries)
		}
	}
	onlyData("after a failed import")

	// A message sent while the export arrives (or is imported) makes the
	// organization one with history: the import is not swapped in.
	arriving, send = io.Pipe()
	go func() { first <- owner.Do("POST", "/api/v1/realm/import?format=slack", "application/zip", arriving) }()
	for owner.Get("/api/v1/realm/import", nil).OK().Body["import"].(map[string]any)["state"] != "running" {
		time.Sleep(10 * time.Millisecond)
	}
	owner.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "hi", "content": "first"}).OK()
	send.Write(export)
	send.Close()
	(<-first).OK()
	if late := awaitImport(t, owner); late["state"] != "failed" || !strings.Contains(late["error"].(string), "already has messages") {
		t.Errorf("an import finishing after a message: %v", late)
	}
	if msgs := owner.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 5, "num_after": 0}).OK().List("messages"); len(msgs) != 1 {
		t.Errorf("the organization's messages after the refused swap: %v", msgs)
	}
	onlyData("after a refused swap")

	// An organization with history is never replaced.
	owner.Do("POST", "/api/v1/realm/import?format=slack", "application/zip", bytes.NewReader(export)).Fails(400, "BAD_REQUEST")
	if _, err := os.Stat(filepath.Join(s.DataDir, "lanchat.db")); err != nil {
		t.Error(err)
	}
}
