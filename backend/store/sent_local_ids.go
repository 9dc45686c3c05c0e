package store

import "bytes"

// SentLocalID remembers which message a client's send with a local ID
// became, so that the same send repeated (its answer lost to a dropped
// connection or a server restart) is not stored twice.
type SentLocalID struct {
	MessageID int64 `json:"message_id"`
	SentAt    int64 `json:"sent_at"` // Unix seconds, to forget old ones
}

// sentLocalIDKey is the sender's ID, then the client's queue ID and local
// ID joined by a zero byte (neither is a number the server hands out).
func sentLocalIDKey(userID int64, queueID, localID string) []byte {
	k := append(itob(userID), queueID...)
	return append(append(k, 0), localID...)
}

// SentLocalID finds the message a send with this queue and local ID became.
func (tx *Tx) SentLocalID(userID int64, queueID, localID string) (SentLocalID, error) {
	var s SentLocalID
	err := tx.get(bucketSentLocalIDs, sentLocalIDKey(userID, queueID, localID), &s)
	return s, err
}

// PutSentLocalID records the message a send became and forgets the
// sender's records from before forgetBefore (Unix seconds).
func (tx *Tx) PutSentLocalID(userID int64, queueID, localID string, s SentLocalID, forgetBefore int64) error {
	b := tx.bucket(bucketSentLocalIDs)
	prefix := itob(userID)
	var old [][]byte
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var rec SentLocalID
		if decode(v, &rec) != nil || rec.SentAt < forgetBefore {
			old = append(old, bytes.Clone(k))
		}
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return tx.put(bucketSentLocalIDs, sentLocalIDKey(userID, queueID, localID), s)
}
