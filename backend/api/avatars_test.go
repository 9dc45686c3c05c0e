package api_test

import (
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func TestAvatars(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	me := alice.Get("/api/v1/users/me", nil).OK()
	url := me.Str("avatar_url")
	got := bob.Do("GET", url, "", nil)
	if got.Status != 200 || got.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(got.Raw), ">AA</text>") {
		t.Fatalf("generated avatar: %d %v %s", got.Status, got.Header, got.Raw)
	}
	if s.Anonymous().Do("GET", url, "", nil).Status != 401 {
		t.Error("anonymous avatar fetch allowed")
	}
	if bob.Do("GET", "/avatar/alice@example.com", "", nil).Status != 200 || bob.Do("GET", "/avatar/9999", "", nil).Status != 404 {
		t.Error("avatar by email / unknown user")
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_user"}})
	res := alice.PostMultipart("/api/v1/users/me/avatar", nil, map[string][2]string{"file": {"me.png", pngImage(t, 32)}}).OK()
	newURL := res.Str("avatar_url")
	if newURL == url || !strings.Contains(newURL, "version=1") {
		t.Errorf("avatar_url after upload %q (was %q)", newURL, url)
	}
	if got := bob.Do("GET", newURL, "", nil); got.Header.Get("Content-Type") != "image/png" {
		t.Errorf("uploaded avatar type %v", got.Header)
	}
	if evs := q.next(); len(evs) != 1 || evs[0]["person"].(map[string]any)["avatar_url"] != newURL {
		t.Errorf("avatar event %v", evs)
	}
	alice.PostMultipart("/api/v1/users/me/avatar", nil, map[string][2]string{"file": {"me.png", "not an image"}}).Fails(400, "BAD_REQUEST")
	alice.Delete("/api/v1/users/me/avatar", nil).OK()
	if got := bob.Do("GET", "/avatar/alice@example.com", "", nil); got.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("after reset %v", got.Header)
	}
}
