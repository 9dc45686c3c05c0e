// Package apitest starts a real Lanchat server on a loopback port over a
// real bbolt file and drives it over HTTP, for end-to-end tests.
package apitest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/server"
)

// Server is a running test server.
type Server struct {
	URL     string
	DataDir string
	*server.Server
	stopped bool
	t       testing.TB
}

// Start runs a development server (demo organization seeded) in a fresh
// temporary data directory, stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartIn(t, t.TempDir(), true)
}

// StartIn runs a server over dataDir, so a test can restart on the same data.
func StartIn(t testing.TB, dataDir string, dev bool) *Server {
	t.Helper()
	return StartConfig(t, server.Config{DataDir: dataDir, Dev: dev})
}

// StartEvents runs a development server whose event queues use settings
// (for example a heartbeat of milliseconds).
func StartEvents(t testing.TB, settings events.Settings) *Server {
	t.Helper()
	return StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, Events: settings})
}

// StartConfig runs a server with cfg on a free loopback port.
func StartConfig(t testing.TB, cfg server.Config) *Server {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	if cfg.Log == nil {
		// Tests that read the request log pass their own.
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	dataDir := cfg.DataDir
	s, err := server.Open(cfg)
	if err != nil {
		t.Fatalf("open server: %v", err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	go s.Serve(ln)
	ts := &Server{URL: "http://" + ln.Addr().String(), DataDir: dataDir, Server: s, t: t}
	t.Cleanup(ts.Stop)
	return ts
}

// Stop shuts the server down gracefully; later calls do nothing.
func (s *Server) Stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	// Generous: under a full test run's load, in-flight uploads syncing to a
	// busy disk can outlast a few seconds; a shutdown that hangs still fails.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		s.t.Errorf("shutdown: %v", err)
	}
}

// Anonymous is a client without credentials.
func (s *Server) Anonymous() *Client {
	return &Client{t: s.t, base: s.URL}
}

// Login returns a client authenticated as the demo user with this email,
// through the dev login endpoint.
func (s *Server) Login(email string) *Client {
	s.t.Helper()
	res := s.Anonymous().Post("/api/v1/dev_fetch_api_key", Form{"username": email}).OK()
	return s.As(email, res.Str("api_key"))
}

// As returns a client sending these Basic credentials.
func (s *Server) As(email, apiKey string) *Client {
	return &Client{t: s.t, base: s.URL, email: email, key: apiKey}
}
