package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptrace"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Delivery measures send→delivery latency with pollers long-polling
// clients: each holds a GET /events open; for each of sends messages the
// time from the start of the send request to the first byte of each
// poller's answer is recorded (decoding it is the client's business, and
// would add this process's CPU time to the server's). Events are published
// before the send's response is written, so timing from the response would
// often be negative: this measure includes the send itself.
func Delivery(srv *Server, pollers, sends int) (Latencies, error) {
	emails := []string{"admin@example.com", "alice@example.com", "bob@example.com", "guest@example.com"}
	clients := make([]*Client, len(emails))
	for i, e := range emails {
		c, err := Login(srv.URL, e)
		if err != nil {
			return Latencies{}, err
		}
		clients[i] = c
	}
	type poller struct {
		c       *Client
		queueID string
		last    int64
	}
	ps := make([]*poller, pollers)
	for i := range ps {
		c := clients[i%len(clients)]
		var reg struct {
			QueueID     string `json:"queue_id"`
			LastEventID int64  `json:"last_event_id"`
		}
		if err := c.call("POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}, "fetch_event_types": {"[]"}}, &reg); err != nil {
			return Latencies{}, err
		}
		ps[i] = &poller{c: c, queueID: reg.QueueID, last: reg.LastEventID}
	}
	send := func() error {
		return clients[1].call("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"delivery"}, "content": {"tick"}}, nil)
	}
	poll := func(i int, trace context.Context) error {
		p := ps[i]
		var res pollAnswer
		err := p.c.callContext(trace, "GET", "/api/v1/events", url.Values{"queue_id": {p.queueID}, "last_event_id": {strconv.FormatInt(p.last, 10)}}, &res)
		for _, e := range res.Events {
			p.last = max(p.last, e.ID)
		}
		return err
	}
	return broadcastRounds(pollers, sends, poll, send)
}

// pollAnswer is what a poller reads of a GET /events answer.
type pollAnswer struct {
	Events []struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
	} `json:"events"`
}

// broadcastRounds runs rounds of: every poller blocks in poll, then
// trigger wakes them all; the latencies are from the start of trigger to
// the first byte of each poller's answer.
func broadcastRounds(pollers, rounds int, poll func(i int, trace context.Context) error, trigger func() error) (Latencies, error) {
	var samples []time.Duration
	for range rounds {
		var wg, ready sync.WaitGroup
		received := make([]time.Time, pollers)
		errs := make([]error, pollers)
		for i := range pollers {
			wg.Add(1)
			ready.Add(1)
			go func() {
				defer wg.Done()
				trace := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
					GotFirstResponseByte: func() { received[i] = time.Now() },
				})
				ready.Done()
				errs[i] = poll(i, trace)
			}()
		}
		ready.Wait()
		time.Sleep(time.Duration(200+pollers/20) * time.Millisecond) // let every poll reach the server and block
		start := time.Now()
		if err := trigger(); err != nil {
			return Latencies{}, err
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return Latencies{}, err
		}
		for _, r := range received {
			samples = append(samples, r.Sub(start))
		}
	}
	l := summarize(samples, time.Duration(rounds)*time.Second)
	l.PerSecond = 0
	return l, nil
}

// IdleQueueMemory registers n queues that are never read and reports the
// server's resident memory growth per queue, in bytes.
func IdleQueueMemory(srv *Server, n int) (float64, error) {
	c, err := Login(srv.URL, "alice@example.com")
	if err != nil {
		return 0, err
	}
	before, err := rss(srv.cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	for range n {
		if err := c.call("POST", "/api/v1/register", url.Values{"fetch_event_types": {"[]"}}, nil); err != nil {
			return 0, err
		}
	}
	after, err := rss(srv.cmd.Process.Pid)
	if err != nil {
		return 0, err
	}
	return float64(after-before) / float64(n), nil
}

// rss reads a process's resident set size in bytes.
func rss(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

// SustainedSends measures sends per second while pollers long-poll without
// pause, each receiving every message.
func SustainedSends(srv *Server, pollers, senders int, d time.Duration) (Latencies, error) {
	c, err := Login(srv.URL, "bob@example.com")
	if err != nil {
		return Latencies{}, err
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range pollers {
		var reg struct {
			QueueID     string `json:"queue_id"`
			LastEventID int64  `json:"last_event_id"`
		}
		if err := c.call("POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}, "fetch_event_types": {"[]"}}, &reg); err != nil {
			return Latencies{}, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := reg.LastEventID
			for !stop.Load() {
				var res pollAnswer
				if c.call("GET", "/api/v1/events", url.Values{"queue_id": {reg.QueueID}, "last_event_id": {strconv.FormatInt(last, 10)}}, &res) != nil {
					return
				}
				for _, e := range res.Events {
					last = max(last, e.ID)
				}
			}
		}()
	}
	l, err := Sends(srv, senders, d)
	stop.Store(true)
	// One more message wakes every poller so it sees the stop.
	c.call("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"done"}, "content": {"done"}}, nil)
	wg.Wait()
	return l, err
}
