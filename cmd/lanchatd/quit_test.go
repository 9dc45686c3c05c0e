package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"lanchat/backend/apitest"
	"lanchat/backend/store"
)

// quitPollers is how many long-polls are held open when the server is told
// to quit.
const quitPollers = 1000

// TestQuitWithPollersOpen stops lanchatd as an operator would, with
// SIGTERM, while 1,000 long-polls and a WebSocket wait for events: it exits
// within 5 s with status 0 and says so in its log, every poll gets an
// answer or its connection closed, and the store it leaves opens at once
// for the next start.
func TestQuitWithPollersOpen(t *testing.T) {
	// Each poll holds a connection here and one in the server.
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < 2*quitPollers+200 {
		lim.Cur = min(lim.Max, 2*quitPollers+1000)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < 2*quitPollers+200 {
			t.Skipf("cannot raise the open files limit to %d: %v", 2*quitPollers+200, err)
		}
	}
	dataDir := t.TempDir()
	log := &apitest.SyncBuffer{}
	cmd, base := startServerLogging(t, dataDir, log, "--dev", "--max-queues-per-user", "0")
	keys := devKeys(t, base)
	emails := []string{"admin@example.com", "alice@example.com", "bob@example.com"}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: quitPollers + 10}}

	type queue struct{ email, id string }
	queues := make([]queue, quitPollers+1)
	var wg sync.WaitGroup
	errs := make(chan error, len(queues))
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(queues); i += 8 {
				email := emails[i%len(emails)]
				id, err := register(client, base, email, keys[email])
				if err != nil {
					errs <- err
					return
				}
				queues[i] = queue{email, id}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}

	// The last queue is followed over the WebSocket.
	sock := queues[quitPollers]
	h := http.Header{}
	h.Set("Authorization", "Basic "+basicAuth(sock.email, keys[sock.email]))
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/api/v1/events/socket?"+
		url.Values{"queue_id": {sock.id}, "last_event_id": {"-1"}}.Encode(), h)
	if err != nil {
		t.Fatalf("WebSocket: %v", err)
	}
	defer ws.Close()
	socketEnded := make(chan error, 1)
	go func() {
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				socketEnded <- err
				return
			}
		}
	}()

	// Every poll is sent and waits: none has an event to read.
	type outcome struct {
		status int
		body   string
		err    error
	}
	outcomes := make([]chan outcome, quitPollers)
	var sent sync.WaitGroup
	sent.Add(quitPollers)
	for i := range quitPollers {
		outcomes[i] = make(chan outcome, 1)
		go func() {
			q := queues[i]
			// A request retried on a fresh connection is written twice.
			once := sync.OnceFunc(sent.Done)
			trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { once() }}
			req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET",
				base+"/api/v1/events?"+url.Values{"queue_id": {q.id}, "last_event_id": {"-1"}}.Encode(), nil)
			req.SetBasicAuth(q.email, keys[q.email])
			resp, err := client.Do(req)
			if err != nil {
				outcomes[i] <- outcome{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			outcomes[i] <- outcome{status: resp.StatusCode, body: string(b), err: err}
		}()
	}
	waitGroup(t, &sent, 30*time.Second, "the polls to be sent")
	time.Sleep(500 * time.Millisecond) // for the server to read them and wait
	for i, o := range outcomes {
		select {
		case r := <-o:
			t.Fatalf("poll %d answered before the quit: %d %s %v", i, r.status, r.body, r.err)
		default:
		}
	}

	quit := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		took := time.Since(quit)
		t.Logf("exited %v after SIGTERM", took.Round(time.Millisecond))
		if err != nil {
			t.Errorf("exit: %v, want status 0", err)
		}
	case <-time.After(5 * time.Second):
		// Where it is stuck: Go prints every goroutine's stack on SIGQUIT.
		cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
		time.Sleep(200 * time.Millisecond) // the dump's last lines through the pipe
		t.Fatalf("lanchatd still ran 5 s after SIGTERM; its log and goroutines:\n%s", log)
	}
	// The log says why the server stops and that it stopped (its lines go
	// out as it exits).
	if text := waitFor(log, "msg=stopped", 2*time.Second); !strings.Contains(text, "msg=stopping signal=terminated") ||
		!strings.Contains(text, "msg=stopped took=") {
		t.Errorf("no 'stopping' and 'stopped' lines in the log:\n%s", text)
	}

	// Every poll has its answer or its connection closed: none hangs.
	answered, closed := 0, 0
	deadline := time.After(2 * time.Second)
	for i, o := range outcomes {
		select {
		case r := <-o:
			switch {
			case r.err == nil && r.status != 0:
				answered++
			case r.err != nil:
				closed++
			}
		case <-deadline:
			t.Fatalf("poll %d (and maybe more) still waits 2 s after the server exited", i)
		}
	}
	t.Logf("%d polls answered, %d connections closed", answered, closed)
	select {
	case <-socketEnded:
	case <-time.After(2 * time.Second):
		t.Error("the WebSocket is still open 2 s after the server exited")
	}

	// The store was closed cleanly: it opens at once and is consistent,
	// and the next start serves.
	st, err := openWithin(dataDir, time.Second)
	if err != nil {
		t.Fatalf("reopen after the quit: %v", err)
	}
	if err := st.Check(); err != nil {
		t.Errorf("consistency check: %v", err)
	}
	st.Close()
	start := time.Now()
	again, base := startServer(t, dataDir, "--dev")
	resp, err := http.Get(base + "/api/v1/server_settings")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("second start: %v %v", resp, err)
	}
	resp.Body.Close()
	t.Logf("second start served after %v", time.Since(start).Round(time.Millisecond))
	stop(t, again)
}

