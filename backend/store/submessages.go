package store

// keySubmessageSeq holds the last submessage ID handed out. Submessages live
// inside their message's record (Message.Submessages); only their IDs,
// unique across messages as Zulip's are, need a counter of their own.
var keySubmessageSeq = []byte("submessage_seq")

// NextSubmessageID hands out the next submessage ID: IDs strictly increase
// and are never reused.
func (tx *Tx) NextSubmessageID() (int64, error) {
	meta := tx.bucket(bucketMeta)
	var last int64
	if v := meta.Get(keySubmessageSeq); len(v) == 8 {
		last = btoi(v)
	}
	return last + 1, meta.Put(keySubmessageSeq, itob(last+1))
}
