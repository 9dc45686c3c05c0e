package api

import (
	"context"
	"net/http"
	"runtime/debug"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/events"
)

// parkedPoll is an owned connection's poll while it waits for events: its
// read is left on the queue (events.Parked) instead of blocking the
// connection's goroutine, and the push that brings events runs the rest of
// the request here, on a worker: the answer, the request's line and the
// write. The layers a poll passes note what their tails need; they return
// without answering once the read has parked. One per connection, reused
// poll after poll.
type parkedPoll struct {
	events.Parked
	pc *pollConn
	// Noted by API.ServeHTTP.
	api   *API
	l     *requestLog
	r     *http.Request
	start time.Time
	// Noted by getEvents.
	c       *call
	fields  J
	queueID string
}

type parkedPollKey struct{}

// withParkedPoll lets the polls served under ctx park on pp.
func withParkedPoll(ctx context.Context, pp *parkedPoll) context.Context {
	pp.Finish = pp.finish
	return events.WithParking(context.WithValue(ctx, parkedPollKey{}, pp), &pp.Parked)
}

// parkedPollOf is the poll's parking place, nil for requests that are not
// an owned connection's.
func parkedPollOf(ctx context.Context) *parkedPoll {
	pp, _ := ctx.Value(parkedPollKey{}).(*parkedPoll)
	return pp
}

// reset readies pp for the connection's next poll.
func (pp *parkedPoll) reset() {
	pp.Reset()
	pp.api, pp.l, pp.r, pp.c, pp.fields, pp.queueID = nil, nil, nil, nil, nil, ""
}

// finish is the parked poll's tail: getEvents' answer, API.ServeHTTP's
// line, and the connection's write.
func (pp *parkedPoll) finish(evs []events.Delivered, err error) {
	defer pp.pc.endPoll()
	defer func() {
		// As API.ServeHTTP does for a handler's panic, but the answer's
		// state is unknown here: the connection is closed instead.
		if v := recover(); v != nil {
			pp.api.log.Error("handler panic", "method", pp.r.Method, "route", pp.r.Pattern, "panic", v, "stack", string(debug.Stack()))
			pp.pc.conn.Close()
		}
	}()
	if err != nil {
		writeError(pp.c.w, pp.c.r, domain.QueueReadError(pp.queueID, err))
	} else {
		writeEvents(pp.c, pp.fields, evs)
	}
	pp.api.finishRequest(pp.l, pp.r, pp.start)
	pp.pc.write()
}
