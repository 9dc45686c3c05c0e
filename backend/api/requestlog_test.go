package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

// startLogged runs a development server whose log goes, as JSON, to the
// returned buffer.
func startLogged(t *testing.T) (*apitest.Server, *apitest.SyncBuffer) {
	out := &apitest.SyncBuffer{}
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true,
		Log: slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	return s, out
}

// requestLines are the log's request lines, decoded.
func requestLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, text := range strings.Split(strings.TrimSpace(log), "\n") {
		var line map[string]any
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("not JSON: %q", text)
		}
		if line["msg"] == "request" {
			lines = append(lines, line)
		}
	}
	return lines
}

// Each request is one line: method, route pattern, status, duration,
// caller and client address; refusals say why, a refused or redirected
// webhook as a warning.
func TestRequestLogLinesSayWhatHappenedAndWhy(t *testing.T) {
	s, out := startLogged(t)
	alice := s.Login("alice@example.com")
	key := s.Login("webhook-bot@example.com").Key()
	anon := s.Anonymous()
	// Reset: the logins above are lines too.
	before := len(requestLines(t, out.String()))

	alice.Get("/api/v1/users/9999", nil).Fails(400, "BAD_REQUEST")
	hook(anon, "/api/v1/external/alertmanager?api_key=wrong&stream=general", `{}`, nil).Fails(401, "INVALID_API_KEY")
	hook(anon, "/api/v1/external/alertmanager?api_key="+key+"&stream=general", `{"alerts": `, nil).Fails(400, "BAD_REQUEST")
	hook(anon, "/api/v1/external/gitea?api_key="+key+"&stream=general", `{}`, http.Header{"X-Gitea-Event": {"fork"}}).Fails(200, "UNSUPPORTED_WEBHOOK_EVENT_TYPE")
	hook(anon, "/api/v1/external/json?api_key="+key+"&stream=nowhere", `{"ok": true}`, nil).OK()
	anon.Get("/api/v1/no/such/route", nil).Fails(404, "BAD_REQUEST")

	lines := requestLines(t, out.String())[before:]
	want := []map[string]any{
		{"level": "INFO", "method": "GET", "route": "/api/v1/users/{user_id}", "status": 400.0, "user": "alice@example.com", "code": "BAD_REQUEST"},
		{"level": "WARN", "method": "POST", "route": "/api/v1/external/{integration}", "status": 401.0, "code": "INVALID_API_KEY", "error": "Invalid API key"},
		{"level": "WARN", "route": "/api/v1/external/{integration}", "status": 400.0, "bot": "webhook-bot@example.com", "error": "Malformed JSON"},
		{"level": "WARN", "status": 200.0, "bot": "webhook-bot@example.com", "code": "UNSUPPORTED_WEBHOOK_EVENT_TYPE", "error": "The Gitea event 'fork' is not supported: ignored"},
		{"level": "WARN", "status": 200.0, "bot": "webhook-bot@example.com", "reason": `stream "nowhere": the stream does not exist: the bot's owner was told`},
		{"level": "INFO", "method": "GET", "route": "/api/", "status": 404.0, "error": "Not Found"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d request lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		for k, v := range w {
			if lines[i][k] != v {
				t.Errorf("line %d: %s = %v, want %v (%v)", i, k, lines[i][k], v, lines[i])
			}
		}
		if lines[i]["client"] != "127.0.0.1" || lines[i]["duration"] == nil {
			t.Errorf("line %d lacks the client or duration: %v", i, lines[i])
		}
	}
}

// Nothing secret reaches the log: API keys (in Basic auth or a webhook's
// URL), passwords, session cookies, CSRF tokens, message content.
func TestRequestLogKeepsNoSecrets(t *testing.T) {
	s, out := startLogged(t)
	const content = "the vault combination is 4-8-15-16"
	const password = "lanchat-dev"
	bot := s.Login("webhook-bot@example.com")
	alice := s.Login("alice@example.com")
	alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": content}).OK()
	hook(s.Anonymous(), "/api/v1/external/json?api_key="+bot.Key()+"&stream=general", `{"secret": "`+content+`"}`, nil).OK()
	hook(s.Anonymous(), "/api/v1/external/json?api_key="+bot.Key()+"&stream=general", `{"secret": "`+content+`"`, nil).Fails(400, "BAD_REQUEST")
	fetched := s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "alice@example.com", "password": password}).OK().Str("api_key")

	b := newBrowser(t, s.URL)
	status, body, hdr := b.do("POST", "/accounts/login", url.Values{"username": {"alice@example.com"}, "password": {password}}, false)
	if status != 200 {
		t.Fatalf("login: %d %v", status, body)
	}
	b.csrf = body["csrf_token"].(string)
	cookie, _, _ := strings.Cut(strings.TrimPrefix(hdr.Get("Set-Cookie"), "lanchat_session="), ";")
	if status, _, _ := b.do("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"t"}, "content": {content}}, true); status != 200 {
		t.Fatalf("browser send: %d", status)
	}

	log := out.String()
	if n := len(requestLines(t, log)); n < 8 {
		t.Fatalf("only %d request lines:\n%s", n, log)
	}
	for name, secret := range map[string]string{"alice's key": alice.Key(), "the bot's key": bot.Key(), "the fetched key": fetched,
		"password": password, "session cookie": cookie, "CSRF token": b.csrf, "message content": "vault"} {
		if secret == "" {
			t.Fatalf("no %s to look for", name)
		}
		if strings.Contains(log, secret) {
			t.Errorf("the log holds the %s:\n%s", name, log)
		}
	}
}
