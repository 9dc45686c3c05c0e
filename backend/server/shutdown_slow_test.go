package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"lanchat/backend/server"
)

// TestShutdownCutsOffSlowClients: a client sending its request's body
// slowly (an upload over a bad link, or one that stopped mid-body) kept a
// stopping server waiting for the route's read timeout, five minutes for
// an upload, whatever the shutdown deadline said. Past the deadline
// Shutdown cuts such connections off and returns, saying so.
func TestShutdownCutsOffSlowClients(t *testing.T) {
	s, err := server.Open(server.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Dev: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	resp, err := http.PostForm("http://"+ln.Addr().String()+"/api/v1/dev_fetch_api_key", url.Values{"username": {"alice@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		APIKey string `json:"api_key"`
	}
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()

	// An upload and a message whose bodies stop after their first bytes.
	heads := []string{
		"POST /api/v1/user_uploads HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n",
		"POST /api/v1/messages HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n",
	}
	for _, head := range heads {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		req, _ := http.NewRequest("GET", "/", nil)
		req.SetBasicAuth("alice@example.com", login.APIKey)
		fmt.Fprintf(conn, "%sHost: lanchat\r\nAuthorization: %s\r\n\r\n--B\r\n", head, req.Header.Get("Authorization"))
	}
	time.Sleep(200 * time.Millisecond) // both requests are in their handlers

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	returned := make(chan error, 1)
	go func() { returned <- s.Shutdown(ctx) }()
	select {
	case err := <-returned:
		if err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Errorf("shutdown past its deadline: %v, want an error saying connections were cut off", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown with a 1 s deadline still waits for slow clients after 5 s")
	}
}
