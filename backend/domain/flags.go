package domain

import (
	"slices"
	"strconv"

	"lanchat/backend/store"
)

// userSettableFlags are the flags clients may change; the others are the
// server's to set.
var userSettableFlags = map[string]store.Flags{
	"read": store.FlagRead, "starred": store.FlagStarred, "collapsed": store.FlagCollapsed,
}

func parseFlag(name string) (store.Flags, error) {
	if f, ok := userSettableFlags[name]; ok {
		return f, nil
	}
	for _, fn := range store.FlagNames {
		if fn.Name == name {
			return 0, BadRequest("Flag not editable: '%s'", name)
		}
	}
	return 0, BadRequest("Invalid flag: '%s'", name)
}

// FlagsUpdate is what UpdateFlags did: the IDs whose flag changed and,
// when marking unread, the channels whose messages were left read because
// the actor is not subscribed to them (nil otherwise; level 355).
type FlagsUpdate struct {
	Changed             []int64
	IgnoredUnsubscribed []int64
}

// UpdateFlags adds or removes a flag on messages for the actor. Messages
// the actor may see but never received get a row (starring history, as
// Zulip does), except that unread state is never created for them, nor
// in channels the actor is not subscribed to (Zulip's invariant).
func (s *Service) UpdateFlags(actor store.User, ids []int64, op, flagName string) (FlagsUpdate, error) {
	if op != "add" && op != "remove" {
		return FlagsUpdate{}, BadRequest("Invalid message flag operation: '%s'", op)
	}
	flag, err := parseFlag(flagName)
	if err != nil {
		return FlagsUpdate{}, err
	}
	markUnread := op == "remove" && flag == store.FlagRead
	changed := []int64{}
	var ignored []int64
	err = s.update(func(tx *store.Tx) (func(), error) {
		changed, ignored = changed[:0], nil
		if markUnread {
			ignored = []int64{}
		}
		streams := streamCache{}
		details := map[string]any{}
		for _, id := range sortedUnique(ids) {
			m, old, err := accessMessage(tx, actor, id, streams)
			if err != nil {
				return nil, err
			}
			if _, received := tx.Flags(actor.ID, id); !received && flag == store.FlagRead {
				continue // unread state exists only for received messages
			}
			if markUnread && !m.IsPrivate() && !tx.IsSubscribed(actor.ID, m.StreamID) {
				if !slices.Contains(ignored, m.StreamID) {
					ignored = append(ignored, m.StreamID)
				}
				continue
			}
			next := old | flag
			if op == "remove" {
				next = old &^ flag
			}
			if next == old {
				continue
			}
			if err := tx.SetFlags(actor.ID, id, next); err != nil {
				return nil, err
			}
			changed = append(changed, id)
			if markUnread {
				details[strconv.FormatInt(id, 10)] = messageDetails(m, next, actor.ID)
			}
		}
		e := flagsEvent(op, flagName, slices.Clone(changed), false)
		if markUnread {
			e["message_details"] = details
		}
		return func() { s.events.Publish(e, []int64{actor.ID}) }, nil
	})
	if err != nil {
		return FlagsUpdate{}, internal("update flags", err)
	}
	return FlagsUpdate{Changed: changed, IgnoredUnsubscribed: ignored}, nil
}

// FlagsForNarrowResult is the answer of POST /messages/flags/narrow.
type FlagsForNarrowResult struct {
	ProcessedCount   int    `json:"processed_count"`
	UpdatedCount     int    `json:"updated_count"`
	FirstProcessedID *int64 `json:"first_processed_id"`
	LastProcessedID  *int64 `json:"last_processed_id"`
	FoundOldest      bool   `json:"found_oldest"`
	FoundNewest      bool   `json:"found_newest"`
	// IgnoredUnsubscribed: see FlagsUpdate.
	IgnoredUnsubscribed *[]int64 `json:"ignored_because_not_subscribed_channels,omitempty"`
}

