package api_test

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"lanchat/backend/api"
	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

func TestFailedLoginsAreRateLimitedPerAddress(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, LoginFailuresPerMinute: 3})
	alice := s.Login("alice@example.com")
	for range 3 {
		s.As("alice@example.com", "wrong").Get("/api/v1/users/me", nil).Fails(401, "INVALID_API_KEY")
	}
	// Now wrong keys and password logins wait, even the right password; the
	// right key still works, as Zulip limits failures, not valid users.
	res := s.As("alice@example.com", "wrong").Get("/api/v1/users/me", nil).Fails(429, "RATE_LIMIT_HIT")
	alice.Get("/api/v1/users/me", nil).OK()
	wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
	if wait < 1 || wait > 60 || res.Body["retry-after"].(float64) <= 0 {
		t.Errorf("Retry-After %q, retry-after %v", res.Header.Get("Retry-After"), res.Body["retry-after"])
	}
	s.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "alice@example.com", "password": "lanchat-dev"}).Fails(429, "RATE_LIMIT_HIT")
	// Public endpoints still answer.
	s.Anonymous().Get("/api/v1/server_settings", nil).OK()

	// Another address is not affected.
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	other := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}}}
	req, _ := http.NewRequest("GET", s.URL+"/api/v1/users/me", nil)
	req.SetBasicAuth("alice@example.com", alice.Key())
	resp, err := other.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("from 127.0.0.2: %d", resp.StatusCode)
	}
}

// TestConcurrentWrongPasswordsHitTheLimit: each attempt is counted before
// its password is checked, so guesses sent all at once cannot all be tried.
func TestConcurrentWrongPasswordsHitTheLimit(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true})
	anon := s.Anonymous()
	statuses := make([]int, 100)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "guess" + strconv.Itoa(i)}).Status
		}()
	}
	wg.Wait()
	counts := map[int]int{}
	for _, st := range statuses {
		counts[st]++
	}
	if counts[401] != api.DefaultLoginFailuresPerMinute || counts[429] != len(statuses)-api.DefaultLoginFailuresPerMinute {
		t.Errorf("statuses of 100 concurrent wrong passwords: %v, want %d × 401 and the rest 429", counts, api.DefaultLoginFailuresPerMinute)
	}
}

// TestRightPasswordsDoNotCount: a successful login gives its reserved
// attempt back.
func TestRightPasswordsDoNotCount(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, LoginFailuresPerMinute: 2})
	anon := s.Anonymous()
	for range 5 {
		anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "lanchat-dev"}).OK()
	}
	anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "guess"}).Fails(401, "AUTHENTICATION_FAILED")
}

func TestWrongPasswordsCountToo(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, LoginFailuresPerMinute: 2})
	anon := s.Anonymous()
	for range 2 {
		anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "guess"}).Fails(401, "AUTHENTICATION_FAILED")
	}
	anon.Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@example.com", "password": "lanchat-dev"}).Fails(429, "RATE_LIMIT_HIT")
}

func TestPerUserRequestLimit(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, RequestsPerMinute: 5})
	bob := s.Login("bob@example.com")
	for range 5 {
		bob.Get("/api/v1/users/me", nil).OK()
	}
	bob.Get("/api/v1/users/me", nil).Fails(429, "RATE_LIMIT_HIT")
	s.Login("alice@example.com").Get("/api/v1/users/me", nil).OK()
}
