package domain

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// ScheduledMessageChange is POST /scheduled_messages (every field) or
// PATCH /scheduled_messages/{id} (any of them; nil keeps what was there).
// Stream is a stream's ID or name; To are recipients' emails or IDs.
type ScheduledMessageChange struct {
	Type      *string
	Stream    string
	To        []string
	Topic     *string
	Content   *string
	DeliverAt *int64 // Unix seconds
}

// ScheduledMessageObject is a scheduled message as the API shows it: "to"
// is the stream's ID, or the recipients' user IDs.
type ScheduledMessageObject struct {
	ID              int64  `json:"scheduled_message_id"`
	Type            string `json:"type"`
	To              any    `json:"to"`
	Topic           string `json:"topic,omitempty"`
	Content         string `json:"content"`
	RenderedContent string `json:"rendered_content"`
	DeliverAt       int64  `json:"scheduled_delivery_timestamp"`
	Failed          bool   `json:"failed"`
}

var errNoScheduledMessage = NotFound("Scheduled message does not exist")

// maxScheduledWait is the longest the sender sleeps between looks at the
// scheduled messages, whatever it was told (a clock moved, say).
const maxScheduledWait = time.Minute

// ScheduleMessage stores a message to be sent at its time and tells the
// sender's other clients.
func (s *Service) ScheduleMessage(actor store.User, ch ScheduledMessageChange) (int64, error) {
	switch {
	case ch.Type == nil:
		return 0, MissingArgument("type")
	case ch.Content == nil:
		return 0, MissingArgument("content")
	case ch.DeliverAt == nil:
		return 0, MissingArgument("scheduled_delivery_timestamp")
	}
	var m store.ScheduledMessage
	err := s.update(func(tx *store.Tx) (func(), error) {
		m = store.ScheduledMessage{SenderID: actor.ID}
		if err := s.applyScheduledChange(tx, actor, &m, ch); err != nil {
			return nil, err
		}
		if err := tx.CreateScheduledMessage(&m); err != nil {
			return nil, err
		}
		e := events.Event{"type": "scheduled_messages", "op": "add", "scheduled_messages": []ScheduledMessageObject{s.scheduledObject(tx, actor, m)}}
		return func() { s.events.Publish(e, []int64{actor.ID}); s.wakeScheduler() }, nil
	})
	return m.ID, internal("schedule message", err)
}

// EditScheduledMessage changes one of the actor's scheduled messages; a
// failed one changed is tried again at its (new) time.
func (s *Service) EditScheduledMessage(actor store.User, id int64, ch ScheduledMessageChange) error {
	if ch.Type == nil && ch.Content == nil && ch.DeliverAt == nil && ch.Topic == nil && ch.Stream == "" && ch.To == nil {
		return BadRequest("Nothing to change")
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		m, err := ownScheduledMessage(tx, actor, id)
		if err != nil {
			return nil, err
		}
		if err := s.applyScheduledChange(tx, actor, &m, ch); err != nil {
			return nil, err
		}
		m.Failed, m.FailureMessage = false, ""
		if err := tx.PutScheduledMessage(m); err != nil {
			return nil, err
		}
		e := events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledObject(tx, actor, m)}
		return func() { s.events.Publish(e, []int64{actor.ID}); s.wakeScheduler() }, nil
	})
	return internal("edit scheduled message", err)
}

// DeleteScheduledMessage cancels one of the actor's scheduled messages.
func (s *Service) DeleteScheduledMessage(actor store.User, id int64) error {
	err := s.update(func(tx *store.Tx) (func(), error) {
		if _, err := ownScheduledMessage(tx, actor, id); err != nil {
			return nil, err
		}
		if err := tx.DeleteScheduledMessage(id); err != nil {
			return nil, err
		}
		return func() { s.events.Publish(scheduledRemoved(id), []int64{actor.ID}) }, nil
	})
	return internal("delete scheduled message", err)
}

