package api_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"lanchat/backend/apitest"
	"lanchat/backend/domain"
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

// waitFor waits (at most 10 s) for cond, which another goroutine makes true.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 10 s", what)
		}
	}
}

// Pipelined requests on one connection are answered in order, a poll that
// waits for its event included: the last answer is the message sent while
// it waited.
func TestPipelinedPollsAreAnsweredInOrder(t *testing.T) {
	s := apitest.StartEvents(t, events.Settings{IdleTimeout: time.Minute, Heartbeat: time.Hour, MaxEvents: 1000})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}})
	conn := dialRaw(t, s)
	auth := base64.StdEncoding.EncodeToString([]byte(bob.Email() + ":" + bob.Key()))
	conn.send(poll(bob, "queue_id=first&dont_block=true"),
		"GET /api/v1/users/me HTTP/1.1\r\nHost: lanchat.test\r\nAuthorization: Basic "+auth+"\r\n\r\n",
		poll(bob, fmt.Sprintf("queue_id=%s&last_event_id=%d", q.id, q.lastID)))
	send(t, alice, streamMsg("general", "pipelined", "the third answer"))
	for i, want := range []string{"Bad event queue id: first", bob.Email(), "the third answer"} {
		if got := conn.answer(); !strings.Contains(got, want) {
			t.Errorf("answer %d: want %q in %q", i, want, got)
		}
	}
}

// A waiting poll ends when its client hangs up, not at its heartbeat, and
// is answered (with no events) when the server stops.
func TestWaitingPollsEndWithTheirClientOrTheServer(t *testing.T) {
	s, out := startLoggedConfig(t, server.Config{Events: events.Settings{IdleTimeout: time.Hour, Heartbeat: time.Hour, MaxEvents: 1000}})
	bob := s.Login("bob@example.com")
	polls := func() int {
		n := 0
		for _, line := range requestLines(t, out.String()) {
			if line["route"] == "/api/v1/events" {
				n++
			}
		}
		return n
	}
	q := registerQueue(t, bob, nil)
	conn := dialRaw(t, s)
	conn.send(poll(bob, fmt.Sprintf("queue_id=%s&last_event_id=%d", q.id, q.lastID)))
	time.Sleep(100 * time.Millisecond)
	if n := polls(); n != 0 {
		t.Fatalf("%d polls logged before any event or hang-up", n)
	}
	conn.c.Close()
	waitFor(t, "the hung-up poll ended", func() bool { return polls() == 1 })

	conn = dialRaw(t, s)
	conn.send(poll(bob, fmt.Sprintf("queue_id=%s&last_event_id=%d", q.id, q.lastID)))
	time.Sleep(100 * time.Millisecond)
	s.Stop() // fails the test if it outlasts its deadline
	if got := conn.answer(); !strings.Contains(got, `"events":[]`) {
		t.Errorf("a waiting poll at shutdown was answered %q", got)
	}
}

// dialStalled connects to addr with a receive buffer of a few kilobytes:
// a client that does not read fills it, and then the server's send buffer,
// at once.
func dialStalled(ctx context.Context, addr string) (net.Conn, error) {
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		c.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	return d.DialContext(ctx, "tcp", addr)
}

// droppedWithin: the server ends conn (closes or resets it) within d; its
// client reads what was sent before.
func droppedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

