package domain

import (
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

// UpdateFlags adds or removes a flag on messages for the actor and returns
// the IDs whose flag actually changed. Messages the actor may see but never
// received get a row (starring history, as Zulip does), except that unread
// state is never created for them.
func (s *Service) UpdateFlags(actor store.User, ids []int64, op, flagName string) ([]int64, error) {
	if op != "add" && op != "remove" {
		return nil, BadRequest("Invalid message flag operation: '%s'", op)
	}
	flag, err := parseFlag(flagName)
	if err != nil {
		return nil, err
	}
	changed := []int64{}
	err = s.store.Update(func(tx *store.Tx) error {
		streams := streamCache{}
		for _, id := range sortedUnique(ids) {
			m, err := tx.Message(id)
			if err != nil {
				return BadRequest("Invalid message(s)")
			}
			old, received := tx.Flags(actor.ID, id)
			if !received {
				f, ok := messageAccess(tx, actor, m, streams)
				if !ok {
					return BadRequest("Invalid message(s)")
				}
				if flag == store.FlagRead {
					continue // unread state exists only for received messages
				}
				old = f
			}
			next := old | flag
			if op == "remove" {
				next = old &^ flag
			}
			if next == old {
				continue
			}
			if err := tx.SetFlags(actor.ID, id, next); err != nil {
				return err
			}
			changed = append(changed, id)
		}
		return nil
	})
	if err != nil {
		return nil, internal("update flags", err)
	}
	return changed, nil
}

// markRead marks the actor's unread messages accepted by keep as read, in
// one transaction, and returns their IDs.
func (s *Service) markRead(actor store.User, keep func(store.Message) bool) ([]int64, error) {
	var changed []int64
	err := s.store.Update(func(tx *store.Tx) error {
		unread := tx.FlaggedIDs(actor.ID, store.IndexUnread)
		for _, id := range unread {
			m, err := tx.Message(id)
			if err != nil || !keep(m) {
				continue
			}
			f, _ := tx.Flags(actor.ID, id)
			if err := tx.SetFlags(actor.ID, id, f|store.FlagRead); err != nil {
				return err
			}
			changed = append(changed, id)
		}
		return nil
	})
	return changed, internal("mark as read", err)
}

// MarkAllAsRead marks every unread message of the actor read.
func (s *Service) MarkAllAsRead(actor store.User) ([]int64, error) {
	return s.markRead(actor, func(store.Message) bool { return true })
}

// MarkStreamAsRead marks the actor's unread messages in a stream read.
func (s *Service) MarkStreamAsRead(actor store.User, streamID int64) ([]int64, error) {
	if err := s.checkStreamID(actor, streamID); err != nil {
		return nil, err
	}
	return s.markRead(actor, func(m store.Message) bool { return m.StreamID == streamID })
}

// MarkTopicAsRead marks the actor's unread messages in a topic read.
func (s *Service) MarkTopicAsRead(actor store.User, streamID int64, topic string) ([]int64, error) {
	if err := s.checkStreamID(actor, streamID); err != nil {
		return nil, err
	}
	folded := store.FoldTopic(topic)
	return s.markRead(actor, func(m store.Message) bool {
		return m.StreamID == streamID && store.FoldTopic(m.Topic) == folded
	})
}

func (s *Service) checkStreamID(actor store.User, streamID int64) error {
	return s.store.View(func(tx *store.Tx) error {
		_, err := visibleStreamByID(tx, actor, streamID)
		return err
	})
}

// Message returns one message the viewer may see, with its raw content.
func (s *Service) Message(viewer store.User, id int64, applyMarkdown bool) (MessageObject, string, error) {
	var obj MessageObject
	var raw string
	err := s.store.View(func(tx *store.Tx) error {
		m, err := tx.Message(id)
		if err != nil {
			return BadRequest("Invalid message(s)")
		}
		f, ok := messageAccess(tx, viewer, m, streamCache{})
		if !ok {
			return BadRequest("Invalid message(s)")
		}
		obj = newMessageViewer(tx, viewOptions{applyMarkdown: applyMarkdown}, s.topicLinks).view(m, f, true)
		raw = m.Content
		return nil
	})
	return obj, raw, internal("get message", err)
}