// ScheduledMessages lists the actor's scheduled messages, soonest first.
func (s *Service) ScheduledMessages(actor store.User) ([]ScheduledMessageObject, error) {
	var out []ScheduledMessageObject
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		out, err = s.scheduledState(tx, actor)
		return err
	})
	return out, internal("list scheduled messages", err)
}

// scheduledState is register's scheduled_messages: the user's, soonest first.
func (s *Service) scheduledState(tx *store.Tx, u store.User) ([]ScheduledMessageObject, error) {
	all, err := tx.ScheduledMessages()
	if err != nil {
		return nil, err
	}
	out := []ScheduledMessageObject{}
	for _, m := range all {
		if m.SenderID == u.ID {
			out = append(out, s.scheduledObject(tx, u, m))
		}
	}
	slices.SortStableFunc(out, func(a, b ScheduledMessageObject) int { return int(a.DeliverAt - b.DeliverAt) })
	return out, nil
}

func ownScheduledMessage(tx *store.Tx, actor store.User, id int64) (store.ScheduledMessage, error) {
	m, err := tx.ScheduledMessage(id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && m.SenderID != actor.ID) {
		return m, errNoScheduledMessage
	}
	return m, err
}

func scheduledRemoved(id int64) events.Event {
	return events.Event{"type": "scheduled_messages", "op": "remove", "scheduled_message_id": id}
}

// applyScheduledChange validates ch as a send would be and writes it into m.
func (s *Service) applyScheduledChange(tx *store.Tx, actor store.User, m *store.ScheduledMessage, ch ScheduledMessageChange) error {
	out := OutgoingMessage{Type: m.Type, Stream: strconv.FormatInt(m.StreamID, 10), Topic: m.Topic, To: idStrings(m.To), Content: m.Content}
	if ch.Type != nil {
		out.Type = *ch.Type
		if (out.Type == "stream" || out.Type == "channel") != (m.Type == "stream") && ch.Stream == "" && ch.To == nil {
			return BadRequest("Scheduled message type changed without its recipients")
		}
	}
	if ch.Stream != "" {
		out.Stream = ch.Stream
	}
	if ch.To != nil {
		out.To = ch.To
	}
	if ch.Topic != nil {
		out.Topic = *ch.Topic
	}
	if ch.Content != nil {
		content, err := normalizeContent(*ch.Content)
		if err != nil {
			return err
		}
		out.Content = content
	}
	target, err := resolveTarget(tx, actor, out)
	var de *Error
	if id, numeric := strconv.ParseInt(out.Stream, 10, 64); numeric == nil && errors.As(err, &de) && de.Code == CodeStreamDoesNotExist {
		// Scheduled messages name their stream by ID, and Zulip's error says so.
		return errorf(CodeStreamDoesNotExist, "Channel with ID '%d' does not exist", id).With("stream_id", id)
	}
	if err != nil {
		return err
	}
	if ch.DeliverAt != nil {
		if *ch.DeliverAt <= s.now().Unix() {
			return BadRequest("Scheduled delivery time must be in the future.")
		}
		if *ch.DeliverAt > LastTimestamp {
			return BadRequest("Scheduled delivery time is past the year 9999.")
		}
		m.DeliverAt = *ch.DeliverAt
	}
	m.Content = out.Content
	if target.stream.ID != 0 {
		m.Type, m.StreamID, m.Topic, m.To = "stream", target.stream.ID, target.topic, nil
	} else {
		m.Type, m.StreamID, m.Topic, m.To = "private", 0, "", recipientsBesides(target.userIDs, actor.ID)
	}
	return nil
}

// recipientsBesides is a private message's participants without the
// sender, unless the sender writes to themself alone.
func recipientsBesides(userIDs []int64, senderID int64) []int64 {
	others := slices.DeleteFunc(slices.Clone(userIDs), func(id int64) bool { return id == senderID })
	if len(others) == 0 {
		return []int64{senderID}
	}
	return others
}