// UpdateFlagsForNarrow adds or removes a flag on the messages a history
// query selects (the mobile app's "mark as read" for a stream, a topic or
// everything, and "mark as unread from here"), as UpdateFlags does.
func (s *Service) UpdateFlagsForNarrow(actor store.User, q HistoryQuery, op, flagName string) (FlagsForNarrowResult, error) {
	if err := q.validate(); err != nil {
		return FlagsForNarrowResult{}, err
	}
	var found []hit
	var walked HistoryResult
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		_, found, err = findHistory(tx, actor, q, &walked)
		return err
	})
	if err != nil {
		return FlagsForNarrowResult{}, internal("find messages", err)
	}
	ids := make([]int64, len(found))
	for i, h := range found {
		ids[i] = h.msg.ID
	}
	up, err := s.UpdateFlags(actor, ids, op, flagName)
	if err != nil {
		return FlagsForNarrowResult{}, err
	}
	res := FlagsForNarrowResult{ProcessedCount: len(ids), UpdatedCount: len(up.Changed),
		FoundOldest: walked.FoundOldest, FoundNewest: walked.FoundNewest}
	if up.IgnoredUnsubscribed != nil {
		res.IgnoredUnsubscribed = &up.IgnoredUnsubscribed
	}
	if len(ids) > 0 {
		res.FirstProcessedID, res.LastProcessedID = &ids[0], &ids[len(ids)-1]
	}
	return res, nil
}

// messageDetails describes a message that became unread, so clients can
// put it back in their unread counts (Zulip's message_details).
func messageDetails(m store.Message, f store.Flags, viewerID int64) map[string]any {
	d := map[string]any{}
	if f&store.AnyMention != 0 {
		d["mentioned"] = true
	}
	if m.IsPrivate() {
		d["type"] = "private"
		others := slices.DeleteFunc(slices.Clone(m.PrivateUserIDs), func(id int64) bool { return id == viewerID })
		d["user_ids"] = others
		return d
	}
	d["type"], d["stream_id"], d["topic"] = "stream", m.StreamID, m.Topic
	d["unmuted_stream_msg"] = true
	return d
}

// markRead marks the actor's unread messages accepted by keep as read, in
// one transaction, and returns their IDs. all marks the event as Zulip's
// mark-all (messages: [], all: true).
func (s *Service) markRead(actor store.User, all bool, keep func(store.Message) bool) ([]int64, error) {
	var changed []int64
	err := s.update(func(tx *store.Tx) (func(), error) {
		changed = nil
		for _, id := range tx.FlaggedIDs(actor.ID, store.IndexUnread) {
			m, err := tx.Message(id)
			if err != nil || !keep(m) {
				continue
			}
			f, _ := tx.Flags(actor.ID, id)
			if err := tx.SetFlags(actor.ID, id, f|store.FlagRead); err != nil {
				return nil, err
			}
			changed = append(changed, id)
		}
		switch {
		case all:
			return func() { s.events.Publish(flagsEvent("add", "read", nil, true), []int64{actor.ID}) }, nil
		case len(changed) > 0:
			e := flagsEvent("add", "read", slices.Clone(changed), false)
			return func() { s.events.Publish(e, []int64{actor.ID}) }, nil
		}
		return nil, nil
	})
	return changed, internal("mark as read", err)
}

// MarkAllAsRead marks every unread message of the actor read.
func (s *Service) MarkAllAsRead(actor store.User) ([]int64, error) {
	return s.markRead(actor, true, func(store.Message) bool { return true })
}

// MarkStreamAsRead marks the actor's unread messages in a stream read.
func (s *Service) MarkStreamAsRead(actor store.User, streamID int64) ([]int64, error) {
	if err := s.checkStreamID(actor, streamID); err != nil {
		return nil, err
	}
	return s.markRead(actor, false, func(m store.Message) bool { return m.StreamID == streamID })
}

// MarkTopicAsRead marks the actor's unread messages in a topic read.
func (s *Service) MarkTopicAsRead(actor store.User, streamID int64, topic string) ([]int64, error) {
	if err := s.checkStreamID(actor, streamID); err != nil {
		return nil, err
	}
	folded := store.FoldTopic(topic)
	return s.markRead(actor, false, func(m store.Message) bool {
		return m.StreamID == streamID && store.FoldTopic(m.Topic) == folded
	})
}

func (s *Service) checkStreamID(actor store.User, streamID int64) error {
	return s.store.View(func(tx *store.Tx) error {
		_, err := visibleStreamByID(tx, actor, streamID)
		return err
	})
}