// register makes an event queue and returns its ID.
func register(c *http.Client, base, email, key string) (string, error) {
	req, _ := http.NewRequest("POST", base+"/api/v1/register", strings.NewReader(url.Values{"event_types": {`["message"]`}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, key)
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body struct {
		QueueID string `json:"queue_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.QueueID == "" {
		return "", fmt.Errorf("register as %s: %d %v", email, resp.StatusCode, err)
	}
	return body.QueueID, nil
}

func basicAuth(user, password string) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(user, password)
	return strings.TrimPrefix(req.Header.Get("Authorization"), "Basic ")
}

func waitGroup(t *testing.T, wg *sync.WaitGroup, limit time.Duration, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("waited %v for %s", limit, what)
	}
}

// waitFor returns log's text once it holds s, or when limit has passed.
func waitFor(log *apitest.SyncBuffer, s string, limit time.Duration) string {
	for deadline := time.Now().Add(limit); !strings.Contains(log.String(), s) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return log.String()
}

// openWithin opens the store, failing if its file stays locked past limit
// (bbolt waits for the lock of a process that still holds it).
func openWithin(dataDir string, limit time.Duration) (*store.Store, error) {
	type opened struct {
		st  *store.Store
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		st, err := store.Open(dataDir)
		ch <- opened{st, err}
	}()
	select {
	case o := <-ch:
		return o.st, o.err
	case <-time.After(limit):
		return nil, errors.New("the store's file is still locked " + limit.String() + " after the server exited: " + filepath.Join(dataDir, store.FileName))
	}
}

// TestStopSignals: each signal an operator or a terminal stops the server
// with (Ctrl-C, a service manager's SIGTERM, the SIGHUP of a closed
// terminal or dropped SSH session) stops it gracefully: status 0, with
// its "stopping" and "stopped" lines. SIGHUP killed it outright, answering
// no poll and losing the log lines still buffered.
func TestStopSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			log := &apitest.SyncBuffer{}
			cmd, _ := startServerLogging(t, t.TempDir(), log)
			cmd.Process.Signal(sig)
			if err := cmd.Wait(); err != nil {
				t.Errorf("exit on %v: %v, want status 0", sig, err)
			}
			if text := log.String(); !strings.Contains(text, "msg=stopping signal="+sig.String()) || !strings.Contains(text, "msg=stopped took=") {
				t.Errorf("no 'stopping' line naming %v and 'stopped' line in the log:\n%s", sig, text)
			}
		})
	}
}
