package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Bucket names, one per kind of record plus the indexes that make lookups
// range scans. Keys are big-endian IDs, or IDs joined (pairKey).
var (
	bucketMeta          = []byte("meta")
	bucketUsers         = []byte("users")
	bucketUserByEmail   = []byte("users_by_email")
	bucketStreams       = []byte("streams")
	bucketStreamByName  = []byte("streams_by_name")
	bucketSubscriptions = []byte("subscriptions")      // user ID + stream ID → Subscription
	bucketSubscribers   = []byte("stream_subscribers") // stream ID + user ID → nothing
	bucketUserGroups    = []byte("user_groups")
	// field ID → ProfileField; user ID + field ID → ProfileValue (profile_fields.go)
	bucketProfileFields, bucketProfileValues = []byte("profile_fields"), []byte("profile_values")

	bucketMessages       = []byte("messages")      // message ID → Message
	bucketUserMessages   = []byte("user_messages") // user ID + message ID → flags, exceptions only (flags.go)
	bucketUserSpans      = []byte("user_spans")    // user ID + recipient ID + first message ID → end (spans.go)
	bucketReadRuns       = []byte("read_runs")     // user ID + recipient ID + ID block → runs (read_runs.go)
	bucketMsgByRecipient = []byte("messages_by_recipient")
	bucketMsgByTopic     = []byte("messages_by_topic")  // stream ID + folded topic + 0 + message ID
	bucketMsgBySender    = []byte("messages_by_sender") // sender ID + message ID
	bucketSearchPostings = []byte("search_postings")    // term + 0 + message ID / 256 → low bytes (search_index.go)
	bucketRecipients     = []byte("recipients")         // conversation key → recipient ID
	bucketTopics         = []byte("topics")             // stream ID + folded topic → Topic
	bucketUserTopics     = []byte("user_topics")        // user ID + stream ID + folded topic → UserTopic

	bucketRealmEmoji = []byte("realm_emoji")
	bucketLinkifiers = []byte("linkifiers")
	bucketUploads    = []byte("uploads")
	bucketPresence   = []byte("presence")
	bucketBotStorage = []byte("bot_storage")
	bucketSessions   = []byte("sessions")
	bucketInvites    = []byte("invites") // invite ID → Invite (invites.go)
	// event queue ID → EventQueue (event_queues.go)
	bucketEventQueues = []byte("event_queues")
	// sender ID + queue ID + 0 + local ID → SentLocalID (sent_local_ids.go)
	bucketSentLocalIDs = []byte("sent_local_ids")
	// scheduled message ID → ScheduledMessage (scheduled_messages.go)
	bucketScheduledMessages = []byte("scheduled_messages")
	// playground ID → Playground (playgrounds.go); added without a
	// version step: an older build leaves the bucket alone.
	bucketPlaygrounds = []byte("realm_playgrounds")
)

// allBuckets are created at open so transactions can assume they exist.
var allBuckets = [][]byte{
	bucketMeta, bucketUsers, bucketUserByEmail, bucketStreams, bucketStreamByName,
	bucketSubscriptions, bucketSubscribers, bucketUserGroups,
	bucketProfileFields, bucketProfileValues,
	bucketMessages, bucketUserMessages, bucketMsgByRecipient, bucketMsgByTopic, bucketMsgBySender,
	bucketUserSpans, bucketReadRuns, bucketSearchPostings, bucketRecipients, bucketTopics, bucketUserTopics,
	bucketRealmEmoji, bucketLinkifiers, bucketUploads, bucketPresence, bucketBotStorage, bucketSessions,
	bucketEventQueues, bucketInvites, bucketSentLocalIDs, bucketScheduledMessages,
	bucketPlaygrounds,
}

// itob encodes an ID as a big-endian key so byte order equals numeric order.
func itob(id int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(id))
	return b
}

func btoi(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }

// pairKey joins two IDs into one ordered key (for example user ID + stream ID).
func pairKey(a, b int64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, uint64(a))
	binary.BigEndian.PutUint64(k[8:], uint64(b))
	return k
}

func (tx *Tx) bucket(name []byte) *bolt.Bucket {
	if tx.btx.Writable() {
		// bbolt caches handles in write transactions itself.
		b := tx.btx.Bucket(name)
		if b != nil {
			b.FillPercent = fillPercent
		}
		return b
	}
	for _, nb := range tx.buckets {
		if bytes.Equal(nb.name, name) {
			return nb.b
		}
	}
	b := tx.btx.Bucket(name)
	tx.buckets = append(tx.buckets, namedBucket{name, b})
	return b
}

// fillPercent is how full a split leaves a page. Keys mostly arrive in
// order (IDs, and IDs within a user's, topic's or term's range), so the
// page left behind by a split rarely gets another key: filling it to 90%
// instead of bbolt's 50% means fewer pages to split and write per commit
// (about 13% more durable sends) and a smaller file.
const fillPercent = 0.9

// get decodes the JSON value at key into v, or returns ErrNotFound.
func (tx *Tx) get(bucket, key []byte, v any) error {
	data := tx.bucket(bucket).Get(key)
	if data == nil {
		return ErrNotFound
	}
	return decode(data, v)
}

func decode(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %T: %w", v, err)
	}
	return nil
}

// put stores v as JSON at key.
func (tx *Tx) put(bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s record: %w", bucket, err)
	}
	return tx.bucket(bucket).Put(key, data)
}

// nextID hands out the bucket's next sequence number: IDs strictly increase
// and are never reused, even after deletes.
func (tx *Tx) nextID(bucket []byte) (int64, error) {
	seq, err := tx.bucket(bucket).NextSequence()
	return int64(seq), err
}

// each decodes every value of a bucket in key order and calls fn; fn returning
// false stops the scan.
func each[T any](tx *Tx, bucket []byte, fn func(T) bool) error {
	c := tx.bucket(bucket).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var rec T
		if err := decode(v, &rec); err != nil {
			return err
		}
		if !fn(rec) {
			return nil
		}
	}
	return nil
}

// scanPrefix decodes, in key order, every value whose key starts with
// prefix.
func scanPrefix[T any](tx *Tx, bucket, prefix []byte) ([]T, error) {
	var out []T
	c := tx.bucket(bucket).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var rec T
		if err := decode(v, &rec); err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}
