package store

// Visibility policies of a user's topic, with Zulip's numbers.
const (
	TopicInherit  = 0
	TopicMuted    = 1
	TopicUnmuted  = 2
	TopicFollowed = 3
)

// UserTopic is one user's setting for one stream topic.
type UserTopic struct {
	StreamID         int64  `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}

func userTopicKey(userID, streamID int64, topic string) []byte {
	return append(pairKey(userID, streamID), FoldTopic(topic)...)
}

// UserTopic loads a user's setting for a topic.
func (tx *Tx) UserTopic(userID, streamID int64, topic string) (UserTopic, error) {
	var t UserTopic
	err := tx.get(bucketUserTopics, userTopicKey(userID, streamID, topic), &t)
	return t, err
}

// PutUserTopic writes a user's setting for a topic; the inherit policy
// removes it.
func (tx *Tx) PutUserTopic(userID int64, t UserTopic) error {
	key := userTopicKey(userID, t.StreamID, t.TopicName)
	if t.VisibilityPolicy == TopicInherit {
		return tx.bucket(bucketUserTopics).Delete(key)
	}
	return tx.put(bucketUserTopics, key, t)
}

// UserTopics lists a user's topic settings.
func (tx *Tx) UserTopics(userID int64) ([]UserTopic, error) {
	return scanPrefix[UserTopic](tx, bucketUserTopics, itob(userID))
}
