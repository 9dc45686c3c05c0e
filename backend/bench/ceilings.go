package bench

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// broadcaster blocks polls until a broadcast wakes all of them.
type broadcaster struct {
	mu      sync.Mutex
	waiting int64 // polls blocked this round
	wake    chan struct{}
}

func newBroadcaster() *broadcaster { return &broadcaster{wake: make(chan struct{})} }

// wait blocks until the next broadcast.
func (b *broadcaster) wait() {
	b.mu.Lock()
	ch := b.wake
	b.waiting++
	b.mu.Unlock()
	<-ch
}

// broadcast waits until n polls are blocked and wakes them all.
func (b *broadcaster) broadcast(n int64) error {
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		if b.waiting >= n {
			b.waiting = 0
			close(b.wake)
			b.wake = make(chan struct{})
			b.mu.Unlock()
			return nil
		}
		arrived := b.waiting
		b.mu.Unlock()
		if time.Now().After(deadline) {
			return fmt.Errorf("only %d of %d polls arrived", arrived, n)
		}
	}
}

// longPollAnswer is the size of a one-message GET /events answer.
var longPollAnswer = `{"result":"success","msg":"","events":[{"id":0,"type":"message","flags":[],"message":"` + strings.Repeat("x", 800) + `"}]}`

// LongPollHandler is the long-poll ceiling's server: GET /poll blocks until
// a broadcast, then answers a message-sized event; GET
// /broadcast?pollers=N waits until N polls are blocked and wakes them all.
func LongPollHandler() http.Handler {
	b := newBroadcaster()
	mux := http.NewServeMux()
	mux.HandleFunc("/poll", func(w http.ResponseWriter, _ *http.Request) {
		b.wait()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, longPollAnswer)
	})
	mux.HandleFunc("/broadcast", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.ParseInt(r.FormValue("pollers"), 10, 64)
		if err := b.broadcast(n); err != nil {
			http.Error(w, err.Error(), http.StatusGatewayTimeout)
			return
		}
		io.WriteString(w, `{"result":"success","msg":""}`)
	})
	return mux
}

// ServeRawLongPoll is the floor under the long-poll ceiling: the same two
// paths served with no HTTP stack at all. Each connection's goroutine reads
// a request, blocks in /poll, and answers with one write of a prepared
// response. Any Go server that gives each client a connection and a
// goroutine pays at least this much per delivery.
func ServeRawLongPoll(ln net.Listener) error {
	b := newBroadcaster()
	answer, ok := rawResponse(longPollAnswer), rawResponse(`{"result":"success","msg":""}`)
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			defer conn.Close()
			r := bufio.NewReader(conn)
			for {
				line, err := r.ReadString('\n')
				for err == nil { // skip the headers; requests have no body
					var header string
					if header, err = r.ReadString('\n'); header == "\r\n" {
						break
					}
				}
				if err != nil {
					return
				}
				reply := answer
				if target, found := strings.CutPrefix(line, "GET /broadcast?pollers="); found {
					count, _, _ := strings.Cut(target, " ")
					n, _ := strconv.ParseInt(count, 10, 64)
					if err := b.broadcast(n); err != nil {
						return
					}
					reply = ok
				} else {
					b.wait()
				}
				if _, err := conn.Write(reply); err != nil {
					return
				}
			}
		}()
	}
}

// rawResponse is a complete HTTP/1.1 200 answer with body.
func rawResponse(body string) []byte {
	return []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
}

// LongPollCeiling measures pollers blocked long-polls answered at once by
// server (a process of its own, as lanchatd is), serving LongPollHandler
// (the HTTP stack alone) or ServeRawLongPoll (no HTTP stack), through the
// same client as Delivery. No event server can deliver faster to that many
// clients on this machine.
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
	poll := func(i int) error { return conns[i].send("/poll") }
	received := func(_ int, body []byte) error {
		_, err := decodePoll(body)
		return err
	}
	broadcast := func() error {
		return c.call("GET", "/broadcast", url.Values{"pollers": {strconv.Itoa(pollers)}}, nil)
	}
	return broadcastRounds(conns, rounds, poll, received, broadcast, server.CPU)
}
