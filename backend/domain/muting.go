package domain

import (
	"lanchat/backend/store"
)

// mutedSet is what a user has muted or followed: muted streams, and topic
// policies that override their stream.
type mutedSet struct {
	streams map[int64]bool
	topics  map[topicKey]int // visibility policy
}

type topicKey struct {
	streamID int64
	topic    string // folded
}

func loadMuted(tx *store.Tx, userID int64) (mutedSet, error) {
	ms := mutedSet{streams: map[int64]bool{}, topics: map[topicKey]int{}}
	subs, err := tx.UserSubscriptions(userID)
	if err != nil {
		return ms, err
	}
	for _, sub := range subs {
		if sub.Active && sub.IsMuted {
			ms.streams[sub.StreamID] = true
		}
	}
	topics, err := tx.UserTopics(userID)
	if err != nil {
		return ms, err
	}
	for _, t := range topics {
		ms.topics[topicKey{t.StreamID, store.FoldTopic(t.TopicName)}] = t.VisibilityPolicy
	}
	return ms, nil
}

// hides tells whether a message is muted for the user: a muted topic, or a
// muted stream unless the topic is explicitly unmuted or followed.
func (ms mutedSet) hides(m store.Message) bool {
	if m.IsPrivate() {
		return false
	}
	switch ms.topics[topicKey{m.StreamID, store.FoldTopic(m.Topic)}] {
	case store.TopicMuted:
		return true
	case store.TopicUnmuted, store.TopicFollowed:
		return false
	}
	return ms.streams[m.StreamID]
}

func (ms mutedSet) followed(m store.Message) bool {
	return !m.IsPrivate() && ms.topics[topicKey{m.StreamID, store.FoldTopic(m.Topic)}] == store.TopicFollowed
}
