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
	ws, err := upgradeSocket(c.w, c.r)
	c.wrote = true
	if err != nil {
		return nil, nil
	}
	defer ws.close()
	ctx, cancel := context.WithCancel(c.r.Context())
	defer cancel()
	var ack atomic.Int64
	ack.Store(acked)
	go readAcks(ws, &ack, cancel)
	go pingUntilDone(ctx, ws, cancel)

	// The writer waits for events past what it has sent; acknowledgements
	// only let the queue drop what the client has handled.
	sent := acked
	var frame []byte
	for ctx.Err() == nil {
		evs, err := c.api.svc.FollowEvents(ctx, c.user, queueID, ack.Load(), sent)
		if err != nil {
			ws.writeJSON(domainErrorFrame(err), socketWrite)
			return nil, nil
		}
		if len(evs) == 0 {
			continue // ctx ended
		}
		sent = evs[len(evs)-1].ID
		frame = append(events.AppendList(append(frame[:0], `{"events":`...), evs), '}')
		if err := ws.writeText(frame, socketWrite); err != nil {
			return nil, nil
		}
	}
	return nil, nil
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
