package api

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/events"
)

// Socket timing: pings well inside common proxy idle limits.
const (
	socketPingEvery = 25 * time.Second
	socketIdle      = 60 * time.Second
	socketWrite     = 10 * time.Second
)

// eventSocket streams a registered queue's events over a WebSocket, for
// the bundled UI. The client sends {"last_event_id": N} to acknowledge
// what it has handled; after a reconnect with ?last_event_id=N it receives
// everything after N again, so nothing is lost across reconnects.
// Frames from the server are {"events": [...]} in the shape of GET /events.
func eventSocket(c *call) (J, error) {
	queueID := c.p.str("queue_id")
	acked := c.p.optInt("last_event_id", -1)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	// Fail before upgrading so a bad queue is a plain JSON error.
	if _, err := c.api.svc.Events(c.r.Context(), c.user, queueID, acked, true); err != nil {
		return nil, err
	}
	person := domain.PersonOf(c.user)
	if !c.api.sockets.take(c.r.Context(), person, 0) {
		return nil, c.api.svc.TooManyEventSockets()
	}
	defer c.api.sockets.give(person)
	ws, err := upgradeSocket(c.w, c.r)
	c.wrote = true
	if err != nil {
		return nil, nil
	}
	defer ws.close()
	ctx, cancel := context.WithCancel(c.r.Context())
	defer cancel()
	// The writer reads events past what it has sent; acknowledgements
	// only let the queue drop what the client has handled.
	f := &socketFollower{c: c, ws: ws, queueID: queueID, sent: acked, cancel: cancel}
	f.ack.Store(acked)
	f.Finish = f.finish
	f.ctx = events.WithParking(ctx, &f.Parked)
	go readAcks(ws, &f.ack, cancel)
	go pingUntilDone(ctx, ws, cancel)
	f.follow()
	<-ctx.Done() // the client went, a write failed or the queue ended
	f.HangUp()
	return nil, nil
}

// socketFollower writes a socket's events as they come. Its reads park on
// the queue (events.Parked), and the push's worker writes the frame and
// reads on, so no goroutine of the socket's is woken per event; the
// handler waits only for the socket's end.
type socketFollower struct {
	events.Parked
	c       *call
	ctx     context.Context
	cancel  context.CancelFunc
	ws      *socket
	queueID string
	ack     atomic.Int64 // what the client has acknowledged (readAcks)
	sent    int64
	frame   []byte
}

// follow writes a frame of events while some are queued, until its read
// parks or the socket ends.
func (f *socketFollower) follow() {
	for f.ctx.Err() == nil {
		evs, err := f.c.api.svc.FollowEvents(f.ctx, f.c.user, f.queueID, f.ack.Load(), f.sent)
		if errors.Is(err, events.ErrParked) || !f.write(evs, err) {
			return
		}
	}
}

// finish ends a parked read, on the push's worker.
func (f *socketFollower) finish(evs []events.Delivered, err error) {
	if f.write(evs, domain.QueueReadError(f.queueID, err)) {
		f.follow()
	}
}

// write sends a frame of evs, or err's; false: the socket ends (no events
// means its client hung up).
func (f *socketFollower) write(evs []events.Delivered, err error) bool {
	switch {
	case err != nil:
		f.ws.writeJSON(domainErrorFrame(err), socketWrite)
	case len(evs) > 0:
		f.sent = evs[len(evs)-1].ID
		f.frame = append(events.AppendList(append(f.frame[:0], `{"events":`...), evs), '}')
		if f.ws.writeText(f.frame, socketWrite) == nil {
			return true
		}
	}
	f.cancel()
	return false
}

// readAcks records the client's acknowledgements until the socket fails.
func readAcks(ws *socket, ack *atomic.Int64, done context.CancelFunc) {
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
		}
	}
}

func pingUntilDone(ctx context.Context, ws *socket, done context.CancelFunc) {
	t := time.NewTicker(socketPingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := ws.ping(socketWrite); err != nil {
				done()
				return
			}
		}
	}
}

// domainErrorFrame tells the client why the stream ended (for example the
// queue expired: register again).
func domainErrorFrame(err error) J {
	var de *domain.Error
	if errors.As(err, &de) {
		frame := J{"result": "error", "msg": de.Msg, "code": de.Code}
		for k, v := range de.Fields {
			frame[k] = v
		}
		return frame
	}
	slog.Error("event socket", "err", err)
	return J{"result": "error", "msg": "Internal server error", "code": domain.CodeBadRequest}
}
