package store

import (
	"bytes"
	"encoding/binary"
	"math"

	bolt "go.etcd.io/bbolt"
)

// Range is an ordered set of message IDs: the keys of an index bucket that
// start with prefix and end with a big-endian message ID, or, for a user's
// received or flagged messages, a set derived from their spans, read runs
// and rows.
type Range struct {
	bucket []byte
	prefix []byte
	// user and kind name a derived range (kind 0: a plain index).
	user int64
	kind rangeKind
	ix   FlagIndex
}

type rangeKind byte

const (
	plainRange    rangeKind = iota
	receivedRange           // every message the user holds
	flagRange               // the user's messages in a FlagIndex state
)

// RecipientRange holds a conversation's messages (a stream's, or a private
// conversation's).
func RecipientRange(recipientID int64) Range {
	return Range{bucket: bucketMsgByRecipient, prefix: itob(recipientID)}
}

// TopicRange holds a stream topic's messages.
func TopicRange(streamID int64, topic string) Range {
	return Range{bucket: bucketMsgByTopic, prefix: topicPrefix(streamID, topic)}
}

// SenderRange holds a user's sent messages.
func SenderRange(senderID int64) Range {
	return Range{bucket: bucketMsgBySender, prefix: itob(senderID)}
}

// AllMessagesRange holds every message.
func AllMessagesRange() Range {
	return Range{bucket: bucketMessages}
}

// UserRange holds every message a user received.
func UserRange(userID int64) Range {
	return Range{user: userID, kind: receivedRange}
}

// FlagRange holds a user's messages in an indexed state.
func FlagRange(userID int64, ix FlagIndex) Range {
	return Range{user: userID, kind: flagRange, ix: ix}
}

// Scan walks a range from an anchor: ascending over IDs >= anchor, or
// descending over IDs <= anchor. fn returning false stops the walk.
func (tx *Tx) Scan(r Range, anchor int64, descending bool, fn func(id int64) bool) {
	anchor = max(anchor, 0)
	var sources []*idCursor
	switch {
	case r.kind == plainRange:
		sources = []*idCursor{tx.indexCursor(r.bucket, r.prefix, 0, math.MaxInt64)}
	case r.kind == flagRange && r.ix != IndexUnread:
		ix := r.ix
		rows := tx.indexCursor(bucketUserMessages, itob(r.user), 0, math.MaxInt64)
		rows.keep = func(_ int64, v []byte) bool {
			f, ok := rowFlags(v)
			return ok && ix.holds(f)
		}
		sources = []*idCursor{rows}
	default:
		sources = tx.receivedCursors(r.user, r.kind == flagRange)
	}
	merge(sources, anchor, descending, fn)
}

// receivedCursors are the sources of a user's received messages: each span
// over its conversation, and the granted rows. For unread, spans skip the
// read runs and rows keep only unread grants.
func (tx *Tx) receivedCursors(userID int64, unread bool) []*idCursor {
	var out []*idCursor
	for rid, ss := range tx.userSpans(userID) {
		for _, s := range ss {
			c := tx.indexCursor(bucketMsgByRecipient, itob(rid), s.From, s.end()-1)
			if unread {
				c.skip = func(id int64) (int64, int64, bool) {
					rs := tx.readRuns(readRunKeyOf(userID, rid, id))
					if i := rs.find(id); i >= 0 {
						return rs[i], rs[i+1], true
					}
					return 0, 0, false
				}
			} else {
				c.keep = func(id int64, _ []byte) bool {
					f, ok := tx.row(userID, id)
					return !ok || f&rowRevoked == 0
				}
			}
			out = append(out, c)
		}
	}
	rows := tx.indexCursor(bucketUserMessages, itob(userID), 0, math.MaxInt64)
	rows.keep = func(_ int64, v []byte) bool {
		f := rawRow(v)
		return f&rowGranted != 0 && (!unread || f&FlagRead == 0)
	}
	return append(out, rows)
}

// rowFlags decodes a row's value: false for a revoked message.
func rowFlags(v []byte) (Flags, bool) {
	f := rawRow(v)
	return f &^ rowBits, len(v) == 4 && f&rowRevoked == 0
}

func rawRow(v []byte) Flags {
	if len(v) != 4 {
		return 0
	}
	return Flags(binary.BigEndian.Uint32(v))
}

// idCursor walks the IDs of one index prefix within [lo, hi], optionally
// jumping over runs (skip) or filtering by value (keep).
type idCursor struct {
	c      *bolt.Cursor
	prefix []byte
	lo, hi int64
	keep   func(id int64, v []byte) bool
	skip   func(id int64) (start, end int64, ok bool)
	desc   bool
	id     int64 // the current ID, valid while ok
	ok     bool
}

func (tx *Tx) indexCursor(bucket, prefix []byte, lo, hi int64) *idCursor {
	return &idCursor{c: tx.bucket(bucket).Cursor(), prefix: prefix, lo: lo, hi: hi}
}

// seek positions on the first ID >= from (ascending) or <= from
// (descending) that passes the filters.
func (c *idCursor) seek(from int64) {
	for {
		if c.desc {
			from = min(from, c.hi)
		} else {
			from = max(from, c.lo)
		}
		c.ok = false
		if from < c.lo || from > c.hi {
			return
		}
		start := append(bytes.Clone(c.prefix), itob(from)...)
		k, v := c.c.Seek(start)
		if c.desc {
			switch {
			case k == nil:
				k, v = c.c.Last()
			case !bytes.Equal(k, start):
				k, v = c.c.Prev()
			}
		}
		var again bool
		if from, again = c.settle(k, v); !again {
			return
		}
	}
}

// settle moves from key k on to the first acceptable ID, or returns where
// to seek next when k lies in a skipped run.
func (c *idCursor) settle(k, v []byte) (int64, bool) {
	for ; k != nil && bytes.HasPrefix(k, c.prefix) && len(k) == len(c.prefix)+8; k, v = c.step() {
		id := btoi(k[len(c.prefix):])
		if id < c.lo || id > c.hi {
			return 0, false
		}
		if c.skip != nil {
			if s, e, in := c.skip(id); in {
				if c.desc {
					return s - 1, true
				}
				return e + 1, true
			}
		}
		if c.keep == nil || c.keep(id, v) {
			c.id, c.ok = id, true
			return 0, false
		}
	}
	return 0, false
}

func (c *idCursor) step() ([]byte, []byte) {
	if c.desc {
		return c.c.Prev()
	}
	return c.c.Next()
}

func (c *idCursor) next() {
	c.ok = false
	if from, again := c.settle(c.step()); again {
		c.seek(from)
	}
}

// merge walks the union of the sources in order, each ID once.
func merge(sources []*idCursor, anchor int64, descending bool, fn func(id int64) bool) {
	for _, s := range sources {
		s.desc = descending
		s.seek(anchor)
	}
	last, any := int64(0), false
	for {
		var best *idCursor
		for _, s := range sources {
			if s.ok && (best == nil || (s.id < best.id) != descending && s.id != best.id) {
				best = s
			}
		}
		if best == nil {
			return
		}
		id := best.id
		best.next()
		if any && id == last {
			continue
		}
		last, any = id, true
		if !fn(id) {
			return
		}
	}
}
