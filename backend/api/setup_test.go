package api_test

import (
	"net/url"
	"testing"

	"lanchat/backend/apitest"
)

func TestFirstRunSetup(t *testing.T) {
	s := apitest.StartIn(t, t.TempDir(), false)
	b := newBrowser(t, s.URL)
	if status, body, _ := b.do("GET", "/accounts/setup", nil, false); status != 200 || body["setup_needed"] != true {
		t.Fatalf("fresh store: %d %v", status, body)
	}
	token := s.SetupToken()
	if token == "" || s.SetupToken() != token {
		t.Fatalf("setup token %q is not stable", token)
	}
	good := url.Values{"token": {token}, "realm_name": {"Acme Labs"}, "full_name": {"Olive Owner"},
		"email": {"olive@acme.test"}, "password": {"correct horse"}}
	with := func(key, value string) url.Values {
		v := url.Values{}
		for k, vs := range good {
			v[k] = vs
		}
		v.Set(key, value)
		return v
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		code   string
	}{
		{"wrong token", with("token", "guess"), 401, "AUTHENTICATION_FAILED"},
		{"no token", with("token", ""), 401, "AUTHENTICATION_FAILED"},
		{"short password", with("password", "short"), 400, "BAD_REQUEST"},
		{"blank organization", with("realm_name", "  "), 400, "BAD_REQUEST"},
		{"bad email", with("email", "not-an-address"), 400, "REQUEST_VARIABLE_INVALID"},
		{"bad name", with("full_name", "@**x**"), 400, "BAD_REQUEST"},
	} {
		if status, body, _ := b.do("POST", "/accounts/setup", tc.form, false); status != tc.status || body["code"] != tc.code {
			t.Errorf("%s: %d %v", tc.name, status, body)
		}
	}
	if status, body, _ := b.do("GET", "/accounts/setup", nil, false); body["setup_needed"] != true {
		t.Fatalf("a refused setup changed the store: %d %v", status, body)
	}

	status, body, _ := b.do("POST", "/accounts/setup", good, false)
	if status != 200 || body["csrf_token"] == nil || body["api_key"] == nil {
		t.Fatalf("setup: %d %v", status, body)
	}
	b.csrf = body["csrf_token"].(string)
	if status, me, _ := b.do("GET", "/api/v1/users/me", nil, false); status != 200 || me["role"] != float64(100) || me["email"] != "olive@acme.test" {
		t.Errorf("the session is not the owner's: %d %v", status, me)
	}
	owner := s.As("olive@acme.test", body["api_key"].(string))
	if name := owner.Get("/api/v1/server_settings", nil).OK().Str("realm_name"); name != "Acme Labs" {
		t.Errorf("realm name %q", name)
	}
	if s.SetupToken() != "" {
		t.Error("the token outlives setup")
	}
	if _, body, _ := b.do("GET", "/accounts/setup", nil, false); body["setup_needed"] != false {
		t.Errorf("after setup: %v", body)
	}
	if status, body, _ := b.do("POST", "/accounts/setup", with("email", "mallory@acme.test"), false); status != 400 || body["msg"] != "This organization is already set up." {
		t.Errorf("second setup: %d %v", status, body)
	}

	// The organization starts with a default stream everyone joins.
	subs := owner.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions")
	if len(subs) != 1 || subs[0].(map[string]any)["name"] != "general" {
		t.Fatalf("owner's subscriptions: %v", subs)
	}
	q := owner.Post("/api/v1/register", apitest.Form{"event_types": []string{"subscription", "realm_user"}}).OK()
	owner.Post("/api/v1/users", apitest.Form{"email": "nina@acme.test", "password": "nina-pass-1", "full_name": "Nina New"}).OK()
	evs := owner.Get("/api/v1/events", apitest.Form{"queue_id": q.Str("queue_id"), "last_event_id": -1}).OK().List("events")
	var sawPeer bool
	for _, e := range evs {
		ev := e.(map[string]any)
		sawPeer = sawPeer || (ev["type"] == "subscription" && ev["op"] == "peer_add")
	}
	if !sawPeer {
		t.Errorf("no peer_add for the new member: %v", evs)
	}
	nina := s.As("nina@acme.test", owner.Post("/api/v1/fetch_api_key", apitest.Form{"username": "nina@acme.test", "password": "nina-pass-1"}).OK().Str("api_key"))
	if subs := nina.Get("/api/v1/users/me/subscriptions", nil).OK().List("subscriptions"); len(subs) != 1 {
		t.Errorf("a new member joins the default stream: %v", subs)
	}
}
