package api

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/events"
)

// delivery is the one component that hands events to the clients waiting
// for them, long-polls and WebSockets alike: it owns their waits, their
// wake-ups and every write to them, each under a write deadline, so that a
// client that stops reading is dropped instead of holding anyone up.
//
// A message's way to a poller's socket: domain.Service.SendMessage commits
// it and publishes it (events.Registry.PublishMessage), which appends it to
// each recipient's queue and closes the queue's wake channel. Every waiting
// client has a goroutine of its own (net/http's, for its request) blocked
// on that channel in Registry.Fetch (answerPoll) or Registry.Follow
// (followSocket); woken, it takes the queue's events and writes them to its
// own connection. Nothing else writes to a waiting client, and no client's
// write waits for another's.
type delivery struct {
	svc *domain.Service
	// writeTimeout bounds each write to a waiting client.
	writeTimeout time.Duration
}

// Socket timing: pings well inside common proxy idle limits.
const (
	socketPingEvery = 25 * time.Second
	socketIdle      = 60 * time.Second
)

// answerPoll answers a long-poll of the caller's queue with its events after
// lastEventID (and fields beside them): at once when there are some, or
// with dontBlock; else when one arrives, with a heartbeat, or with none
// when the client hangs up or the server stops.
func (d *delivery) answerPoll(c *call, queueID string, lastEventID int64, dontBlock bool, fields J) {
	evs, err := d.svc.Events(c.r.Context(), c.user, queueID, lastEventID, dontBlock)
	// The answer is written and flushed here, under the deadline, which is
	// then cleared: the connection's next request may wait longer.
	rc := http.NewResponseController(c.w)
	rc.SetWriteDeadline(time.Now().Add(d.writeTimeout))
	defer rc.SetWriteDeadline(time.Time{})
	if err != nil {
		writeError(c.w, c.r, err)
		c.wrote = true
	} else {
		writeEvents(c, fields, evs)
	}
	rc.Flush()
}

// writeEvents answers a poll with its events, beside fields.
func writeEvents(c *call, fields J, evs []events.Delivered) {
	writeSuccessSpliced(c, fields, "events", func(b []byte) []byte { return events.AppendList(b, evs) })
}

// followSocket writes the caller's queue's events to ws as they come, a
// frame of {"events": [...]} at a time, until the client goes (ctx ends or
// its reads fail), a write fails, the queue ends (a last frame says why) or
// the server stops. The client acknowledges with {"last_event_id": N},
// which lets the queue drop what it has handled and paces the frames: the
// next is written once the client has acknowledged the last (or after
// socketAckWait), carrying the events that came meanwhile (at most
// socketFrameEvents).
func (d *delivery) followSocket(ctx context.Context, c *call, ws *socket, queueID string, acked int64) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var ack atomic.Int64
	ack.Store(acked)
	acks := make(chan struct{}, 1)
	go readAcks(ws, &ack, acks, cancel)
	go d.ping(ctx, ws, cancel)
	var frame []byte
	for sent := acked; ; {
		if !awaitAck(ctx, &ack, acks, sent) {
			return
		}
		evs, err := d.svc.FollowEvents(ctx, c.user, queueID, ack.Load(), sent)
		switch {
		case err != nil:
			ws.writeJSON(domainErrorFrame(err), d.writeTimeout)
			return
		case len(evs) == 0: // the client went, or the server is stopping
			return
		}
		evs = evs[:min(len(evs), socketFrameEvents)] // the rest come next
		sent = evs[len(evs)-1].ID
		frame = append(events.AppendList(append(frame[:0], `{"events":`...), evs), '}')
		if ws.writeText(frame, d.writeTimeout) != nil {
			return
		}
	}
}

// socketAckWait is how long a socket's next frame waits for the client to
// acknowledge the last. A client that keeps up (the web UI acknowledges
// each frame as it arrives) never waits for it; one that does not read,
// or never acknowledges, gets a frame a second instead of one for every
// event: 100 idle sockets of one member's took a write each for every
// message sent to the stream, half a core under the hostile figure's
// sends.
var socketAckWait = time.Second

// socketFrameEvents is the most events a frame carries: a second of a busy
// stream's messages in one frame, for each of 100 sockets never read, took
// the server past 150 MB.
const socketFrameEvents = 50

// awaitAck waits until the client has acknowledged every event sent so far
// (up to sent), or socketAckWait has passed; false when ctx ends first.
func awaitAck(ctx context.Context, ack *atomic.Int64, acks <-chan struct{}, sent int64) bool {
	if ack.Load() >= sent {
		return true
	}
	timer := time.NewTimer(socketAckWait)
	defer timer.Stop()
	for ack.Load() < sent {
		select {
		case <-acks:
		case <-timer.C:
			return true
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// readAcks records the client's acknowledgements until the socket fails,
// telling acks of each (without waiting: one untaken tells enough).
func readAcks(ws *socket, ack *atomic.Int64, acks chan<- struct{}, done context.CancelFunc) {
	defer done()
	ws.keepAlive(socketIdle)
	for {
		var msg struct {
			LastEventID *int64 `json:"last_event_id"`
		}
		if err := ws.readJSON(&msg); err != nil {
			return
		}
		if msg.LastEventID != nil && *msg.LastEventID > ack.Load() {
			ack.Store(*msg.LastEventID)
			select {
			case acks <- struct{}{}:
			default:
			}
		}
	}
}

// ping keeps the socket's connection alive through proxies until ctx ends.
func (d *delivery) ping(ctx context.Context, ws *socket, done context.CancelFunc) {
	t := time.NewTicker(socketPingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := ws.ping(d.writeTimeout); err != nil {
				done()
				return
			}
		}
	}
}
