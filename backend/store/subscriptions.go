package store

import "bytes"

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
// so settings survive a later resubscribe), the subscriber index, and, when
// the user joins or leaves, their span of the stream's messages.
func (tx *Tx) PutSubscription(s Subscription) error {
	idx := tx.bucket(bucketSubscribers)
	key := pairKey(s.StreamID, s.UserID)
	if was := idx.Get(key) != nil; was != s.Active {
		rid, err := tx.RecipientID(s.StreamID, nil)
		if err != nil {
			return err
		}
		if s.Active {
			err = tx.openSpan(s.UserID, rid)
		} else {
			err = tx.closeSpan(s.UserID, rid)
		}
		if err != nil {
			return err
		}
	}
	var err error
	if s.Active {
		err = idx.Put(key, []byte{})
	} else {
		err = idx.Delete(key)
	}
	if err != nil {
		return err
	}
	return tx.put(bucketSubscriptions, pairKey(s.UserID, s.StreamID), s)
}

// UserSubscriptions lists every subscription row of a user, active or not,
// in stream ID order.
func (tx *Tx) UserSubscriptions(userID int64) ([]Subscription, error) {
	return scanPrefix[Subscription](tx, bucketSubscriptions, itob(userID))
}

// StreamSubscriberIDs lists the active subscribers of a stream in ID order.
func (tx *Tx) StreamSubscriberIDs(streamID int64) []int64 {
	var out []int64
	prefix := itob(streamID)
	c := tx.bucket(bucketSubscribers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, btoi(k[8:]))
	}
	return out
}
