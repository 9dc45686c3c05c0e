package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
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
	rig, err := newDemoRig(srv, pollers)
	if err != nil {
		return Latencies{}, Latencies{}, err
	}
	return rig.longPoll(srv, sends)
}

// longPoll runs sends rounds of delivery to the rig's queues, each followed
// by a long-poll on a connection of its own.
func (rig *deliveryRig) longPoll(srv *Server, sends int) (delivery, send Latencies, err error) {
	conns := make([]*pollConn, len(rig.queues))
	defer closeAll(conns)
	for i := range conns {
		c := rig.clientOf(i)
		if conns[i], err = dialPoll(srv.URL, c.email, c.key); err != nil {
			return Latencies{}, Latencies{}, err
		}
	}
	poll := func(i int) error { return conns[i].send(rig.pollPath(i)) }
	return rigRounds(rig, conns, sends, poll, srv)
}

// pollPath is client i's GET /events for what follows the newest event it
// has received.
func (rig *deliveryRig) pollPath(i int) string {
	return "/api/v1/events?" + url.Values{"queue_id": {rig.queues[i]}, "last_event_id": {strconv.FormatInt(rig.last[i], 10)}}.Encode()
}

// deliveryRig is what the delivery figures share: users, a queue per client
// registered round-robin among them, the newest event each client has
// received, and a user who sends to a stream every client's user is in.
type deliveryRig struct {
	users     []*Client
	queues    []string
	last      []int64
	sendTimes []time.Duration
}

// messageQueues registers queues of message events only, without state.
var messageQueues = url.Values{"event_types": {`["message"]`}, "fetch_event_types": {"[]"}}

// newDemoRig is clients message queues among the demo organization's four
// users.
func newDemoRig(srv *Server, clients int) (*deliveryRig, error) {
	users, err := loginAll(srv, []string{"admin@example.com", "alice@example.com", "bob@example.com", "guest@example.com"})
	if err != nil {
		return nil, err
	}
	return newDeliveryRig(users, clients, messageQueues)
}

// loginAll logs every email in.
func loginAll(srv *Server, emails []string) ([]*Client, error) {
	users := make([]*Client, len(emails))
	for i, e := range emails {
		c, err := Login(srv.URL, e)
		if err != nil {
			return nil, err
		}
		users[i] = c
	}
	return users, nil
}

// newDeliveryRig registers clients queues with the register parameters
// given, round-robin among users.
func newDeliveryRig(users []*Client, clients int, register url.Values) (*deliveryRig, error) {
	rig := &deliveryRig{users: users, queues: make([]string, clients), last: make([]int64, clients)}
	// The sender starts the rounds' topic before anyone listens: starting a
	// topic follows it (a user_topic event, once), and every answer of a
	// round must carry its message.
	if err := rig.send(); err != nil {
		return nil, err
	}
	for i := range clients {
		var reg struct {
			QueueID     string `json:"queue_id"`
			LastEventID int64  `json:"last_event_id"`
		}
		if err := rig.clientOf(i).call("POST", "/api/v1/register", register, &reg); err != nil {
			return nil, err
		}
		rig.queues[i], rig.last[i] = reg.QueueID, reg.LastEventID
	}
	return rig, nil
}

// clientOf is the user client i follows the queue of.
func (rig *deliveryRig) clientOf(i int) *Client { return rig.users[i%len(rig.users)] }

// send posts one stream message every client receives, timing the request.
func (rig *deliveryRig) send() error {
	t0 := time.Now()
	err := rig.users[1].call("POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"delivery"}, "content": {"tick"}}, nil)
	rig.sendTimes = append(rig.sendTimes, time.Since(t0))
	return err
}

// received notes the events of client i's answer, which must carry a
// message.
func (rig *deliveryRig) received(i int, body []byte) error {
	res, err := decodePoll(body)
	for _, e := range res.Events {
		rig.last[i] = max(rig.last[i], e.ID)
	}
	return err
}

// rigRounds runs sends broadcast rounds over the rig's clients (conns,
// armed by arm): the deliveries' latencies and the send requests' own.
func rigRounds[C roundConn](rig *deliveryRig, conns []C, sends int, arm func(i int) error, srv *Server) (delivery, send Latencies, err error) {
	rig.sendTimes = nil
	delivery, err = broadcastRounds(conns, sends, arm, rig.received, rig.send, srv.CPU)
	return delivery, summarize(rig.sendTimes, time.Duration(sends)*time.Second), err
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

// roundConn is one client of a broadcast round: a long-poll or a socket.
type roundConn interface {
	firstByte() (time.Time, error)
	answer() ([]byte, error)
}

// broadcastRounds runs rounds of: every client is armed (a long-poller sends
// its request, a socket acknowledges what it has) and blocks, then trigger
// wakes them all. Latencies run
// from the start of trigger to the first byte of each poller's answer. The
// answers are read and handed to received only once every poller has its
// first byte, so that the client's parsing stays out of the window. The
// server's CPU time (serverCPU) over the same windows, per answer, is the
// result's ServerCPU; over whole rounds, per answer, its CycleCPU.
func broadcastRounds[C roundConn](pollers []C, rounds int, arm func(i int) error, received func(i int, body []byte) error, trigger func() error, serverCPU func() time.Duration) (Latencies, error) {
	var samples []time.Duration
	var cpu, cycles time.Duration
	for range rounds {
		cycle0 := serverCPU()
		var done, arrived sync.WaitGroup
		everyone := make(chan struct{})
		at := make([]time.Time, len(pollers))
		errs := make([]error, len(pollers))
		for i, p := range pollers {
			if err := arm(i); err != nil {
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
		cycles += serverCPU() - cycle0
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
	l.CycleCPU = cycles / time.Duration(max(1, len(samples)))
	return l, nil
}

// closeAll closes the clients' connections.
func closeAll[C interface {
	comparable
	Close() error
}](conns []C) {
	var none C
	for _, c := range conns {
		if c != none {
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
	before, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	for range n {
		if err := c.call("POST", "/api/v1/register", url.Values{"fetch_event_types": {"[]"}}, nil); err != nil {
			return 0, err
		}
	}
	after, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	return float64(after.RSS-before.RSS) / float64(n), nil
}

// PollingClientMemory opens n connections, each long-polling a queue of
// its own, and reports the server's resident memory growth per
// connection while every poll waits, in bytes. The queues are registered
// before the first reading: this is the connection and its waiting poll
// alone.
func PollingClientMemory(srv *Server, n int) (float64, error) {
	c, err := Login(srv.URL, "alice@example.com")
	if err != nil {
		return 0, err
	}
	rig, err := newDeliveryRig([]*Client{c}, n, messageQueues)
	if err != nil {
		return 0, err
	}
	before, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	conns := make([]*pollConn, n)
	defer closeAll(conns)
	for i := range conns {
		if conns[i], err = dialPoll(srv.URL, c.email, c.key); err != nil {
			return 0, err
		}
		if err := conns[i].send(rig.pollPath(i)); err != nil {
			return 0, err
		}
	}
	time.Sleep(time.Second) // let the last polls reach their wait
	after, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	return float64(after.RSS-before.RSS) / float64(n), nil
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
