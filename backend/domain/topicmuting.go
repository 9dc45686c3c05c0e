package domain

import (
	"errors"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// MuteTopic runs the topic mute state machine of spec 3.1: add mutes (even
// a topic with no messages yet), remove unmutes, and doing either twice is
// an error (the spec shows no code; Zulip sends its default BAD_REQUEST).
func (s *Service) MuteTopic(actor store.User, stream string, streamID int64, topic, op string) error {
	err := s.update(func(tx *store.Tx) (func(), error) {
		var st store.Stream
		var err error
		if streamID != 0 {
			st, err = visibleStreamByID(tx, actor, streamID)
		} else {
			st, err = visibleStream(tx, actor, stream)
		}
		if err != nil {
			return nil, err
		}
		topic, err := userTopicName(topic)
		if err != nil {
			return nil, err
		}
		cur, err := tx.UserTopic(actor.ID, st.ID, topic)
		muted := err == nil && cur.VisibilityPolicy == store.TopicMuted
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		next := store.UserTopic{StreamID: st.ID, TopicName: topic, LastUpdated: s.now().Unix()}
		switch op {
		case "add":
			if muted {
				return nil, BadRequest("Topic already muted")
			}
			next.VisibilityPolicy = store.TopicMuted
		case "remove":
			if !muted {
				return nil, BadRequest("Topic is not muted")
			}
			next.VisibilityPolicy = store.TopicInherit
		default:
			return nil, InvalidArgument("op", "must be add or remove")
		}
		return s.putUserTopic(tx, actor, next)
	})
	return internal("mute topic", err)
}

// SetUserTopic is POST /user_topics: a topic's visibility policy for the
// actor (0 inherit, 1 muted, 2 unmuted, 3 followed); setting the current
// one again is no error, as in Zulip.
func (s *Service) SetUserTopic(actor store.User, streamID int64, topic string, policy int) error {
	if policy < store.TopicInherit || policy > store.TopicFollowed {
		return InvalidArgument("visibility_policy", "must be 0, 1, 2 or 3")
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		st, err := visibleStreamByID(tx, actor, streamID)
		if err != nil {
			return nil, err
		}
		topic, err := userTopicName(topic)
		if err != nil {
			return nil, err
		}
		return s.putUserTopic(tx, actor, store.UserTopic{StreamID: st.ID, TopicName: topic,
			LastUpdated: s.now().Unix(), VisibilityPolicy: policy})
	})
	return internal("set topic visibility", err)
}

// putUserTopic writes a topic setting and tells the actor's clients, in
// both the legacy muted_topics form and user_topic.
func (s *Service) putUserTopic(tx *store.Tx, actor store.User, next store.UserTopic) (func(), error) {
	if err := tx.PutUserTopic(actor.ID, next); err != nil {
		return nil, err
	}
	list, err := mutedTopicsList(tx, actor.ID)
	if err != nil {
		return nil, err
	}
	var out deliveries
	out.add(s, events.Event{"type": "muted_topics", "muted_topics": list}, []int64{actor.ID})
	out.add(s, events.Event{"type": "user_topic", "stream_id": next.StreamID, "topic_name": next.TopicName,
		"last_updated": next.LastUpdated, "visibility_policy": next.VisibilityPolicy}, []int64{actor.ID})
	return out.publish, nil
}

// mutedTopicsList is Zulip's legacy muted_topics: [stream name, topic,
// muted at] for each muted topic.
func mutedTopicsList(tx *store.Tx, userID int64) ([][3]any, error) {
	topics, err := tx.UserTopics(userID)
	if err != nil {
		return nil, err
	}
	out := [][3]any{}
	for _, t := range topics {
		if t.VisibilityPolicy != store.TopicMuted {
			continue
		}
		if st, err := tx.Stream(t.StreamID); err == nil {
			out = append(out, [3]any{st.Name, t.TopicName, t.LastUpdated})
		}
	}
	return out, nil
}

// UserTopicObject is one of a person's topic settings, as register's
// user_topics lists it.
type UserTopicObject struct {
	StreamID         int64  `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}

// userTopicObjects converts a person's topic settings for the wire: a list,
// even when empty.
func userTopicObjects(topics []store.UserTopic) []UserTopicObject {
	out := make([]UserTopicObject, len(topics))
	for i, t := range topics {
		out[i] = UserTopicObject{StreamID: t.StreamID, TopicName: t.TopicName, LastUpdated: t.LastUpdated,
			VisibilityPolicy: t.VisibilityPolicy}
	}
	return out
}

// userTopicName is the topic a visibility policy names: a longer one than
// a topic may be is refused, as in Zulip, rather than cut, which would set
// the policy of another topic.
func userTopicName(topic string) (string, error) {
	if err := checkLength("topic", topic, MaxTopicLength); err != nil {
		return "", err
	}
	return normalizeTopic(topic)
}
