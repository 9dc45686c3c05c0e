package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/events"
	"lanchat/backend/server"
)

// closedWithin reports whether the server closes conn (or answers and
// closes it) within d, reading whatever it sends.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	return err == nil // EOF: the server closed it; a timeout: still open
}

// trickleLogin opens a connection that sends fetch_api_key a 100-byte
// body one byte every interval, as a slow or hostile client would.
func trickleLogin(t *testing.T, addr string, interval time.Duration) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n")
	go func() {
		for range 100 {
			if _, err := conn.Write([]byte("a")); err != nil {
				return
			}
			time.Sleep(interval)
		}
	}()
	return conn
}

// TestSlowClientsAreCutOff: a client trickling a body (before any
// credentials are checked) or holding an idle keep-alive connection is
// disconnected after the server's read and idle timeouts, while a
// long-poll outlives the read timeout and an authenticated upload may take
// longer than it.
func TestSlowClientsAreCutOff(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, ReadTimeout: time.Second, IdleTimeout: time.Second,
		Events: events.Settings{IdleTimeout: time.Minute, Heartbeat: 3 * time.Second, MaxEvents: 1000}})
	addr := strings.TrimPrefix(s.URL, "http://")
	alice := s.Login("alice@example.com")

	// A body trickled to an unauthenticated route, one byte every 200 ms.
	trickle := trickleLogin(t, addr, 200*time.Millisecond)
	if !closedWithin(trickle, 5*time.Second) {
		t.Error("a trickled body kept its connection open past the read timeout")
	}

	// An idle keep-alive connection.
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("server_settings: %v %v", res, err)
	}
	res.Body.Close()
	if !closedWithin(idle, 5*time.Second) {
		t.Error("an idle keep-alive connection stayed open past the idle timeout")
	}

	// A long-poll waits for its heartbeat, past the read timeout.
	q := registerQueue(t, alice, apitest.Form{"event_types": []string{"message"}})
	if evs := q.fetch(nil); len(evs) != 1 || evs[0]["type"] != "heartbeat" {
		t.Errorf("long-poll answered %v, want a heartbeat", evs)
	}

	// An authenticated upload may take longer than the read timeout.
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.txt\"\r\nContent-Type: text/plain\r\n\r\n")
		for range 6 { // each piece more than the client's write buffer, so it is sent at once
			time.Sleep(300 * time.Millisecond)
			fmt.Fprint(pw, strings.Repeat("slowly ", 2000))
		}
		fmt.Fprint(pw, "\r\n--b--\r\n")
		pw.Close()
	}()
	alice.Do("POST", "/api/v1/user_uploads", "multipart/form-data; boundary=b", pr).OK()
}
