package domain

import (
	"errors"

	"lanchat/backend/store"
)

// When taking part in a topic changes its visibility on its own: Zulip's
// automatically_follow_topics_policy and
// automatically_unmute_topics_in_muted_streams_policy (level 214) take
// these values, and automatically_follow_topics_where_mentioned (235)
// follows the topics one is mentioned in.
const (
	autoOnParticipation = 1 // sending, or reacting
	autoOnSend          = 2
	autoOnInitiation    = 3 // sending a topic's first message
	// 4 is never.
)

// The policies' defaults, as Zulip's.
const (
	defaultAutoFollowPolicy = autoOnInitiation
	defaultAutoUnmutePolicy = autoOnSend
)

// autoPolicy is one of u's automatic visibility policies.
func autoPolicy(u store.User, name string, def int) int {
	switch v := u.Settings[name].(type) {
	case int:
		return v
	case float64: // as decoded from the stored record
		return int(v)
	}
	return def
}

// followsWhereMentioned is u's automatically_follow_topics_where_mentioned.
func followsWhereMentioned(u store.User) bool {
	on, set := u.Settings["automatically_follow_topics_where_mentioned"].(bool)
	return on || !set
}

// topicPolicy is u's visibility policy for a topic (inherit when unset).
func topicPolicy(tx *store.Tx, userID, streamID int64, topic string) (int, error) {
	t, err := tx.UserTopic(userID, streamID, topic)
	if errors.Is(err, store.ErrNotFound) {
		return store.TopicInherit, nil
	}
	return t.VisibilityPolicy, err
}

// automaticVisibility is the visibility policy u's policies give a topic
// when u acts in it (as Zulip's visibility_policy_for_send_message): acts
// are the policy values the action counts as (participation, sending,
// initiation). 0 means no change: policies only raise a topic's
// visibility, following comes before unmuting (which applies in muted
// streams only), and a followed topic stays as it is.
func automaticVisibility(tx *store.Tx, u store.User, st store.Stream, topic string, acts ...int) (int, error) {
	if u.IsBot() {
		return 0, nil
	}
	current, err := topicPolicy(tx, u.ID, st.ID, topic)
	if err != nil || current == store.TopicFollowed {
		return 0, err
	}
	counts := func(policy int) bool {
		for _, act := range acts {
			// A topic with a setting of its own was not started just now.
			if policy == act && (act != autoOnInitiation || current == store.TopicInherit) {
				return true
			}
		}
		return false
	}
	next := 0
	if counts(autoPolicy(u, "automatically_follow_topics_policy", defaultAutoFollowPolicy)) {
		next = store.TopicFollowed
	} else if sub, err := tx.Subscription(u.ID, st.ID); err == nil && sub.IsMuted &&
		counts(autoPolicy(u, "automatically_unmute_topics_in_muted_streams_policy", defaultAutoUnmutePolicy)) {
		next = store.TopicUnmuted
	}
	if next == current {
		return 0, nil
	}
	return next, nil
}

// setAutomaticVisibility writes policy for u's topic (if not 0) and adds its
// events to out.
func (s *Service) setAutomaticVisibility(tx *store.Tx, out *deliveries, u store.User, st store.Stream, topic string, policy int) error {
	if policy == 0 {
		return nil
	}
	publish, err := s.putUserTopic(tx, u, store.UserTopic{StreamID: st.ID, TopicName: topic, LastUpdated: s.now().Unix(), VisibilityPolicy: policy})
	if err == nil {
		*out = append(*out, publish)
	}
	return err
}

// followMentionedTopics follows the topic for the people a message mentions
// by name who receive it and asked for it (level 235), unless they muted
// or already follow it.
func (s *Service) followMentionedTopics(tx *store.Tx, out *deliveries, st store.Stream, topic string, mentioned []int64, flags store.Recipients) error {
	for _, id := range mentioned {
		if _, receives := flags.Flags(id); !receives {
			continue
		}
		u, err := tx.User(id)
		if err != nil {
			return err
		}
		if u.IsBot() || !followsWhereMentioned(u) {
			continue
		}
		current, err := topicPolicy(tx, id, st.ID, topic)
		if err != nil {
			return err
		}
		if current != store.TopicMuted && current != store.TopicFollowed {
			if err := s.setAutomaticVisibility(tx, out, u, st, topic, store.TopicFollowed); err != nil {
				return err
			}
		}
	}
	return nil
}

// participate applies u's automatic policies for taking part in a stream
// message's topic other than by sending (a reaction).
func (s *Service) participate(tx *store.Tx, out *deliveries, u store.User, m store.Message) error {
	st, err := tx.Stream(m.StreamID)
	if err != nil {
		return err
	}
	policy, err := automaticVisibility(tx, u, st, m.Topic, autoOnParticipation)
	if err != nil {
		return err
	}
	return s.setAutomaticVisibility(tx, out, u, st, m.Topic, policy)
}