// Clients that stop reading, their buffers full (long-pollers pipelining
// polls whose answers they never read, WebSockets whose frames they never
// read), delay no one else's delivery: every other long-poller and
// WebSocket gets each message well before a stalled client's write could
// time out, and the stalled clients are dropped by their write deadline.
// Before each write had a deadline, a stalled long-poller held its
// connection, and the goroutine writing to it, for good.
func TestStalledClientsAreDroppedWithoutDelayingOthers(t *testing.T) {
	const writeTimeout = time.Second
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, DeliveryWriteTimeout: writeTimeout,
		Events: events.Settings{IdleTimeout: time.Minute, Heartbeat: time.Hour, MaxEvents: 5000}})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	addr := strings.TrimPrefix(s.URL, "http://")
	messages := apitest.Form{"event_types": []string{"message"}}
	// The stalled clients take messages rendered, each several times the
	// size of its text (below).
	rendered := apitest.Form{"event_types": []string{"message"}, "apply_markdown": true}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// arrivals: when each healthy client got each message, by the
	// message's first characters.
	var mu sync.Mutex
	arrivals := map[string]map[string]time.Time{}
	received := func(client string, body []byte) {
		var answer struct {
			Events []struct {
				ID      int64 `json:"id"`
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"events"`
		}
		json.Unmarshal(body, &answer)
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		for _, e := range answer.Events {
			key := e.Message.Content[:min(len(e.Message.Content), 8)]
			if arrivals[key] == nil {
				arrivals[key] = map[string]time.Time{}
			}
			arrivals[key][client] = now
		}
	}

	// Healthy clients: long-pollers, and WebSockets acknowledging every
	// frame as the web UI does.
	const pollers, sockets = 6, 6
	for i := range pollers {
		q := registerQueue(t, bob, messages)
		go func() {
			last := q.lastID
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/v1/events?queue_id=%s&last_event_id=%d", s.URL, q.id, last), nil)
				req.SetBasicAuth(bob.Email(), bob.Key())
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				received(fmt.Sprintf("poller %d", i), body)
				var ids struct{ Events []struct{ ID int64 } }
				json.Unmarshal(body, &ids)
				for _, e := range ids.Events {
					last = max(last, e.ID)
				}
			}
		}()
	}
	for i := range sockets {
		q := registerQueue(t, bob, messages)
		conn, _, err := dialEvents(t, s, bob, q.id, q.lastID)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		go func() {
			for {
				_, body, err := conn.ReadMessage()
				if err != nil {
					return
				}
				received(fmt.Sprintf("socket %d", i), body)
				var f frame
				json.Unmarshal(body, &f)
				if len(f.Events) > 0 {
					conn.WriteJSON(map[string]any{"last_event_id": f.Events[len(f.Events)-1]["id"]})
				}
			}
		}()
	}

	// Stalled clients: WebSockets that never read their frames, and
	// long-pollers that pipeline polls whose answers (every event of their
	// queue, again and again) they never read.
	var stalled []net.Conn
	for range 2 {
		q := registerQueue(t, bob, rendered)
		url := strings.Replace(s.URL, "http://", "ws://", 1) + fmt.Sprintf("/api/v1/events/socket?queue_id=%s&last_event_id=%d", q.id, q.lastID)
		dialer := websocket.Dialer{NetDialContext: func(ctx context.Context, _, addr string) (net.Conn, error) { return dialStalled(ctx, addr) }}
		conn, _, err := dialer.Dial(url, http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(bob.Email()+":"+bob.Key()))}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		stalled = append(stalled, conn.NetConn())
	}
	stalledPolls := []string{registerQueue(t, bob, rendered).id, registerQueue(t, bob, rendered).id}
	// More than the server's send buffer (Linux grows a loopback
	// connection's to 4 MB at most) and the client's receive buffer hold:
	// rendered and encoded, each message is about 60 kB.
	big := strings.Repeat("**x** ", domain.MaxMessageBytes/6-2)
	for i := range 100 {
		send(t, alice, streamMsg("general", "big", fmt.Sprintf("%d %s", i, big)))
	}
	send(t, alice, streamMsg("general", "big", "all sent"))
	// everyoneGets waits until every healthy client has the message that
	// begins with prefix, and says when each got it.
	everyoneGets := func(prefix string) map[string]time.Time {
		t.Helper()
		got := func() map[string]time.Time {
			mu.Lock()
			defer mu.Unlock()
			return maps.Clone(arrivals[prefix])
		}
		waitFor(t, prefix+" delivered to every healthy client", func() bool { return len(got()) == pollers+sockets })
		return got()
	}
	everyoneGets("all sent")
	stallStart := time.Now()
	for _, queueID := range stalledPolls {
		conn, err := dialStalled(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		io.WriteString(conn, strings.Repeat(poll(bob, "queue_id="+queueID+"&last_event_id=-1&dont_block=true"), 5))
		stalled = append(stalled, conn)
	}

	// While the stalled clients' writes wait, every healthy client gets
	// each new message within the write timeout.
	for round := range 3 {
		content := fmt.Sprintf("tick %d", round)
		start := time.Now()
		send(t, alice, streamMsg("general", "ticks", content))
		for client, at := range everyoneGets(content) {
			if took := at.Sub(start); took > writeTimeout {
				t.Errorf("%s got %q %v after its send began", client, content, took)
			}
		}
	}

	time.Sleep(time.Until(stallStart.Add(3 * writeTimeout)))
	for i, conn := range stalled {
		if !droppedWithin(conn, 5*time.Second) {
			t.Errorf("stalled client %d is still connected", i)
		}
	}
}
