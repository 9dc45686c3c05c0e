package store

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// Flags is one user's state on one message, as a bit set.
type Flags uint32

// The flags, with Zulip's names in FlagNames.
const (
	FlagRead Flags = 1 << iota
	FlagStarred
	FlagCollapsed
	FlagMentioned
	FlagWildcardMentioned
	FlagStreamWildcardMentioned
	FlagTopicWildcardMentioned
	FlagHasAlertWord
	FlagHistorical
	FlagSummarizeInHome
	FlagSummarizeInStream
	FlagForceExpand
	FlagForceCollapse
)

// FlagNames maps each flag to its API name, in the order clients see them.
var FlagNames = []struct {
	Flag Flags
	Name string
}{
	{FlagRead, "read"}, {FlagStarred, "starred"}, {FlagCollapsed, "collapsed"},
	{FlagMentioned, "mentioned"}, {FlagWildcardMentioned, "wildcard_mentioned"},
	{FlagStreamWildcardMentioned, "stream_wildcard_mentioned"},
	{FlagTopicWildcardMentioned, "topic_wildcard_mentioned"},
	{FlagHasAlertWord, "has_alert_word"}, {FlagHistorical, "historical"},
	{FlagSummarizeInHome, "summarize_in_home"}, {FlagSummarizeInStream, "summarize_in_stream"},
	{FlagForceExpand, "force_expand"}, {FlagForceCollapse, "force_collapse"},
}

// Names lists the set flags' API names.
func (f Flags) Names() []string {
	out := []string{}
	for _, fn := range FlagNames {
		if f&fn.Flag != 0 {
			out = append(out, fn.Name)
		}
	}
	return out
}

// AnyMention is every kind of mention, as is:mentioned counts them.
const AnyMention = FlagMentioned | FlagWildcardMentioned | FlagStreamWildcardMentioned | FlagTopicWildcardMentioned

// FlagIndex names a per-user index of messages in some state, so that
// is:unread, is:starred, is:mentioned and is:alerted are range scans.
type FlagIndex byte

// The indexed states.
const (
	IndexUnread    FlagIndex = 'u'
	IndexStarred   FlagIndex = 's'
	IndexMentioned FlagIndex = 'm'
	IndexAlerted   FlagIndex = 'a'
)

func (ix FlagIndex) holds(f Flags) bool {
	switch ix {
	case IndexUnread:
		return f&FlagRead == 0
	case IndexStarred:
		return f&FlagStarred != 0
	case IndexMentioned:
		return f&AnyMention != 0
	case IndexAlerted:
		return f&FlagHasAlertWord != 0
	}
	return false
}

var flagIndexes = []FlagIndex{IndexUnread, IndexStarred, IndexMentioned, IndexAlerted}

func flagIndexPrefix(userID int64, ix FlagIndex) []byte {
	return append(itob(userID), byte(ix))
}

// Flags returns a user's flags on a message; ok is false when the user never
// received it.
func (tx *Tx) Flags(userID, msgID int64) (Flags, bool) {
	v := tx.bucket(bucketUserMessages).Get(pairKey(userID, msgID))
	if v == nil {
		return 0, false
	}
	return Flags(binary.BigEndian.Uint32(v)), true
}

// SetFlags records a user's flags on a message, keeping the flag indexes
// current.
func (tx *Tx) SetFlags(userID, msgID int64, f Flags) error {
	old, had := tx.Flags(userID, msgID)
	return tx.writeFlags(userID, msgID, old, had, f)
}

