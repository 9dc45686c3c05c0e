package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// browser is a cookie-keeping client, as the web UI runs in one.
type browser struct {
	t    *testing.T
	base string
	http *http.Client
	csrf string
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, http: &http.Client{Jar: jar}}
}

func (b *browser) do(method, path string, form url.Values, withCSRF bool) (int, map[string]any, http.Header) {
	b.t.Helper()
	return b.send(method, path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), withCSRF)
}

// send is do with any body.
func (b *browser) send(method, path, contentType string, body io.Reader, withCSRF bool) (int, map[string]any, http.Header) {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.base+path, body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	if withCSRF {
		req.Header.Set("X-CSRF-Token", b.csrf)
	}
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer map[string]any
	json.NewDecoder(resp.Body).Decode(&answer)
	return resp.StatusCode, answer, resp.Header
}

func TestBrowserSessions(t *testing.T) {
	s := apitest.Start(t)
	b := newBrowser(t, s.URL)
	if status, _, hdr := b.do("GET", "/api/v1/users/me", nil, false); status != 401 || hdr.Get("WWW-Authenticate") != "" {
		t.Errorf("signed out: %d, WWW-Authenticate %q (pages must not get the Basic dialog)", status, hdr.Get("WWW-Authenticate"))
	}
	if status, body, _ := b.do("POST", "/accounts/login", url.Values{"username": {"alice@example.com"}, "password": {"nope"}}, false); status != 401 || body["code"] != "AUTHENTICATION_FAILED" {
		t.Errorf("wrong password: %d %v", status, body)
	}
	status, body, hdr := b.do("POST", "/accounts/login", url.Values{"username": {"alice@example.com"}, "password": {"lanchat-dev"}}, false)
	if status != 200 || body["csrf_token"] == nil {
		t.Fatalf("login: %d %v", status, body)
	}
	cookie := hdr.Get("Set-Cookie")
	for _, attr := range []string{"lanchat_session=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(cookie, attr) {
			t.Errorf("cookie %q lacks %s", cookie, attr)
		}
	}
	b.csrf = body["csrf_token"].(string)

	if status, body, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 200 || body["email"] != "alice@example.com" {
		t.Errorf("read with the cookie: %d %v", status, body)
	}
	send := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"web"}, "content": {"from the browser"}}
	if status, body, _ := b.do("POST", "/api/v1/messages", send, false); status != 403 || body["code"] != "CSRF_FAILED" {
		t.Errorf("write without CSRF token: %d %v", status, body)
	}
	if status, body, _ := b.do("POST", "/api/v1/messages", send, true); status != 200 {
		t.Errorf("write with CSRF token: %d %v", status, body)
	}
	if status, body, _ := b.do("GET", "/accounts/session", nil, false); status != 200 || body["csrf_token"] != b.csrf || body["full_name"] != "Alice Anders" {
		t.Errorf("session after reload: %d %v", status, body)
	}
	b.do("POST", "/accounts/logout", nil, true)
	if status, _, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 401 {
		t.Errorf("after logout: %d", status)
	}
	if status, body, _ := b.do("GET", "/accounts/session", nil, false); status != 200 || body["signed_in"] != false {
		t.Errorf("session after logout: %d %v", status, body)
	}
}

// signIn opens a browser session for email with the demo password.
func (b *browser) signIn(email string) {
	b.t.Helper()
	status, body, _ := b.do("POST", "/accounts/login", url.Values{"username": {email}, "password": {"lanchat-dev"}}, false)
	if status != 200 {
		b.t.Fatalf("login as %s: %d %v", email, status, body)
	}
	b.csrf = body["csrf_token"].(string)
}

// TestPasswordChangeEndsOtherSessions: as in Zulip, a new password signs
// out every other browser (the one that changed it stays), and the API key
// is replaced only on request, after which the old key is refused.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	s := apitest.Start(t)
	here, there, bobs := newBrowser(t, s.URL), newBrowser(t, s.URL), newBrowser(t, s.URL)
	here.signIn("alice@example.com")
	there.signIn("alice@example.com")
	bobs.signIn("bob@example.com")
	alice := s.Login("alice@example.com")
	change := url.Values{"old_password": {"lanchat-dev"}, "new_password": {"a new secret"}}
	if status, body, _ := here.do("PATCH", "/api/v1/settings", change, true); status != 200 {
		t.Fatalf("change password: %d %v", status, body)
	}
	if status, body, _ := here.do("GET", "/api/v1/users/me", nil, false); status != 200 {
		t.Errorf("the session that changed the password: %d %v", status, body)
	}
	if status, _, _ := there.do("GET", "/api/v1/users/me", nil, false); status != 401 {
		t.Errorf("another session after the password changed: %d, want 401", status)
	}
	if status, _, _ := bobs.do("GET", "/api/v1/users/me", nil, false); status != 200 {
		t.Errorf("another user's session: %d", status)
	}
	alice.Get("/api/v1/users/me", nil).OK()

	oldKey := alice.Key()
	res := alice.Post("/api/v1/users/me/api_key/regenerate", nil).OK()
	if key := res.Str("api_key"); key == oldKey || len(key) != 32 {
		t.Errorf("regenerated key %q (old %q)", key, oldKey)
	}
	s.As("alice@example.com", oldKey).Get("/api/v1/users/me", nil).Fails(401, "INVALID_API_KEY")
	s.As("alice@example.com", res.Str("api_key")).Get("/api/v1/users/me", nil).OK()
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "alice@example.com", "password": "a new secret"}).OK()
}

// TestSignInAndOutRefuseOtherSites: a form another site's page posts to
// /accounts/login (signing the victim in as the attacker) or
// /accounts/logout is refused by its Origin or Sec-Fetch-Site; this
// server's pages, the desktop window and clients that are not browsers
// are not.
func TestSignInAndOutRefuseOtherSites(t *testing.T) {
	s := apitest.Start(t)
	host := strings.TrimPrefix(s.URL, "http://")
	b := newBrowser(t, s.URL)
	b.signIn("alice@example.com")
	post := func(path string, header map[string]string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", s.URL+path, strings.NewReader("username=bob%40example.com&password=lanchat-dev"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := b.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body
	}
	for _, path := range []string{"/accounts/login", "/accounts/logout"} {
		for _, h := range []map[string]string{
			{"Origin": "http://attacker.example"},
			{"Origin": "null"},
			{"Origin": "http://" + host, "Sec-Fetch-Site": "cross-site"},
			{"Sec-Fetch-Site": "same-site"},
		} {
			if status, body := post(path, h); status != 403 || body["code"] != "CSRF_FAILED" {
				t.Errorf("%s with %v: %d %v, want 403 CSRF_FAILED", path, h, status, body)
			}
		}
	}
	if status, body, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 200 || body["email"] != "alice@example.com" {
		t.Errorf("after refused cross-site posts: %d %v, want still alice", status, body)
	}
	for _, h := range []map[string]string{
		{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"},
		{"Origin": "wails://wails"},
		{},
	} {
		if status, body := post("/accounts/login", h); status != 200 {
			t.Errorf("login with %v: %d %v", h, status, body)
		}
	}
	if status, body := post("/accounts/logout", map[string]string{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}); status != 200 {
		t.Errorf("logout from this server's page: %d %v", status, body)
	}
}
