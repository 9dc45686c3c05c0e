package store

import "encoding/binary"

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

// Per-user state is implied wherever it can be (spans.go, read_runs.go):
// a user receives a conversation's messages while a span covers them,
// unread until a read run covers them. A row in user_messages (user +
// message → flags) is an exception: a message received outside any span
// (rowGranted: the sender's copy in a stream they left, a message moved to
// them), one taken away inside a span (rowRevoked), or flags beyond read
// (starred, mentioned, ...). Rows of messages a span covers repeat the read
// bit, so a read run alone says whether such a message is unread.
const (
	rowGranted Flags = 1 << 30
	rowRevoked Flags = 1 << 31
	rowBits          = rowGranted | rowRevoked
)

func (tx *Tx) row(userID, msgID int64) (Flags, bool) {
	v := tx.bucket(bucketUserMessages).Get(pairKey(userID, msgID))
	return rawRow(v), len(v) == 4
}

func (tx *Tx) putRow(userID, msgID int64, f Flags) error {
	return tx.bucket(bucketUserMessages).Put(pairKey(userID, msgID), binary.BigEndian.AppendUint32(nil, uint32(f)))
}

func (tx *Tx) deleteRow(userID, msgID int64) error {
	return tx.bucket(bucketUserMessages).Delete(pairKey(userID, msgID))
}

// head loads where a message went.
func (tx *Tx) head(msgID int64) (messageHead, bool) {
	data := tx.bucket(bucketMessages).Get(itob(msgID))
	if data == nil {
		return messageHead{}, false
	}
	h, err := decodeMessageHead(data)
	return h, err == nil
}

// Flags returns a user's flags on a message; ok is false when the user never
// received it.
func (tx *Tx) Flags(userID, msgID int64) (Flags, bool) {
	h, ok := tx.head(msgID)
	if !ok {
		return 0, false
	}
	return tx.flagsOn(userID, h)
}

// MessageFlags is Flags for a message already loaded.
func (tx *Tx) MessageFlags(userID int64, m Message) (Flags, bool) {
	return tx.flagsOn(userID, headOf(m))
}

func (tx *Tx) flagsOn(userID int64, h messageHead) (Flags, bool) {
	if f, ok := tx.row(userID, h.ID); ok {
		if f&rowRevoked != 0 {
			return 0, false
		}
		return f &^ rowBits, true
	}
	if !tx.implied(userID, h) {
		return 0, false
	}
	if tx.isRead(userID, h) {
		return FlagRead, true
	}
	return 0, true
}

// SetFlags records a user's flags on a message (giving it to them if they
// did not have it).
func (tx *Tx) SetFlags(userID, msgID int64, f Flags) error {
	h, ok := tx.head(msgID)
	if !ok {
		return ErrNotFound
	}
	return tx.setFlags(userID, h, f)
}

func (tx *Tx) setFlags(userID int64, h messageHead, f Flags) error {
	f &^= rowBits
	if !tx.implied(userID, h) {
		return tx.putRow(userID, h.ID, f|rowGranted)
	}
	if err := tx.setRead(userID, h, f&FlagRead != 0); err != nil {
		return err
	}
	if f&^FlagRead == 0 {
		return tx.deleteRow(userID, h.ID)
	}
	return tx.putRow(userID, h.ID, f)
}

// DeleteFlags takes a message away from a user.
func (tx *Tx) DeleteFlags(userID, msgID int64) error {
	h, ok := tx.head(msgID)
	if !ok {
		return tx.deleteRow(userID, msgID)
	}
	return tx.revoke(userID, h)
}

func (tx *Tx) revoke(userID int64, h messageHead) error {
	if !tx.implied(userID, h) {
		return tx.deleteRow(userID, h.ID)
	}
	// Counted as read, so unread walks pass over it without a lookup.
	if err := tx.setRead(userID, h, true); err != nil {
		return err
	}
	return tx.putRow(userID, h.ID, rowRevoked)
}

// MessageUserIDs lists who of userIDs holds a message. It looks at every
// user given: use it for rare operations (edits, deletion), not per
// request.
func (tx *Tx) MessageUserIDs(msgID int64, userIDs []int64) []int64 {
	h, ok := tx.head(msgID)
	if !ok {
		return nil
	}
	var out []int64
	for _, uid := range userIDs {
		if _, ok := tx.flagsOn(uid, h); ok {
			out = append(out, uid)
		}
	}
	return out
}

// moveHolders keeps every user's state on a message that moves to another
// conversation: holders keep their flags (as exceptions where the new
// conversation's spans do not cover them) and users the new spans cover
// who did not hold it are revoked.
func (tx *Tx) moveHolders(from, to messageHead) error {
	c := tx.bucket(bucketUsers).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		uid := btoi(k)
		f, held := tx.flagsOn(uid, from)
		var err error
		switch {
		case held:
			err = tx.setFlags(uid, to, f)
		case tx.implied(uid, to):
			err = tx.revoke(uid, to)
		default:
			err = tx.deleteRow(uid, to.ID)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// FlaggedIDs lists a user's message IDs in an indexed state, ascending.
func (tx *Tx) FlaggedIDs(userID int64, ix FlagIndex) []int64 {
	var out []int64
	tx.Scan(FlagRange(userID, ix), 0, false, func(id int64) bool { out = append(out, id); return true })
	return out
}
