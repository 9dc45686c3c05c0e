package api_test

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/textproto"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/events"
	"lanchat/backend/server"
)

// rawConn is a client connection that sends requests as written and reads
// answers byte for byte.
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialRaw(t *testing.T, s *apitest.Server) *rawConn {
	t.Helper()
	return dialURL(t, s.URL)
}

// dialURL connects to a server at http://HOST:PORT.
func dialURL(t *testing.T, url string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, c: c, r: bufio.NewReader(c)}
}

func (c *rawConn) send(requests ...string) {
	c.t.Helper()
	if _, err := io.WriteString(c.c, strings.Join(requests, "")); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads one answer whole: its head and Content-Length's body.
func (c *rawConn) answer() string {
	c.t.Helper()
	c.c.SetReadDeadline(time.Now().Add(20 * time.Second))
	tp := textproto.NewReader(c.r)
	var head strings.Builder
	length := 0
	for {
		line, err := tp.ReadLine()
		if err != nil {
			c.t.Fatalf("reading an answer: %v (so far %q)", err, head.String())
		}
		head.WriteString(line + "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.r, body); err != nil {
		c.t.Fatalf("reading a body: %v", err)
	}
	return head.String() + string(body)
}

// poll is a GET /api/v1/events request with Basic credentials.
func poll(c *apitest.Client, query string, extraHeaders ...string) string {
	auth := base64.StdEncoding.EncodeToString([]byte(c.Email() + ":" + c.Key()))
	return "GET /api/v1/events?" + query + " HTTP/1.1\r\nHost: lanchat.test\r\nAuthorization: Basic " + auth + "\r\n" +
		strings.Join(extraHeaders, "") + "\r\n"
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r]*\r\n`)

// waitFor waits (at most 10 s) for cond, which another goroutine makes true.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 10 s", what)
		}
	}
}

// ownedConn is a connection the server's poll loop has taken over, its
// first poll answered.
func ownedConn(t *testing.T, s *apitest.Server, c *apitest.Client) *rawConn {
	t.Helper()
	before := s.OwnedPollConnections()
	conn := dialRaw(t, s)
	conn.send(poll(c, "queue_id=warm-up&dont_block=true"))
	conn.answer()
	waitFor(t, "taken over", func() bool { return s.OwnedPollConnections() > before })
	return conn
}

// The polls an owned connection answers, its first included, are byte for
// byte what net/http answers to the same poll (Date aside), errors
// included; what the loop hands back (Connection: close) is net/http's
// answer too.
func TestOwnedPollsAnswerAsNetHTTP(t *testing.T) {
	s := apitest.StartEvents(t, events.Settings{IdleTimeout: time.Minute, Heartbeat: 300 * time.Millisecond, MaxEvents: 1000})
	// The same organization served by net/http alone.
	plain := httptest.NewServer(s.Handler())
	defer plain.Close()
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	withEvent := registerQueue(t, bob, nil).id
	alice.Post("/api/v1/messages", streamMsg("general", "wire", "same **bytes**")).OK()
	wrongKey := s.As(bob.Email(), "not-the-key")
	owned := ownedConn(t, s, bob)
	for _, tc := range []struct {
		name  string
		query func() string // one per path: a fresh queue where the answer would consume it
		req   func(q string) string
	}{
		{"an event", func() string { return withEvent }, func(q string) string { return poll(bob, "queue_id="+q+"&last_event_id=-1") }},
		{"nothing, without blocking", func() string { return registerQueue(t, bob, nil).id },
			func(q string) string { return poll(bob, "queue_id="+q+"&last_event_id=-1&dont_block=true") }},
		{"a heartbeat", func() string { return registerQueue(t, bob, nil).id },
			func(q string) string { return poll(bob, "queue_id="+q+"&last_event_id=-1") }},
		{"a bad queue", func() string { return "nope" }, func(q string) string { return poll(bob, "queue_id="+q) }},
		// After polls with bob's key: the owned connection reuses its
		// request, and no header of the poll before may carry over.
		{"a bad key", func() string { return withEvent }, func(q string) string { return poll(wrongKey, "queue_id="+q) }},
		{"a bad parameter", func() string { return withEvent },
			func(q string) string { return poll(bob, "queue_id="+q+"&dont_block=maybe") }},
		{"gzip accepted", func() string { return withEvent },
			func(q string) string {
				return poll(bob, "queue_id="+q+"&last_event_id=-1", "Accept-Encoding: gzip\r\n")
			}},
	} {
		netHTTP := dialURL(t, plain.URL)
		netHTTP.send(tc.req(tc.query()))
		want := dateLine.ReplaceAllString(netHTTP.answer(), "")
		netHTTP.c.Close()
		fresh := dialRaw(t, s) // answered as its first poll
		fresh.send(tc.req(tc.query()))
		owned.send(tc.req(tc.query()))
		for conn, got := range map[string]string{"the owned connection": owned.answer(), "a new connection": fresh.answer()} {
			if dateLine.ReplaceAllString(got, "") != want {
				t.Errorf("%s: %s answered\n%q\nnet/http\n%q", tc.name, conn, got, want)
			}
			if !dateLine.MatchString(got) {
				t.Errorf("%s: %s sent no Date: %q", tc.name, conn, got)
			}
		}
		fresh.c.Close()
	}
	waitFor(t, "only the one connection owned", func() bool { return s.OwnedPollConnections() == 1 })

	// Connection: close goes back to net/http, which answers and closes.
	owned.send(poll(bob, "queue_id=nope", "Connection: close\r\n"))
	if got := owned.answer(); !strings.Contains(got, "Connection: close\r\n") || !strings.Contains(got, "BAD_EVENT_QUEUE_ID") {
		t.Errorf("Connection: close: %q", got)
	}
	if !closedWithin(owned.c, 10*time.Second) {
		t.Error("the connection stayed open after Connection: close")
	}
}

// A connection is taken over with its first poll, before that poll is
// answered: the poll waits in the loop, which answers it when an event
// comes.
func TestPollConnectionsOwnedFromTheirFirstPoll(t *testing.T) {
	s := apitest.StartEvents(t, events.Settings{IdleTimeout: time.Minute, Heartbeat: time.Hour, MaxEvents: 1000})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	queue := registerQueue(t, bob, nil).id
	conn := dialRaw(t, s)
	conn.send(poll(bob, "queue_id="+queue+"&last_event_id=-1"))
	waitFor(t, "owned while its first poll waits", func() bool { return s.OwnedPollConnections() == 1 })
	alice.Post("/api/v1/messages", streamMsg("general", "first", "woken **in the loop**")).OK()
	if got := conn.answer(); !strings.Contains(got, `"content":"woken **in the loop**"`) {
		t.Errorf("the first poll's answer: %q", got)
	}
}

// Other requests on an owned connection go back to net/http, pipelined
// ones answered in order; an oversized head gets net/http's 431.
func TestOwnedConnectionsHandBackOtherRequests(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	conn := ownedConn(t, s, alice)
	auth := base64.StdEncoding.EncodeToString([]byte(alice.Email() + ":" + alice.Key()))
	conn.send(poll(alice, "queue_id=first&dont_block=true"),
		"GET /api/v1/users/me HTTP/1.1\r\nHost: lanchat.test\r\nAuthorization: Basic "+auth+"\r\n\r\n",
		poll(alice, "queue_id=third&dont_block=true"))
	for i, want := range []string{"first", alice.Email(), "third"} {
		if got := conn.answer(); !strings.Contains(got, want) {
			t.Errorf("answer %d: want %q in %q", i, want, got)
		}
	}

	conn = ownedConn(t, s, alice)
	conn.send(poll(alice, "queue_id=big", "X-Big: "+strings.Repeat("a", 1<<20+8<<10)+"\r\n"))
	if got := conn.answer(); !strings.HasPrefix(got, "HTTP/1.1 431 ") {
		t.Errorf("oversized head: %.100q", got)
	}
}

// A client hanging up while its poll waits frees the wait at once, not at
// the heartbeat; shutting down ends owned connections and their waits.
func TestOwnedPollsEndWithTheirClientOrTheServer(t *testing.T) {
	s := apitest.StartEvents(t, events.Settings{IdleTimeout: time.Hour, Heartbeat: time.Hour, MaxEvents: 1000})
	alice := s.Login("alice@example.com")
	conn := ownedConn(t, s, alice)
	conn.send(poll(alice, "queue_id="+registerQueue(t, alice, nil).id+"&last_event_id=-1"))
	conn.c.Close()
	waitFor(t, "freed after the hang-up", func() bool { return s.OwnedPollConnections() == 0 })

	conn = ownedConn(t, s, alice)
	conn.send(poll(alice, "queue_id="+registerQueue(t, alice, nil).id+"&last_event_id=-1"))
	s.Stop() // fails the test if it outlasts its deadline
	// Closed, or reset if the poll was still unread: not still open.
	conn.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, conn.c); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("an owned connection outlived the server")
	}
}

// Between polls an owned connection has the server's idle timeout to send
// its next request whole.
func TestOwnedConnectionsTimeOut(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, IdleTimeout: 300 * time.Millisecond})
	alice := s.Login("alice@example.com")
	idle := ownedConn(t, s, alice)
	half := ownedConn(t, s, alice)
	half.send("GET /api/v1/events?queue_id=")
	for name, conn := range map[string]*rawConn{"idle": idle, "half a request": half} {
		if !closedWithin(conn.c, 10*time.Second) {
			t.Errorf("%s: still open", name)
		}
	}
}

// Owned polls are logged as every request is.
func TestOwnedPollsAreLogged(t *testing.T) {
	s, out := startLogged(t)
	alice := s.Login("alice@example.com")
	conn := ownedConn(t, s, alice)
	for i := range 3 {
		conn.send(poll(alice, fmt.Sprintf("queue_id=q%d&dont_block=true", i)))
		conn.answer()
	}
	polls := 0
	for _, line := range requestLines(t, out.String()) {
		if line["route"] == "/api/v1/events" && line["user"] == alice.Email() && line["status"] == float64(400) {
			polls++
		}
	}
	if polls != 4 {
		t.Errorf("%d poll lines, want 4 (the one that made the connection owned, and 3 more):\n%s", polls, out.String())
	}
}
