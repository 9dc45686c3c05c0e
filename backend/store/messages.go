package store

import (
	"bytes"
	"encoding/binary"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Message is one chat message with its raw and rendered content. Per-user
// state (read, starred, mentioned) lives in user_messages, not here.
type Message struct {
	ID          int64  `json:"id"`
	SenderID    int64  `json:"sender_id"`
	RecipientID int64  `json:"recipient_id"`
	StreamID    int64  `json:"stream_id,omitempty"` // 0 for private messages
	Topic       string `json:"topic,omitempty"`
	// PrivateUserIDs are a private conversation's participants, sender
	// included, sorted.
	PrivateUserIDs []int64 `json:"private_user_ids,omitempty"`
	Content        string  `json:"content"`
	Rendered       string  `json:"rendered"`
	Timestamp      int64   `json:"timestamp"`
	Client         string  `json:"client"`
	IsMe           bool    `json:"is_me,omitempty"`
	HasLink        bool    `json:"has_link,omitempty"`
	HasImage       bool    `json:"has_image,omitempty"`
	HasAttachment  bool    `json:"has_attachment,omitempty"`
	// LastEditTimestamp is 0 until the message is edited or moved.
	LastEditTimestamp int64        `json:"last_edit_timestamp,omitempty"`
	Edits             []Edit       `json:"edits,omitempty"` // oldest first
	Reactions         []Reaction   `json:"reactions,omitempty"`
	Submessages       []Submessage `json:"submessages,omitempty"`
}

// IsPrivate tells private messages from stream messages.
func (m Message) IsPrivate() bool { return m.StreamID == 0 }

// Edit records one change to a message, with what it replaced.
type Edit struct {
	Timestamp    int64  `json:"timestamp"`
	UserID       int64  `json:"user_id"`
	PrevContent  string `json:"prev_content,omitempty"`
	PrevRendered string `json:"prev_rendered,omitempty"`
	PrevTopic    string `json:"prev_topic,omitempty"`
	PrevStreamID int64  `json:"prev_stream_id,omitempty"`
}

// Reaction is one user's emoji on a message.
type Reaction struct {
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
	UserID       int64  `json:"user_id"`
}

// Submessage is data attached to a message by widgets (polls, todo lists).
type Submessage struct {
	ID       int64  `json:"id"`
	SenderID int64  `json:"sender_id"`
	MsgType  string `json:"msg_type"`
	Content  string `json:"content"`
}

// FoldTopic is the case-insensitive form topics are indexed and compared by.
func FoldTopic(topic string) string { return strings.ToLower(topic) }

func topicPrefix(streamID int64, topic string) []byte {
	k := append(itob(streamID), FoldTopic(topic)...)
	return append(k, 0)
}

// Message loads one message.
func (tx *Tx) Message(id int64) (Message, error) {
	data := tx.bucket(bucketMessages).Get(itob(id))
	if data == nil {
		return Message{}, ErrNotFound
	}
	return decodeMessage(data)
}

// putMessage writes a message record in its binary form.
func (tx *Tx) putMessage(m Message) error {
	return tx.bucket(bucketMessages).Put(itob(m.ID), encodeMessage(m))
}

// CreateMessage assigns the next message ID, stores the message with its
// indexes, and gives each recipient their flags. IDs strictly increase.
// Recipients are the conversation's span holders (a stream's subscribers,
// read in the same transaction, or a private conversation's participants)
// plus the sender: only the sender and recipients with flags write
// anything, so a message costs the same however many receive it.
func (tx *Tx) CreateMessage(m *Message, recipients Recipients) error {
	id, err := tx.nextID(bucketMessages)
	if err != nil {
		return err
	}
	m.ID = id
	if err := tx.putMessage(*m); err != nil {
		return err
	}
	if err := tx.indexMessage(*m); err != nil {
		return err
	}
	if err := tx.indexNewMessageSearch(m.ID); err != nil {
		return err
	}
	if !m.IsPrivate() {
		// The newest message of all is its topic's newest: no need to
		// look the topic index up as refreshTopic does.
		prefix := topicPrefix(m.StreamID, m.Topic)
		if err := tx.put(bucketTopics, prefix[:len(prefix)-1], Topic{Name: m.Topic, MaxID: m.ID}); err != nil {
			return err
		}
	}
	h := headOf(*m)
	for uid, flags := range recipients.Flagged() {
		if flags == 0 && uid != m.SenderID {
			continue // implied by the span: unread, nothing else
		}
		if err := tx.setFlags(uid, h, flags); err != nil {
			return err
		}
	}
	return nil
}

// UpdateMessage writes a changed message (content, topic, stream, reactions),
// moving its index entries from old to new, and, when it moves to another
// conversation, every user's state on it. The record is written before the
// re-indexing, which names a topic after its newest message as stored, and
// that may be this one.
func (tx *Tx) UpdateMessage(old, m Message) error {
	if old.RecipientID != m.RecipientID {
		if err := tx.moveHolders(headOf(old), headOf(m)); err != nil {
			return err
		}
	}
	if err := tx.putMessage(m); err != nil {
		return err
	}
	if err := tx.unindexMessage(old); err != nil {
		return err
	}
	if err := tx.indexMessage(m); err != nil {
		return err
	}
	if err := tx.reindexMessageSearch(old, m); err != nil {
		return err
	}
	if err := tx.refreshTopicOf(old); err != nil {
		return err
	}
	return tx.refreshTopicOf(m)
}

// DeleteMessage removes a message, its index entries and every user's
// flags on it.
func (tx *Tx) DeleteMessage(m Message, userIDs []int64) error {
	if err := tx.unindexMessage(m); err != nil {
		return err
	}
	if err := tx.unindexMessageSearch(m); err != nil {
		return err
	}
	if err := tx.refreshTopicOf(m); err != nil {
		return err
	}
	for _, uid := range userIDs {
		if err := tx.deleteRow(uid, m.ID); err != nil {
			return err
		}
	}
	return tx.bucket(bucketMessages).Delete(itob(m.ID))
}

// indexMessage adds the message's entries in the recipient, topic and
// sender indexes. The topic list and the search index (search_index.go)
// are its callers' to keep.
func (tx *Tx) indexMessage(m Message) error {
	for _, k := range messageIndexKeys(m) {
		if err := tx.bucket(k.bucket).Put(k.key, nil); err != nil {
			return err
		}
	}
	return nil
}

// unindexMessage drops what indexMessage added.
func (tx *Tx) unindexMessage(m Message) error {
	for _, k := range messageIndexKeys(m) {
		if err := tx.bucket(k.bucket).Delete(k.key); err != nil {
			return err
		}
	}
	return nil
}

type indexKey struct{ bucket, key []byte }

// messageIndexKeys are the message's keys in the recipient, sender and
// (for a stream message) topic indexes.
func messageIndexKeys(m Message) []indexKey {
	id := itob(m.ID)
	keys := []indexKey{
		{bucketMsgByRecipient, append(itob(m.RecipientID), id...)},
		{bucketMsgBySender, append(itob(m.SenderID), id...)},
	}
	if !m.IsPrivate() {
		keys = append(keys, indexKey{bucketMsgByTopic, append(topicPrefix(m.StreamID, m.Topic), id...)})
	}
	return keys
}

// refreshTopicOf refreshes the topic of a stream message.
func (tx *Tx) refreshTopicOf(m Message) error {
	if m.IsPrivate() {
		return nil
	}
	return tx.refreshTopic(m.StreamID, m.Topic)
}

// Topic is a stream's topic under its latest name, with its newest message
// (the topics bucket).
type Topic struct {
	Name  string `json:"name"`
	MaxID int64  `json:"max_id"`
}

// refreshTopic recomputes a topic's newest message from the topic index,
// dropping the topic when it has none left.
func (tx *Tx) refreshTopic(streamID int64, topic string) error {
	prefix := topicPrefix(streamID, topic)
	key := prefix[:len(prefix)-1]
	c := tx.bucket(bucketMsgByTopic).Cursor()
	last := lastWithPrefix(c, prefix)
	if last == nil {
		return tx.bucket(bucketTopics).Delete(key)
	}
	maxID := btoi(last[len(prefix):])
	m, err := tx.Message(maxID)
	name := topic
	if err == nil {
		name = m.Topic // the newest message's spelling names the topic
	}
	return tx.put(bucketTopics, key, Topic{Name: name, MaxID: maxID})
}

// lastWithPrefix positions c on the last key with the prefix.
func lastWithPrefix(c *bolt.Cursor, prefix []byte) []byte {
	end := prefixEnd(prefix)
	var k []byte
	if end == nil {
		k, _ = c.Last()
	} else if k, _ = c.Seek(end); k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if k != nil && bytes.HasPrefix(k, prefix) {
		return k
	}
	return nil
}

// prefixEnd is the smallest key greater than every key with the prefix, or
// nil when there is none.
func prefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// HasTopic tells whether a stream's topic has any message.
func (tx *Tx) HasTopic(streamID int64, topic string) bool {
	prefix := topicPrefix(streamID, topic)
	return tx.bucket(bucketTopics).Get(prefix[:len(prefix)-1]) != nil
}

// StreamTopics lists a stream's topics.
func (tx *Tx) StreamTopics(streamID int64) ([]Topic, error) {
	return scanPrefix[Topic](tx, bucketTopics, itob(streamID))
}

// conversationKey names a recipient: a stream, or a set of users.
func conversationKey(streamID int64, userIDs []int64) []byte {
	if streamID != 0 {
		return append([]byte("s"), itob(streamID)...)
	}
	k := []byte("p")
	for _, id := range userIDs {
		k = binary.BigEndian.AppendUint64(k, uint64(id))
	}
	return k
}

// RecipientID returns the stable ID of a stream's or a user set's
// conversation, creating it on first use (a write: call inside Update).
func (tx *Tx) RecipientID(streamID int64, sortedUserIDs []int64) (int64, error) {
	key := conversationKey(streamID, sortedUserIDs)
	if v := tx.bucket(bucketRecipients).Get(key); v != nil {
		return btoi(v), nil
	}
	id, err := tx.nextID(bucketRecipients)
	if err != nil {
		return 0, err
	}
	// A private conversation's participants receive all of it.
	for _, uid := range sortedUserIDs {
		if err := tx.putSpan(uid, id, span{From: 0}); err != nil {
			return 0, err
		}
	}
	return id, tx.bucket(bucketRecipients).Put(key, itob(id))
}

// LookupRecipientID is RecipientID for readers: false when the conversation
// has never been used.
func (tx *Tx) LookupRecipientID(streamID int64, sortedUserIDs []int64) (int64, bool) {
	v := tx.bucket(bucketRecipients).Get(conversationKey(streamID, sortedUserIDs))
	if v == nil {
		return 0, false
	}
	return btoi(v), true
}

// PutMessageBody writes a message whose indexed fields (recipient, topic,
// sender, content) did not change, such as a new reaction.
func (tx *Tx) PutMessageBody(m Message) error {
	return tx.putMessage(m)
}

// HasMessages tells whether any message is stored.
func (tx *Tx) HasMessages() bool {
	k, _ := tx.bucket(bucketMessages).Cursor().First()
	return k != nil
}
