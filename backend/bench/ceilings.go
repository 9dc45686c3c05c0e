package bench

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// NoopCeiling measures a handler that does nothing, on the same loopback
// and client: no server can answer faster on this machine.
func NoopCeiling(workers int, d time.Duration) (Latencies, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Latencies{}, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"result":"success","msg":""}`))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	c := &Client{base: "http://" + ln.Addr().String(), http: &http.Client{Transport: transport}}
	return Run(workers, d, func(int) error { return c.call("GET", "/", nil, nil) })
}

// FsyncCeiling measures bbolt's one-writer durable commits per second in
// dir, the disk's bound on unbatched writes.
func FsyncCeiling(dir string, d time.Duration) (float64, error) {
	db, err := bolt.Open(filepath.Join(dir, "fsync-ceiling.db"), 0o600, nil)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	start := time.Now()
	n := 0
	for time.Since(start) < d {
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			return b.Put([]byte{byte(n), byte(n >> 8), byte(n >> 16)}, []byte("x"))
		})
		if err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// LongPollHandler is the long-poll ceiling's server: GET /poll blocks until
// a broadcast, then answers a message-sized event; GET
// /broadcast?pollers=N waits until N polls are blocked and wakes them all.
func LongPollHandler() http.Handler {
	var mu sync.Mutex
	var waiting atomic.Int64 // polls blocked this round
	wake := make(chan struct{})
	answer := []byte(`{"result":"success","msg":"","events":[{"id":0,"type":"message","flags":[],"message":"` + strings.Repeat("x", 800) + `"}]}`)
	mux := http.NewServeMux()
	mux.HandleFunc("/poll", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		ch := wake
		waiting.Add(1)
		mu.Unlock()
		<-ch
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})
	mux.HandleFunc("/broadcast", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.ParseInt(r.FormValue("pollers"), 10, 64)
		for deadline := time.Now().Add(10 * time.Second); waiting.Load() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				http.Error(w, fmt.Sprintf("only %d of %d polls arrived", waiting.Load(), n), http.StatusGatewayTimeout)
				return
			}
		}
		mu.Lock()
		waiting.Store(0)
		close(wake)
		wake = make(chan struct{})
		mu.Unlock()
		w.Write([]byte(`{"result":"success","msg":""}`))
	})
	return mux
}

// LongPollCeiling measures the HTTP stack alone answering pollers blocked
// long-polls at once, with LongPollHandler served by server (a process of
// its own, as lanchatd is), through the same client as Delivery. No event
// server can deliver faster to that many clients on this machine.
func LongPollCeiling(server *Server, pollers, rounds int) (Latencies, error) {
	c := &Client{base: server.URL, http: &http.Client{Transport: transport}}
	conns := make([]*pollConn, pollers)
	defer closeAll(conns)
	for i := range conns {
		conn, err := dialPoll(server.URL, "", "")
		if err != nil {
			return Latencies{}, err
		}
		conns[i] = conn
	}
	poll := func(int) string { return "/poll" }
	received := func(_ int, body []byte) error {
		_, err := decodePoll(body)
		return err
	}
	broadcast := func() error {
		return c.call("GET", "/broadcast", url.Values{"pollers": {strconv.Itoa(pollers)}}, nil)
	}
	return broadcastRounds(conns, rounds, poll, received, broadcast)
}
