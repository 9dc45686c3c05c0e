package domain

import (
	"cmp"
	"errors"
	"slices"

	"lanchat/backend/store"
)

// MuteTopic runs the topic mute state machine of spec 3.1: add mutes (even
// a topic with no messages yet), remove unmutes, and doing either twice is
// an error (the spec shows no code; Zulip sends its default BAD_REQUEST).
func (s *Service) MuteTopic(actor store.User, stream string, streamID int64, topic, op string) error {
	err := s.store.Update(func(tx *store.Tx) error {
		var st store.Stream
		var err error
		if streamID != 0 {
			st, err = visibleStreamByID(tx, actor, streamID)
		} else {
			st, err = visibleStream(tx, actor, stream)
		}
		if err != nil {
			return err
		}
		topic, err := normalizeTopic(topic)
		if err != nil {
			return err
		}
		cur, err := tx.UserTopic(actor.ID, st.ID, topic)
		muted := err == nil && cur.VisibilityPolicy == store.TopicMuted
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		next := store.UserTopic{StreamID: st.ID, TopicName: topic, LastUpdated: s.now().Unix()}
		switch op {
		case "add":
			if muted {
				return BadRequest("Topic already muted")
			}
			next.VisibilityPolicy = store.TopicMuted
		case "remove":
			if !muted {
				return BadRequest("Topic is not muted")
			}
			next.VisibilityPolicy = store.TopicInherit
		default:
			return InvalidArgument("op", "must be add or remove")
		}
		return tx.PutUserTopic(actor.ID, next)
	})
	return internal("mute topic", err)
}

func sortTopicsNewestFirst(topics []store.Topic) {
	slices.SortFunc(topics, func(a, b store.Topic) int { return cmp.Compare(b.MaxID, a.MaxID) })
}
