package api_test

import (
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func TestServerSettingsNeedsNoAuthAndHasEveryKey(t *testing.T) {
	s := apitest.Start(t)
	res := s.Anonymous().Get("/api/v1/server_settings", nil).OK()
	for _, key := range []string{
		"authentication_methods", "chat_version", "zulip_version", "zulip_feature_level",
		"push_notifications_enabled", "email_auth_enabled", "require_email_format_usernames",
		"realm_uri", "realm_name", "realm_icon", "realm_logo", "realm_night_logo", "realm_description",
	} {
		if _, ok := res.Body[key]; !ok {
			t.Errorf("server_settings lacks %q", key)
		}
	}
	if res.Str("realm_name") != "Lanchat Dev" || res.Str("realm_uri") != s.URL {
		t.Errorf("realm_name %q realm_uri %q", res.Str("realm_name"), res.Str("realm_uri"))
	}
	if res.Str("chat_version") == "" || res.Str("zulip_version") == "" || res.Int("zulip_feature_level") < 1 {
		t.Errorf("versions missing: %s", res.Raw)
	}
	for _, key := range []string{"realm_icon", "realm_logo"} {
		path := strings.TrimPrefix(res.Str(key), s.URL)
		img := s.Anonymous().Do("GET", path, "", nil)
		if img.Status != 200 || !strings.HasPrefix(img.Header.Get("Content-Type"), "image/svg+xml") {
			t.Errorf("%s %s: %d %s", key, path, img.Status, img.Header.Get("Content-Type"))
		}
	}
	methods := res.Body["authentication_methods"].(map[string]any)
	if methods["password"] != true || methods["dev"] != true {
		t.Errorf("authentication_methods %v", methods)
	}
}

func TestDevFetchAPIKey(t *testing.T) {
	s := apitest.Start(t)
	anon := s.Anonymous()
	res := anon.Post("/api/v1/dev_fetch_api_key", apitest.Form{"username": "alice@example.com"}).OK()
	if len(res.Str("api_key")) != 32 || res.Str("email") != "alice@example.com" {
		t.Errorf("dev login answer %s", res.Raw)
	}
	anon.Post("/api/v1/dev_fetch_api_key", apitest.Form{"username": "nobody@example.com"}).Fails(401, "AUTHENTICATION_FAILED")
	anon.Post("/api/v1/dev_fetch_api_key", nil).Fails(400, "REQUEST_VARIABLE_MISSING")
}

func TestDevFetchAPIKeyFailsOnProductionServers(t *testing.T) {
	s := apitest.StartIn(t, t.TempDir(), false)
	s.Anonymous().Post("/api/v1/dev_fetch_api_key", apitest.Form{"username": "admin@example.com"}).Fails(400, "BAD_REQUEST")
}

func TestFetchAPIKey(t *testing.T) {
	s := apitest.Start(t)
	anon := s.Anonymous()
	res := anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "Bob@Example.com", "password": "lanchat-dev"}).OK()
	if res.Str("email") != "bob@example.com" || res.Int("user_id") == 0 {
		t.Errorf("login answer %s", res.Raw)
	}
	// The key works for Basic auth.
	s.As("bob@example.com", res.Str("api_key")).Get("/api/v1/users/me", nil).OK()

	anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "wrong"}).Fails(401, "AUTHENTICATION_FAILED")
	anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "nobody@example.com", "password": "x"}).Fails(401, "AUTHENTICATION_FAILED")
	// Bots have no password: only their key logs them in.
	anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "echo-bot@example.com", "password": ""}).Fails(401, "AUTHENTICATION_FAILED")
	missing := anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com"}).Fails(400, "REQUEST_VARIABLE_MISSING")
	if missing.Body["var_name"] != "password" || missing.Msg() != "Missing 'password' argument" {
		t.Errorf("missing password answer %s", missing.Raw)
	}
}