// writeFlags replaces a user's flags on a message, old (when had) with f,
// keeping the flag indexes in step. A new message has no old flags to read.
func (tx *Tx) writeFlags(userID, msgID int64, old Flags, had bool, f Flags) error {
	idx := tx.bucket(bucketUserFlagIndex)
	for _, ix := range flagIndexes {
		key := append(flagIndexPrefix(userID, ix), itob(msgID)...)
		was, is := had && ix.holds(old), ix.holds(f)
		var err error
		switch {
		case is && !was:
			err = idx.Put(key, nil)
		case was && !is:
			err = idx.Delete(key)
		}
		if err != nil {
			return err
		}
	}
	return tx.bucket(bucketUserMessages).Put(pairKey(userID, msgID), binary.BigEndian.AppendUint32(nil, uint32(f)))
}

// DeleteFlags forgets a user's state on a message.
func (tx *Tx) DeleteFlags(userID, msgID int64) error {
	old, had := tx.Flags(userID, msgID)
	if !had {
		return nil
	}
	for _, ix := range flagIndexes {
		if ix.holds(old) {
			if err := tx.bucket(bucketUserFlagIndex).Delete(append(flagIndexPrefix(userID, ix), itob(msgID)...)); err != nil {
				return err
			}
		}
	}
	return tx.bucket(bucketUserMessages).Delete(pairKey(userID, msgID))
}

// MessageUserIDs lists who holds flags on a message. Messages have few
// recipients compared with the whole table, but this scans every user: use
// it for rare operations (deletion), not per request.
func (tx *Tx) MessageUserIDs(msgID int64, userIDs []int64) []int64 {
	var out []int64
	for _, uid := range userIDs {
		if _, ok := tx.Flags(uid, msgID); ok {
			out = append(out, uid)
		}
	}
	return out
}

// FlaggedIDs lists a user's message IDs in an indexed state, ascending.
func (tx *Tx) FlaggedIDs(userID int64, ix FlagIndex) []int64 {
	var out []int64
	tx.Scan(FlagRange(userID, ix), 0, false, func(id int64) bool { out = append(out, id); return true })
	return out
}

// Range is an ordered set of message IDs held by an index: every key of the
// bucket that starts with prefix ends with a big-endian message ID.
type Range struct {
	bucket []byte
	prefix []byte
}

// RecipientRange holds a conversation's messages (a stream's, or a private
// conversation's).
func RecipientRange(recipientID int64) Range {
	return Range{bucketMsgByRecipient, itob(recipientID)}
}

// TopicRange holds a stream topic's messages.
func TopicRange(streamID int64, topic string) Range {
	return Range{bucketMsgByTopic, topicPrefix(streamID, topic)}
}

// SenderRange holds a user's sent messages.
func SenderRange(senderID int64) Range {
	return Range{bucketMsgBySender, itob(senderID)}
}

// UserRange holds every message a user received.
func UserRange(userID int64) Range {
	return Range{bucketUserMessages, itob(userID)}
}

// FlagRange holds a user's messages in an indexed state.
func FlagRange(userID int64, ix FlagIndex) Range {
	return Range{bucketUserFlagIndex, flagIndexPrefix(userID, ix)}
}

// Scan walks a range from an anchor: ascending over IDs >= anchor, or
// descending over IDs <= anchor. fn returning false stops the walk.
func (tx *Tx) Scan(r Range, anchor int64, descending bool, fn func(id int64) bool) {
	c := tx.bucket(r.bucket).Cursor()
	start := append(bytes.Clone(r.prefix), itob(max(anchor, 0))...)
	k, _ := c.Seek(start)
	if descending {
		switch {
		case k == nil:
			k, _ = c.Last()
		case !bytes.Equal(k, start):
			k, _ = c.Prev()
		}
	}
	for ; k != nil && bytes.HasPrefix(k, r.prefix) && len(k) == len(r.prefix)+8; k = step(c, descending) {
		if !fn(btoi(k[len(r.prefix):])) {
			return
		}
	}
}

func step(c *bolt.Cursor, descending bool) []byte {
	if descending {
		k, _ := c.Prev()
		return k
	}
	k, _ := c.Next()
	return k
}

// AllMessagesRange holds every message.
func AllMessagesRange() Range {
	return Range{bucketMessages, nil}
}
