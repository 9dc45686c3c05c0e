package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"lanchat/backend/api"
	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

// routeParam is a {name} segment of a route's path.
var routeParam = regexp.MustCompile(`\{[a-z_]+\}`)

// guarded are the routes that need credentials, as requests: "1" in every
// path segment, since authentication comes before anything is read, and
// dont_block, so a wrongly accepted GET /events answers at once.
func guarded() []api.Route {
	var out []api.Route
	for _, rt := range api.Routes() {
		if rt.Auth != "none" {
			rt.Path = routeParam.ReplaceAllString(rt.Path, "1") + "?dont_block=true"
			out = append(out, rt)
		}
	}
	return out
}

// refusedAs fails unless res is a 401 in Zulip's error shape with code.
func refusedAs(t *testing.T, res *apitest.Response, code, who string) {
	t.Helper()
	if res.Status != 401 || res.Body["result"] != "error" || res.Body["code"] != code || res.Msg() == "" {
		t.Errorf("%s (%s): want 401 %s", res, who, code)
	}
}

// TestEveryRouteNeedsValidCredentials sends every route that needs an
// account each kind of missing or wrong credentials: each answer is a 401
// in Zulip's error shape, with the Basic challenge API clients expect.
func TestEveryRouteNeedsValidCredentials(t *testing.T) {
	// No limit on failures: this test makes hundreds on purpose.
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, LoginFailuresPerMinute: -1})
	alice := s.Login("alice@example.com")
	// The key's first character changed: a fixed "x" was alice's own key
	// whenever hers began with x, one run in 62.
	wrongKey := "x" + alice.Key()[1:]
	if alice.Key()[0] == 'x' {
		wrongKey = "y" + alice.Key()[1:]
	}
	cases := []struct {
		name   string
		client *apitest.Client
		header string
		code   string
	}{
		{"no credentials", s.Anonymous(), "", "UNAUTHORIZED"},
		{"wrong key", s.As("alice@example.com", wrongKey), "", "INVALID_API_KEY"},
		{"unknown email", s.As("nobody@example.com", alice.Key()), "", "INVALID_API_KEY"},
		{"another user's key", s.As("bob@example.com", alice.Key()), "", "INVALID_API_KEY"},
		{"not basic", s.Anonymous(), "Bearer abc", "UNAUTHORIZED"},
		{"garbage basic", s.Anonymous(), "Basic %%%", "UNAUTHORIZED"},
	}
	for _, rt := range guarded() {
		for _, tc := range cases {
			if tc.header != "" {
				tc.client.Header = http.Header{"Authorization": {tc.header}}
			}
			res := tc.client.Do(rt.Method, rt.Path, "", nil)
			refusedAs(t, res, tc.code, tc.name)
			if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Basic") {
				t.Errorf("%s, %s: 401 without WWW-Authenticate: %v", res, tc.name, res.Header)
			}
		}
		if rt.Auth == "webhook" {
			refusedAs(t, s.Anonymous().Do(rt.Method, rt.Path+"&api_key=wrong", "", nil), "INVALID_API_KEY", "wrong key in the URL")
		}
	}
}

// TestDeactivationIsImmediateOnEveryRoute: the moment an administrator
// deactivates carol, her API key, her open browser session and her bot's
// key are refused on every route, on the same running server, and she
// cannot sign in again.
func TestDeactivationIsImmediateOnEveryRoute(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, LoginFailuresPerMinute: -1})
	admin, anon := s.Login("admin@example.com"), s.Anonymous()
	login := apitest.Form{"username": "carol@example.com", "password": "carol-pass"}
	carolID := admin.Post("/api/v1/users", apitest.Form{"email": "carol@example.com", "password": "carol-pass", "full_name": "Carol Cole"}).OK().Int("user_id")
	carol := s.As("carol@example.com", anon.Post("/api/v1/fetch_api_key", login).OK().Str("api_key"))
	res := carol.Post("/api/v1/bots", apitest.Form{"full_name": "Carol's Bot", "short_name": "carols"}).OK()
	bot := s.As(res.Str("email"), res.Str("api_key"))
	browser := newBrowser(t, s.URL)
	status, body, _ := browser.do("POST", "/accounts/login", url.Values{"username": {"carol@example.com"}, "password": {"carol-pass"}}, false)
	if status != 200 {
		t.Fatalf("carol's browser sign-in: %d %v", status, body)
	}
	browser.csrf = body["csrf_token"].(string)
	for _, c := range []*apitest.Client{carol, bot} {
		c.Get("/api/v1/users/me", nil).OK()
	}
	if status, _, _ := browser.do("GET", "/api/v1/users/me", nil, false); status != 200 {
		t.Fatalf("carol's session before: %d", status)
	}

	admin.Delete(fmt.Sprintf("/api/v1/users/%d", carolID), nil).OK()
	for _, rt := range guarded() {
		refusedAs(t, carol.Do(rt.Method, rt.Path, "", nil), "USER_DEACTIVATED", "carol's key")
		refusedAs(t, bot.Do(rt.Method, rt.Path, "", nil), "USER_DEACTIVATED", "her bot's key")
		if rt.Auth == "webhook" {
			refusedAs(t, anon.Do(rt.Method, rt.Path+"&api_key="+bot.Key(), "", nil), "USER_DEACTIVATED", "her bot's key in the URL")
			continue // webhooks take no cookie
		}
		if status, body, _ := browser.do(rt.Method, rt.Path, nil, true); status != 401 || body["code"] != "USER_DEACTIVATED" {
			t.Errorf("%s %s with carol's session: %d %v", rt.Method, rt.Path, status, body)
		}
	}
	if status, body, _ := browser.do("GET", "/accounts/session", nil, false); status != 401 || body["code"] != "USER_DEACTIVATED" {
		t.Errorf("carol's session after: %d %v", status, body)
	}
	anon.Post("/api/v1/fetch_api_key", login).Fails(401, "USER_DEACTIVATED")
	anon.Post("/accounts/login", login).Fails(401, "USER_DEACTIVATED")
}