func TestUsers(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	res := alice.Get("/api/v1/users", apitest.Form{"client_gravatar": true}).OK()
	byEmail := map[string]map[string]any{}
	for _, m := range res.List("members") {
		u := m.(map[string]any)
		byEmail[u["email"].(string)] = u
		for _, key := range []string{"user_id", "email", "full_name", "is_bot", "is_admin", "is_guest", "is_active", "avatar_url", "bot_type"} {
			if _, ok := u[key]; !ok {
				t.Errorf("user %v lacks %q", u["email"], key)
			}
		}
	}
	if len(byEmail) != 6 {
		t.Fatalf("want the 6 demo accounts, got %d", len(byEmail))
	}
	admin := byEmail["admin@example.com"]
	if admin["is_admin"] != true || admin["full_name"] != "Ada Admin" || admin["bot_type"] != nil {
		t.Errorf("admin %v", admin)
	}
	if g := byEmail["guest@example.com"]; g["is_guest"] != true || g["is_admin"] != false {
		t.Errorf("guest %v", g)
	}
	bot := byEmail["webhook-bot@example.com"]
	if bot["is_bot"] != true || bot["bot_type"] != float64(2) || bot["bot_owner"] != "admin@example.com" {
		t.Errorf("webhook bot %v", bot)
	}
	if byEmail["echo-bot@example.com"]["bot_type"] != float64(1) {
		t.Errorf("echo bot %v", byEmail["echo-bot@example.com"])
	}
	// Avatars are served by this server, so no client goes to the internet.
	if url, _ := admin["avatar_url"].(string); !strings.HasPrefix(url, "/avatar/") {
		t.Errorf("avatar_url %q", admin["avatar_url"])
	}

	me := alice.Get("/api/v1/users/me", nil).OK()
	if me.Str("email") != "alice@example.com" || me.Str("full_name") != "Alice Anders" {
		t.Errorf("users/me %s", me.Raw)
	}
	one := alice.Get("/api/v1/users/"+itoa(me.Int("user_id")), nil).OK()
	if one.Body["user"].(map[string]any)["email"] != "alice@example.com" {
		t.Errorf("users/{id} %s", one.Raw)
	}
	alice.Get("/api/v1/users/99999", nil).Fails(400, "BAD_REQUEST")
	bad := alice.Get("/api/v1/users/abc", nil).Fails(400, "REQUEST_VARIABLE_INVALID")
	if bad.Body["var_name"] != "user_id" {
		t.Errorf("var_name %v", bad.Body["var_name"])
	}
	alice.Get("/api/v1/users", apitest.Form{"client_gravatar": "maybe"}).Fails(400, "REQUEST_VARIABLE_INVALID")
}

// GET /user_groups lists the groups people made and Zulip's eight system
// groups, whose members follow roles.
func TestUserGroups(t *testing.T) {
	s := apitest.Start(t)
	res := s.Login("bob@example.com").Get("/api/v1/user_groups", nil).OK()
	byName := map[string]map[string]any{}
	for _, g := range res.List("user_groups") {
		byName[g.(map[string]any)["name"].(string)] = g.(map[string]any)
	}
	if len(byName) != 9 {
		t.Fatalf("user_groups %s", res.Raw)
	}
	g := byName["engineering"]
	if g == nil || len(g["members"].([]any)) != 2 || g["description"] == nil || g["id"] == nil || g["is_system_group"] != false {
		t.Errorf("group %v", g)
	}
	for _, name := range []string{"role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:members", "role:everyone", "role:internet", "role:nobody"} {
		if sg := byName[name]; sg == nil || sg["is_system_group"] != true {
			t.Errorf("system group %s: %v", name, sg)
		}
	}
	if n := len(byName["role:everyone"]["members"].([]any)); n != 1 {
		t.Errorf("role:everyone's direct members are the guests, got %d", n)
	}
}

func TestUnknownRouteAndWrongMethod(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	alice.Get("/api/v1/no_such_endpoint", nil).Fails(404, "BAD_REQUEST")
	res := alice.Post("/api/v1/users/me", nil).Fails(405, "BAD_REQUEST")
	if res.Header.Get("Allow") == "" || res.Body["allowed_methods"] == nil {
		t.Errorf("405 without allowed methods: %v %s", res.Header, res.Raw)
	}
}

func TestOversizedBodyIsAJSONError(t *testing.T) {
	s := apitest.Start(t)
	big := strings.Repeat("x", 2<<20)
	res := s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": big, "password": "x"})
	res.Fails(413, "BAD_REQUEST")
}

func TestRestartKeepsData(t *testing.T) {
	dir := t.TempDir()
	s := apitest.StartIn(t, dir, true)
	key := s.Login("alice@example.com").Key()
	s.Stop()
	s = apitest.StartIn(t, dir, true)
	// The same key still works: the store was reopened, not reseeded.
	s.As("alice@example.com", key).Get("/api/v1/users/me", nil).OK()
	if err := s.Store().Check(); err != nil {
		t.Fatalf("store consistency: %v", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestSecurityHeaders(t *testing.T) {
	s := apitest.Start(t)
	for _, path := range []string{"/api/v1/server_settings", "/api/v1/nope", "/static/images/realm-icon.svg"} {
		res := s.Anonymous().Do("GET", path, "", nil)
		for header, want := range map[string]string{
			"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
		} {
			if got := res.Header.Get(header); got != want {
				t.Errorf("%s: %s = %q, want %q", path, header, got, want)
			}
		}
	}
	if got := s.Anonymous().Get("/api/v1/server_settings", nil).Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("API Cache-Control %q", got)
	}
}

func TestUIIsServedWithAStrictPolicy(t *testing.T) {
	s := apitest.Start(t)
	for _, path := range []string{"/", "/narrow/stream/general"} {
		res := s.Anonymous().Do("GET", path, "", nil)
		csp := res.Header.Get("Content-Security-Policy")
		if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-eval") ||
			!strings.Contains(csp, "connect-src 'self';") { // WebSockets back to this server only, not to any host

			t.Errorf("%s: %d %q CSP %q", path, res.Status, res.Header.Get("Content-Type"), csp)
		}
	}
	// API paths never fall through to the UI.
	s.Anonymous().Get("/api/v1/nothing_here", nil).Fails(404, "BAD_REQUEST")
}
