package domain

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Bounds on what one submessage and one message's submessages may hold.
// Zulip has none; here every submessage lives in its message's record,
// which each vote rewrites, so a message cannot be grown without end.
const (
	MaxSubmessageBytes     = 10000
	MaxSubmessageTypeBytes = 100
	MaxSubmessages         = 5000
)

// Submessage is POST /submessage: data a widget adds to a message.
type Submessage struct {
	MessageID int64
	MsgType   string
	Content   string // JSON
}

// AddSubmessage attaches a submessage to a message the actor can see, as
// Zulip's process_submessage: the message's sender attaches the first, the
// content is JSON and, on a poll or todo widget, one of its events; then
// everyone who holds the message hears it.
func (s *Service) AddSubmessage(actor store.User, sub Submessage) error {
	if len(sub.MsgType) > MaxSubmessageTypeBytes {
		return InvalidArgument("msg_type", "too long")
	}
	if len(sub.Content) > MaxSubmessageBytes {
		return InvalidArgument("content", "too long")
	}
	return internal("add submessage", s.update(func(tx *store.Tx) (func(), error) {
		m, _, err := accessMessage(tx, actor, sub.MessageID, streamCache{})
		if err != nil {
			return nil, err
		}
		if actor.ID != m.SenderID && !slices.ContainsFunc(m.Submessages, func(x store.Submessage) bool { return x.SenderID == m.SenderID }) {
			return nil, BadRequest("You cannot attach a submessage to this message.")
		}
		data, ok := decodeJSONValue(sub.Content)
		if !ok {
			return nil, BadRequest("Invalid json for submessage")
		}
		if err := checkWidgetEvent(widgetType(m.Submessages), data, actor.ID == m.SenderID); err != nil {
			return nil, err
		}
		if len(m.Submessages) >= MaxSubmessages {
			return nil, BadRequest("This message has too many submessages.")
		}
		id, err := tx.NextSubmessageID()
		if err != nil {
			return nil, err
		}
		m.Submessages = append(m.Submessages, store.Submessage{ID: id, SenderID: actor.ID, MsgType: sub.MsgType, Content: sub.Content})
		if err := tx.PutMessageBody(m); err != nil {
			return nil, err
		}
		audience, err := messageAudience(tx, m, actor)
		if err != nil {
			return nil, err
		}
		e := events.Event{"type": "submessage", "msg_type": sub.MsgType, "message_id": m.ID,
			"submessage_id": id, "sender_id": actor.ID, "content": sub.Content}
		return func() { s.events.Publish(e, audience) }, nil
	}))
}

// decodeJSONValue decodes one JSON value, numbers kept as written.
func decodeJSONValue(text string) (any, bool) {
	d := json.NewDecoder(bytes.NewReader([]byte(text)))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false // something after the value
	}
	return v, true
}
