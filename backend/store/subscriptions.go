package store

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
)

// Subscription is one user's membership of one stream, with their
// per-stream settings. Notification settings are nil when they inherit the
// user's defaults, as in Zulip.
type Subscription struct {
	UserID                 int64  `json:"user_id"`
	StreamID               int64  `json:"stream_id"`
	Active                 bool   `json:"active"`
	Color                  string `json:"color"`
	PinToTop               bool   `json:"pin_to_top"`
	IsMuted                bool   `json:"is_muted"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
}

// Subscription loads a user's subscription row for a stream, active or not.
func (tx *Tx) Subscription(userID, streamID int64) (Subscription, error) {
	var s Subscription
	err := tx.get(bucketSubscriptions, pairKey(userID, streamID), &s)
	return s, err
}

// IsSubscribed tells whether the user is an active subscriber of the stream.
func (tx *Tx) IsSubscribed(userID, streamID int64) bool {
	return tx.bucket(bucketSubscribers).Get(pairKey(streamID, userID)) != nil
}

// PutSubscription writes a subscription row (kept when a user unsubscribes,
// so settings survive a later resubscribe), and, when the user joins or
// leaves, the subscriber index, the stream's membership stamp and their span
// of the stream's messages.
func (tx *Tx) PutSubscription(s Subscription) error {
	idx := tx.bucket(bucketSubscribers)
	key := pairKey(s.StreamID, s.UserID)
	if was := idx.Get(key) != nil; was != s.Active {
		rid, err := tx.RecipientID(s.StreamID, nil)
		if err != nil {
			return err
		}
		if s.Active {
			if err = tx.openSpan(s.UserID, rid); err == nil {
				err = idx.Put(key, []byte{})
			}
		} else {
			if err = tx.closeSpan(s.UserID, rid); err == nil {
				err = idx.Delete(key)
			}
		}
		if err == nil {
			err = tx.stampSubscribers(s.StreamID)
		}
		if err != nil {
			return err
		}
	}
	return tx.put(bucketSubscriptions, pairKey(s.UserID, s.StreamID), s)
}

// UserSubscriptions lists every subscription row of a user, active or not,
// in stream ID order.
func (tx *Tx) UserSubscriptions(userID int64) ([]Subscription, error) {
	return scanPrefix[Subscription](tx, bucketSubscriptions, itob(userID))
}

// StreamSubscriberIDs lists the active subscribers of a stream in ID order.
// Callers own the list they get (typing's audience drops the typist in
// place).
//
// Every message to a stream reads it, and walking 500 index keys was 8%
// of a send's CPU: a list is kept, and used while the stream's
// membership stamp in the reading transaction is the one it was read
// under, so it is never stale whatever the transaction's snapshot, and
// nothing needs invalidating when a write commits or rolls back.
func (tx *Tx) StreamSubscriberIDs(streamID int64) []int64 {
	var kept *versionedCache[uint64, []int64] // none in a migration's transaction
	if tx.s != nil {
		kept = &tx.s.subscribers
	}
	stamp := tx.subscribersStamp(streamID)
	if ids, ok := kept.get(streamID, stamp); ok {
		return slices.Clone(ids)
	}
	var out []int64
	prefix := itob(streamID)
	c := tx.bucket(bucketSubscribers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, btoi(k[8:]))
	}
	kept.put(streamID, stamp, out)
	return slices.Clone(out)
}

// subscribersStampKey is where a stream's membership stamp is kept in the
// meta bucket.
func subscribersStampKey(streamID int64) []byte {
	return binary.BigEndian.AppendUint64([]byte("subscribers/"), uint64(streamID))
}

// stampSubscribers draws a new membership stamp for a stream whose
// subscribers changed. Drawn at random, a stamp is never drawn again,
// not even by a write that follows one rolled back.
func (tx *Tx) stampSubscribers(streamID int64) error {
	return tx.bucket(bucketMeta).Put(subscribersStampKey(streamID), binary.BigEndian.AppendUint64(nil, rand.Uint64()))
}

// subscribersStamp is a stream's membership stamp as the transaction sees
// it: 0 until its subscribers first change after this version of Lanchat
// (a process's cache starts empty, so that is a stamp like any other).
func (tx *Tx) subscribersStamp(streamID int64) uint64 {
	if v := tx.bucket(bucketMeta).Get(subscribersStampKey(streamID)); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}
