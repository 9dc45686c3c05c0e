package api

import (
	"errors"
	"log/slog"

	"lanchat/backend/domain"
)

// eventSocket streams a registered queue's events over a WebSocket, for
// the bundled UI (delivery.followSocket). After a reconnect with
// ?last_event_id=N the client receives everything after N again, so
// nothing is lost across reconnects.
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
	c.api.delivery.followSocket(c.r.Context(), c, ws, queueID, acked)
	return nil, nil
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
