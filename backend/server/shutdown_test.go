package server_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// inProcess sends a request to the server's handler as the desktop window
// does: in-process, on no connection that http.Server.Shutdown could close.
func inProcess(s *apitest.Server, c *apitest.Client, method, target string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	req.SetBasicAuth(c.Email(), c.Key())
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

// TestShutdownEndsTheWindowsOwnPoll: the window's long-poll held the
// organization shared while Shutdown waited for it exclusively, after
// stopping the heartbeats that would have ended the poll, so the desktop
// host never quit. Shutdown must end it, and whatever the window sends
// after (it registers again at once) must not start another wait.
func TestShutdownEndsTheWindowsOwnPoll(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	queue := alice.Post("/api/v1/register", apitest.Form{"event_types": `["message"]`}).OK().Str("queue_id")
	polled := make(chan int, 1)
	go func() {
		polled <- inProcess(s, alice, "GET", "/api/v1/events?queue_id="+queue+"&last_event_id=-1").Code
	}()
	time.Sleep(200 * time.Millisecond) // the poll is waiting
	stopped := make(chan struct{})
	go func() { s.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown still waits after 5 s with the window's poll open")
	}
	select {
	case <-polled:
	case <-time.After(5 * time.Second):
		t.Fatal("the window's poll is still waiting after shutdown")
	}
	done := make(chan int, 1)
	go func() { done <- inProcess(s, alice, "POST", "/api/v1/register").Code }()
	select {
	case code := <-done:
		if code != http.StatusServiceUnavailable {
			t.Errorf("a request after shutdown: %d, want 503", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a request after shutdown hangs")
	}
}
