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
	return startLoggedConfig(t, server.Config{})
}

// startLoggedConfig is startLogged with cfg's settings.
func startLoggedConfig(t *testing.T, cfg server.Config) (*apitest.Server, *apitest.SyncBuffer) {
	out := &apitest.SyncBuffer{}
	cfg.DataDir, cfg.Dev = t.TempDir(), true
	cfg.Log = slog.New(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return apitest.StartConfig(t, cfg), out
}

// requestLines are the log's request lines, decoded.
func requestLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, text := range strings.Split(strings.TrimSpace(log), "\n") {
		if text == "" {
			continue
		}
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

// checkLines checks the request lines logged after the first before
// against want, each of want's fields, and returns them.
func checkLines(t *testing.T, out *apitest.SyncBuffer, before int, want []map[string]any) []map[string]any {
	t.Helper()
	lines := requestLines(t, out.String())[before:]
	if len(lines) != len(want) {
		t.Fatalf("%d request lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		for k, v := range w {
			if lines[i][k] != v {
				t.Errorf("line %d: %s = %v, want %v (%v)", i, k, lines[i][k], v, lines[i])
			}
		}
	}
	return lines
}

// Each request is one line: method, route pattern, status, duration in
// milliseconds, caller, client address and program; refusals say why, a
// refused or redirected webhook as a warning naming its integration; a
// path no route has is named, with who asked.
func TestRequestLogLinesSayWhatHappenedAndWhy(t *testing.T) {
	s, out := startLogged(t)
	alice := s.Login("alice@example.com")
	alice.Header = http.Header{"User-Agent": {"ZulipTerminal/0.7.0 (Linux; Python 3.11)"}}
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
	alice.Get("/api/v1/no/such/route?api_key=secret-in-query", nil).Fails(404, "BAD_REQUEST")

	lines := checkLines(t, out, before, []map[string]any{
		{"level": "INFO", "method": "GET", "route": "/api/v1/users/{user_id}", "status": 400.0, "user": "alice@example.com", "code": "BAD_REQUEST", "client_name": "ZulipTerminal"},
		{"level": "WARN", "method": "POST", "route": "/api/v1/external/{integration}", "status": 401.0, "code": "INVALID_API_KEY", "error": "Invalid API key", "integration": "alertmanager"},
		{"level": "WARN", "route": "/api/v1/external/{integration}", "status": 400.0, "bot": "webhook-bot@example.com", "error": "Malformed JSON", "integration": "alertmanager"},
		{"level": "WARN", "status": 200.0, "bot": "webhook-bot@example.com", "code": "UNSUPPORTED_WEBHOOK_EVENT_TYPE", "error": "The Gitea event 'fork' is not supported: ignored", "integration": "gitea"},
		{"level": "WARN", "status": 200.0, "bot": "webhook-bot@example.com", "reason": `stream "nowhere": the stream does not exist: the bot's owner was told`, "integration": "json"},
		{"level": "INFO", "method": "GET", "route": "/api/", "path": "/api/v1/no/such/route", "status": 404.0, "error": "Not Found"},
		{"level": "INFO", "route": "/api/", "path": "/api/v1/no/such/route", "user": "alice@example.com", "client_name": "ZulipTerminal"},
	})
	for i, line := range lines {
		if _, ms := line["duration_ms"].(float64); line["client"] != "127.0.0.1" || !ms || line["client_name"] == nil {
			t.Errorf("line %d lacks the client, its program or the duration in milliseconds: %v", i, line)
		}
	}
	if strings.Contains(out.String(), "secret-in-query") {
		t.Errorf("the log holds a query string:\n%s", out)
	}
}

// Failed logins and lock-outs are warnings with the address's count of
// failures, so the host panel's recent errors show someone guessing; a
// lock-out's repeats within the minute are information, so that a script
// hammering on does not push every other warning out.
func TestRequestLogWarnsOfFailedLogins(t *testing.T) {
	s, out := startLoggedConfig(t, server.Config{LoginFailuresPerMinute: 2})
	anon := s.Anonymous()
	before := len(requestLines(t, out.String()))
	wrong := apitest.Form{"username": "alice@example.com", "password": "guess"}
	anon.Post("/api/v1/fetch_api_key", wrong).Fails(401, "AUTHENTICATION_FAILED")
	anon.Post("/api/v1/fetch_api_key", wrong).Fails(401, "AUTHENTICATION_FAILED")
	anon.Post("/api/v1/fetch_api_key", wrong).Fails(429, "RATE_LIMIT_HIT")
	s.As("alice@example.com", "wrong-key").Get("/api/v1/users/me", nil).Fails(429, "RATE_LIMIT_HIT")
	anon.Post("/api/v1/fetch_api_key", wrong).Fails(429, "RATE_LIMIT_HIT")

	checkLines(t, out, before, []map[string]any{
		{"level": "WARN", "route": "/api/v1/fetch_api_key", "status": 401.0, "login_failures": 1.0},
		{"level": "WARN", "route": "/api/v1/fetch_api_key", "status": 401.0, "login_failures": 2.0},
		{"level": "WARN", "route": "/api/v1/fetch_api_key", "status": 429.0, "login_failures": 2.0, "code": "RATE_LIMIT_HIT"},
		{"level": "INFO", "route": "/api/v1/users/me", "status": 429.0, "login_failures": 2.0, "code": "RATE_LIMIT_HIT"},
		{"level": "INFO", "route": "/api/v1/fetch_api_key", "status": 429.0, "login_failures": 2.0, "code": "RATE_LIMIT_HIT"},
	})
	if strings.Contains(out.String(), "guess") {
		t.Errorf("the log holds a password:\n%s", out)
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
