package store

import (
	"bytes"
	"encoding/binary"
	"math"
)

// A span says a user receives every message of a conversation with an ID
// in [From, To): for a stream, the time they were subscribed (kept when the
// subscription changes, so a user who was not subscribed when a message was
// sent never gains it); for a private conversation, always. A message's
// recipients are thus implied, and sending one writes nothing per reader.
// Key: user + recipient + From; value: To (0 while open).
type span struct{ From, To int64 }

func (s span) holds(id int64) bool { return s.From <= id && (s.To == 0 || id < s.To) }

// end is the span's last ID plus one.
func (s span) end() int64 {
	if s.To == 0 {
		return math.MaxInt64
	}
	return s.To
}

type spanKey struct{ user, recipient int64 }

func spanKeyBytes(userID, recipientID, from int64) []byte {
	return binary.BigEndian.AppendUint64(pairKey(userID, recipientID), uint64(from))
}

// spans lists a user's spans of one conversation, oldest first, cached for
// the transaction.
func (tx *Tx) spans(userID, recipientID int64) []span {
	k := spanKey{userID, recipientID}
	if ss, ok := tx.spanCache[k]; ok {
		return ss
	}
	var ss []span
	prefix := pairKey(userID, recipientID)
	c := tx.bucket(bucketUserSpans).Cursor()
	for key, v := c.Seek(prefix); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
		ss = append(ss, span{btoi(key[16:]), btoi(v)})
	}
	if tx.spanCache == nil {
		tx.spanCache = map[spanKey][]span{}
	}
	tx.spanCache[k] = ss
	return ss
}

func (tx *Tx) putSpan(userID, recipientID int64, s span) error {
	delete(tx.spanCache, spanKey{userID, recipientID})
	return tx.bucket(bucketUserSpans).Put(spanKeyBytes(userID, recipientID, s.From), itob(s.To))
}

// implied tells whether the user receives the message by a span.
func (tx *Tx) implied(userID int64, h messageHead) bool {
	for _, s := range tx.spans(userID, h.RecipientID) {
		if s.holds(h.ID) {
			return true
		}
	}
	return false
}

// userSpans lists every span of a user, by conversation.
func (tx *Tx) userSpans(userID int64) map[int64][]span {
	out := map[int64][]span{}
	prefix := itob(userID)
	c := tx.bucket(bucketUserSpans).Cursor()
	for key, v := c.Seek(prefix); key != nil && bytes.HasPrefix(key, prefix); key, v = c.Next() {
		rid := btoi(key[8:16])
		out[rid] = append(out[rid], span{btoi(key[16:]), btoi(v)})
	}
	return out
}

// nextMessageID is the ID the next message will get.
func (tx *Tx) nextMessageID() int64 {
	return int64(tx.bucket(bucketMessages).Sequence()) + 1
}

// openSpan starts receiving a conversation's messages from the next one.
// A span closed at that very point (unsubscribed and back with no message
// between) is reopened instead.
func (tx *Tx) openSpan(userID, recipientID int64) error {
	next := tx.nextMessageID()
	ss := tx.spans(userID, recipientID)
	if n := len(ss); n > 0 && (ss[n-1].To == 0 || ss[n-1].To == next) {
		return tx.putSpan(userID, recipientID, span{ss[n-1].From, 0})
	}
	return tx.putSpan(userID, recipientID, span{next, 0})
}

// closeSpan stops receiving a conversation's messages after the last one
// sent; a span that received nothing is dropped.
func (tx *Tx) closeSpan(userID, recipientID int64) error {
	next := tx.nextMessageID()
	ss := tx.spans(userID, recipientID)
	n := len(ss)
	if n == 0 || ss[n-1].To != 0 {
		return nil
	}
	if ss[n-1].From == next {
		delete(tx.spanCache, spanKey{userID, recipientID})
		return tx.bucket(bucketUserSpans).Delete(spanKeyBytes(userID, recipientID, next))
	}
	return tx.putSpan(userID, recipientID, span{ss[n-1].From, next})
}
