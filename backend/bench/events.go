package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Delivery measures send→delivery latency with pollers long-polling
// clients: each holds a GET /events open on a connection of its own; for
// each of sends messages the time from the start of the send request to the
// first byte of each poller's answer is recorded. Events are published
// before the send's response is written, so timing from the response would
// often be negative: this measure includes the send itself, whose own
// request latency is the second result.
func Delivery(srv *Server, pollers, sends int) (delivery, send Latencies, err error) {
	emails := []string{"admin@example.com", "alice@example.com", "bob@example.com", "guest@example.com"}
	clients := make([]*Client, len(emails))
	for i, e := range emails {
		c, err := Login(srv.URL, e)
		if err != nil {
			return Latencies{}, Latencies{}, err
		}
		clients[i] = c
	}
	conns := make([]*pollConn, pollers)
	queues := make([]string, pollers)
	last := make([]int64, pollers)
	defer closeAll(conns)
	for i := range pollers {
		c := clients[i%len(clients)]
		var reg struct {
			QueueID     string `json:"queue_id"`
			LastEventID int64  `json:"last_event_id"`
		}
		if err := c.call("POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}, "fetch_event_types": {"[]"}}, &reg); err != nil {
			return Latencies{}, Latencies{}, err
		}
		conn, err := dialPoll(srv.URL, c.email, c.key)
		if err != nil {
			return Latencies{}, Latencies{}, err
		}
		conns[i], queues[i], last[i] = conn, reg.QueueID, reg.LastEventID
	}
	var sendTimes []time.Duration
	sendOne := func() error {
		t0 := time.Now()
		err := clients[1].call("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"delivery"}, "content": {"tick"}}, nil)
		sendTimes = append(sendTimes, time.Since(t0))
		return err
	}
	request := func(i int) string {
		return "/api/v1/events?" + url.Values{"queue_id": {queues[i]}, "last_event_id": {strconv.FormatInt(last[i], 10)}}.Encode()
	}
	received := func(i int, body []byte) error {
		res, err := decodePoll(body)
		for _, e := range res.Events {
			last[i] = max(last[i], e.ID)
		}
		return err
	}
	delivery, err = broadcastRounds(conns, sends, request, received, sendOne, srv.CPU)
	return delivery, summarize(sendTimes, time.Duration(sends)*time.Second), err
}

// pollAnswer is what a poller reads of a GET /events answer.
type pollAnswer struct {
	Events []struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
	} `json:"events"`
}

// decodePoll reads a long-poll answer, which must carry a message event
// (not, say, a heartbeat).
func decodePoll(body []byte) (pollAnswer, error) {
	var res pollAnswer
	if err := json.Unmarshal(body, &res); err != nil {
		return res, err
	}
	for _, e := range res.Events {
		if e.Type == "message" {
			return res, nil
		}
	}
	return res, fmt.Errorf("long-poll answer without a message event: %.200s", body)
}

// broadcastRounds runs rounds of: every poller sends its long-poll (for the
// path request gives) and blocks, then trigger wakes them all. Latencies run
// from the start of trigger to the first byte of each poller's answer. The
// answers are read and handed to received only once every poller has its
// first byte, so that the client's parsing stays out of the window. The
// server's CPU time (serverCPU) over the same windows, per answer, is the
// result's ServerCPU.
func broadcastRounds(pollers []*pollConn, rounds int, request func(i int) string, received func(i int, body []byte) error, trigger func() error, serverCPU func() time.Duration) (Latencies, error) {
	var samples []time.Duration
	var cpu time.Duration
	for range rounds {
		var done, arrived sync.WaitGroup
		everyone := make(chan struct{})
		at := make([]time.Time, len(pollers))
		errs := make([]error, len(pollers))
		for i, p := range pollers {
			if err := p.send(request(i)); err != nil {
				return Latencies{}, err
			}
			done.Add(1)
			arrived.Add(1)
			go func() {
				defer done.Done()
				var err error
				at[i], err = p.firstByte()
				arrived.Done()
				<-everyone
				if err == nil {
					var body []byte
					if body, err = p.answer(); err == nil {
						err = received(i, body)
					}
				}
				errs[i] = err
			}()
		}
		time.Sleep(time.Duration(200+len(pollers)/20) * time.Millisecond) // let every poll reach the server and block
		cpu0, start := serverCPU(), time.Now()
		if err := trigger(); err != nil {
			close(everyone)
			return Latencies{}, err
		}
		arrived.Wait()
		cpu += serverCPU() - cpu0
		close(everyone)
		done.Wait()
		if err := errors.Join(errs...); err != nil {
			return Latencies{}, err
		}
		for _, t := range at {
			samples = append(samples, t.Sub(start))
		}
	}
	l := summarize(samples, time.Duration(rounds)*time.Second)
	l.PerSecond = 0
	l.ServerCPU = cpu / time.Duration(max(1, len(samples)))
	return l, nil
}

// closeAll closes the pollers' connections.
func closeAll(conns []*pollConn) {
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
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
