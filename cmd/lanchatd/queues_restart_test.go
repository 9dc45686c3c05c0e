package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// received is what one client of a queue was handed: message IDs in the
// order they came, and the last event ID it has seen.
type received struct {
	mu       sync.Mutex
	messages []int64
	lastID   int64
	errs     []string
}

func (r *received) take(events []map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range events {
		r.lastID = int64(e["id"].(float64))
		if e["type"] == "message" {
			r.messages = append(r.messages, int64(e["message"].(map[string]any)["id"].(float64)))
		}
	}
}

func (r *received) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *received) last() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastID
}

// holds tells whether every ID of want was received.
func (r *received) holds(want []int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := map[int64]bool{}
	for _, id := range r.messages {
		got[id] = true
	}
	for _, id := range want {
		if !got[id] {
			return false
		}
	}
	return true
}

// check reports a message received twice or out of order, one that was
// acknowledged to its sender and never received, and a lost queue.
func (r *received) check(t *testing.T, who string, acknowledged []int64) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.errs {
		t.Errorf("%s: %s", who, e)
	}
	seen := map[int64]bool{}
	for i, id := range r.messages {
		if seen[id] {
			t.Errorf("%s: message %d received twice", who, id)
		}
		seen[id] = true
		if i > 0 && id <= r.messages[i-1] {
			t.Errorf("%s: message %d after %d", who, id, r.messages[i-1])
		}
	}
	missing := 0
	for _, id := range acknowledged {
		if !seen[id] {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%s: %d of %d acknowledged messages never received", who, missing, len(acknowledged))
	}
}

// longPoll reads a queue by long-polling until stop closes, polling again
// from its last event ID after any failure but a lost queue.
func longPoll(base func() string, email, key, queueID string, into *received, stop <-chan struct{}) {
	client := &http.Client{Timeout: 90 * time.Second}
	for {
		select {
		case <-stop:
			return
		default:
		}
		q := url.Values{"queue_id": {queueID}, "last_event_id": {fmt.Sprint(into.last())}}
		req, _ := http.NewRequest("GET", base()+"/api/v1/events?"+q.Encode(), nil)
		req.SetBasicAuth(email, key)
		resp, err := client.Do(req)
		if err != nil {
			time.Sleep(20 * time.Millisecond) // the server is away
			continue
		}
		var body struct {
			Result string           `json:"result"`
			Code   string           `json:"code"`
			Events []map[string]any `json:"events"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		switch {
		case err != nil || resp.StatusCode == http.StatusServiceUnavailable:
			time.Sleep(20 * time.Millisecond)
		case body.Result != "success":
			into.fail("poll answered %d %s", resp.StatusCode, body.Code)
			return
		default:
			into.take(body.Events)
		}
	}
}

// followSocket reads a queue over the WebSocket, acknowledging each frame
// as the web UI does, and connects again from its last event ID when the
// connection drops.
func followSocket(base func() string, email, key, queueID string, into *received, stop <-chan struct{}) {
	auth := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(email+":"+key))}}
	for {
		select {
		case <-stop:
			return
		default:
		}
		target := strings.Replace(base(), "http://", "ws://", 1) +
			fmt.Sprintf("/api/v1/events/socket?queue_id=%s&last_event_id=%d", queueID, into.last())
		conn, resp, err := websocket.DefaultDialer.Dial(target, auth)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusBadRequest {
				into.fail("socket refused: the queue is gone")
				return
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		go func() { <-stop; conn.Close() }()
		for {
			var frame struct {
				Events []map[string]any `json:"events"`
				Code   string           `json:"code"`
			}
			if err := conn.ReadJSON(&frame); err != nil {
				break
			}
			if frame.Code != "" {
				into.fail("socket frame %s", frame.Code)
				conn.Close()
				return
			}
			into.take(frame.Events)
			conn.WriteJSON(map[string]any{"last_event_id": into.last()})
		}
		conn.Close()
	}
}

// TestQueuesSurviveRestart: a long-polling client and a WebSocket client
// keep their queues across a restart of the server, clean (SIGTERM) or a
// crash (SIGKILL), while a sender keeps sending through it: every message
// acknowledged to the sender reaches both exactly once, in order.
func TestQueuesSurviveRestart(t *testing.T) {
	for _, tc := range []struct {
		name string
		halt syscall.Signal
	}{{"clean", syscall.SIGTERM}, {"crash", syscall.SIGKILL}} {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := t.TempDir()
			cmd, first := startServer(t, dataDir, "--dev")
			var mu sync.Mutex
			current := first
			base := func() string { mu.Lock(); defer mu.Unlock(); return current }
			keys := devKeys(t, first)
			pollQueue, err := register(http.DefaultClient, first, "bob@example.com", keys["bob@example.com"])
			if err != nil {
				t.Fatal(err)
			}
			socketQueue, err := register(http.DefaultClient, first, "admin@example.com", keys["admin@example.com"])
			if err != nil {
				t.Fatal(err)
			}
			polled, followed := &received{lastID: -1}, &received{lastID: -1}
			done := make(chan struct{})
			var readers sync.WaitGroup
			readers.Add(2)
			go func() {
				defer readers.Done()
				longPoll(base, "bob@example.com", keys["bob@example.com"], pollQueue, polled, done)
			}()
			go func() {
				defer readers.Done()
				followSocket(base, "admin@example.com", keys["admin@example.com"], socketQueue, followed, done)
			}()

			var acknowledged []int64
			stopSending := make(chan struct{})
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				for i := 0; ; i++ {
					select {
					case <-stopSending:
						return
					default:
					}
					if id, ok := sendOnce(base(), "alice@example.com", keys["alice@example.com"], fmt.Sprintf("message %d", i)); ok {
						mu.Lock()
						acknowledged = append(acknowledged, id)
						mu.Unlock()
					} else {
						time.Sleep(10 * time.Millisecond)
					}
				}
			}()

			time.Sleep(700 * time.Millisecond)
			cmd.Process.Signal(tc.halt)
			cmd.Wait()
			port := first[strings.LastIndex(first, ":")+1:]
			again, second := startServer(t, dataDir, "--dev", "--addr", "127.0.0.1:"+port)
			mu.Lock()
			current = second
			mu.Unlock()
			time.Sleep(700 * time.Millisecond)
			close(stopSending)
			<-sent

			mu.Lock()
			want := append([]int64(nil), acknowledged...)
			mu.Unlock()
			if len(want) < 10 {
				t.Fatalf("only %d messages acknowledged", len(want))
			}
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if polled.holds(want) && followed.holds(want) {
					break
				}
			}
			close(done)
			t.Logf("%d messages acknowledged; the long-poller received %d, the WebSocket %d", len(want), len(polled.messages), len(followed.messages))
			polled.check(t, "long-polling", want)
			followed.check(t, "WebSocket", want)
			stop(t, again)
			readers.Wait()
		})
	}
}