func idStrings(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

func (s *Service) scheduledObject(tx *store.Tx, sender store.User, m store.ScheduledMessage) ScheduledMessageObject {
	o := ScheduledMessageObject{ID: m.ID, Type: m.Type, Topic: m.Topic, Content: m.Content,
		RenderedContent: s.render(tx, sender, m.Content).HTML, DeliverAt: m.DeliverAt, Failed: m.Failed}
	if m.Type == "stream" {
		o.To = m.StreamID
	} else {
		o.To = m.To
	}
	return o
}

// RunScheduledMessages sends scheduled messages as their times come, until
// ctx ends. They are in the store, so those due while the server was down
// go out as it starts.
func (s *Service) RunScheduledMessages(ctx context.Context) {
	for {
		wait := min(s.sendDueScheduledMessages(), maxScheduledWait)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		case <-s.scheduledWake:
			timer.Stop()
		}
	}
}

// wakeScheduler has the sender look again (a message was scheduled or moved).
func (s *Service) wakeScheduler() {
	select {
	case s.scheduledWake <- struct{}{}:
	default:
	}
}

// sendDueScheduledMessages sends every message whose time has come and
// says how long until the next one. Each is sent under its own queue and
// local ID, so one sent but not yet deleted when the server stopped is not
// sent twice: the send repeated answers with the message it became.
func (s *Service) sendDueScheduledMessages() time.Duration {
	if s.store.ReadOnly() {
		return maxScheduledWait
	}
	var all []store.ScheduledMessage
	if err := s.store.View(func(tx *store.Tx) error { var err error; all, err = tx.ScheduledMessages(); return err }); err != nil {
		slog.Warn("read scheduled messages", "err", err)
		return maxScheduledWait
	}
	now := s.now().Unix()
	wait := maxScheduledWait
	for _, m := range all {
		if m.Failed {
			continue
		}
		if m.DeliverAt > now {
			wait = min(wait, time.Duration(m.DeliverAt-now)*time.Second)
			continue
		}
		s.sendScheduledMessage(m)
	}
	return wait
}

func (s *Service) sendScheduledMessage(m store.ScheduledMessage) {
	var sender store.User
	err := s.store.View(func(tx *store.Tx) error { var err error; sender, err = tx.User(m.SenderID); return err })
	if err == nil {
		out := OutgoingMessage{Type: m.Type, Stream: strconv.FormatInt(m.StreamID, 10), Topic: m.Topic, To: idStrings(m.To),
			Content: m.Content, Client: "Lanchat", QueueID: "scheduled", LocalID: strconv.FormatInt(m.ID, 10)}
		_, err = s.SendMessage(sender, out)
	}
	var failure *Error
	switch {
	case err == nil, errors.As(err, &failure):
	case errors.Is(err, store.ErrNotFound):
		failure = BadRequest("The sender's account no longer exists.")
	default:
		slog.Warn("send scheduled message", "id", m.ID, "err", err)
		return // the store failed: try again at the next look
	}
	err = s.update(func(tx *store.Tx) (func(), error) {
		if _, err := tx.ScheduledMessage(m.ID); err != nil {
			return nil, nil // cancelled meanwhile (it was sent all the same)
		}
		if failure == nil {
			if err := tx.DeleteScheduledMessage(m.ID); err != nil {
				return nil, err
			}
			return func() { s.events.Publish(scheduledRemoved(m.ID), []int64{m.SenderID}) }, nil
		}
		m.Failed, m.FailureMessage = true, failure.Msg
		if err := tx.PutScheduledMessage(m); err != nil {
			return nil, err
		}
		e := events.Event{"type": "scheduled_messages", "op": "update", "scheduled_message": s.scheduledObject(tx, sender, m)}
		return func() { s.events.Publish(e, []int64{m.SenderID}) }, nil
	})
	if err != nil {
		slog.Warn("finish scheduled message", "id", m.ID, "err", err)
	}
}
