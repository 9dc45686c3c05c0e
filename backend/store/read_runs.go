package store

import (
	"encoding/binary"
	"slices"
)

// Read state of the messages a user receives through a conversation (see
// spans.go) is kept as runs of message IDs: a run [a, b] says every message
// of that conversation with an ID from a to b is read. IDs of other
// conversations inside a run do not matter, so a reader who keeps up holds
// one run per conversation however many messages they read, and a new
// message costs its readers no write: it is unread until a run covers it.
//
// Runs are stored per block of readRunBlock IDs (key: user + recipient +
// block) so that a user whose runs stay fragmented (a sender who never
// reads) rewrites a bounded value per change.
const readRunBlockBits = 12

type readRunKey struct{ user, recipient, block int64 }

func readRunKeyOf(userID, recipientID, msgID int64) readRunKey {
	return readRunKey{userID, recipientID, msgID >> readRunBlockBits}
}

func (k readRunKey) bytes() []byte {
	b := make([]byte, 24)
	binary.BigEndian.PutUint64(b, uint64(k.user))
	binary.BigEndian.PutUint64(b[8:], uint64(k.recipient))
	binary.BigEndian.PutUint64(b[16:], uint64(k.block))
	return b
}

// readRuns is a sorted list of disjoint runs, as start, end pairs.
type readRuns []int64

func encodeReadRuns(rs readRuns) []byte {
	b := make([]byte, 0, 2*len(rs))
	prev := int64(0)
	for _, v := range rs {
		b = binary.AppendUvarint(b, uint64(v-prev))
		prev = v
	}
	return b
}

func decodeReadRuns(b []byte) readRuns {
	var rs readRuns
	prev := int64(0)
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			break // a damaged value reads as fewer runs: those messages show unread
		}
		prev += int64(d)
		rs = append(rs, prev)
		b = b[n:]
	}
	return rs[:len(rs)&^1]
}

// find returns the index of the run holding id, or -1.
func (rs readRuns) find(id int64) int {
	i, _ := slices.BinarySearch(rs, id)
	// i is the first position holding a value >= id.
	switch {
	case i < len(rs) && rs[i] == id:
		return i &^ 1
	case i%2 == 1:
		return i - 1 // id lies between a start and its end
	}
	return -1
}

// readRuns loads one block's runs, cached for the transaction.
func (tx *Tx) readRuns(k readRunKey) readRuns {
	if rs, ok := tx.runs[k]; ok {
		return rs
	}
	rs := decodeReadRuns(tx.bucket(bucketReadRuns).Get(k.bytes()))
	if tx.runs == nil {
		tx.runs = map[readRunKey]readRuns{}
	}
	tx.runs[k] = rs
	return rs
}

func (tx *Tx) putReadRuns(k readRunKey, rs readRuns) error {
	if tx.runs == nil {
		tx.runs = map[readRunKey]readRuns{}
	}
	tx.runs[k] = rs
	if len(rs) == 0 {
		return tx.bucket(bucketReadRuns).Delete(k.bytes())
	}
	return tx.bucket(bucketReadRuns).Put(k.bytes(), encodeReadRuns(rs))
}

// isRead tells whether a run covers the message.
func (tx *Tx) isRead(userID int64, h messageHead) bool {
	return tx.readRuns(readRunKeyOf(userID, h.RecipientID, h.ID)).find(h.ID) >= 0
}

// setRead adds the message to (or takes it from) the user's runs. An added
// ID joins a neighbouring run when no message of the conversation lies
// between them, so runs coalesce as a reader catches up.
func (tx *Tx) setRead(userID int64, h messageHead, read bool) error {
	k := readRunKeyOf(userID, h.RecipientID, h.ID)
	rs := tx.readRuns(k)
	i := rs.find(h.ID)
	if (i >= 0) == read {
		return nil
	}
	id := h.ID
	if !read {
		start, end := rs[i], rs[i+1]
		var middle readRuns
		if start < id {
			middle = append(middle, start, id-1)
		}
		if id < end {
			middle = append(middle, id+1, end)
		}
		return tx.putReadRuns(k, slices.Concat(rs[:i], middle, rs[i+2:]))
	}
	j, _ := slices.BinarySearch(rs, id) // even: the runs before id end at j
	start, end := id, id
	lo, hi := j, j
	if j > 0 && !tx.messageBetween(h.RecipientID, rs[j-1], id) {
		start, lo = rs[j-2], j-2
	}
	if j < len(rs) && !tx.messageBetween(h.RecipientID, id, rs[j]) {
		end, hi = rs[j+1], j+2
	}
	return tx.putReadRuns(k, slices.Concat(rs[:lo], readRuns{start, end}, rs[hi:]))
}

// messageBetween tells whether the conversation has a message with an ID
// strictly between a and b.
func (tx *Tx) messageBetween(recipientID, a, b int64) bool {
	if b-a <= 1 {
		return false
	}
	prefix := itob(recipientID)
	k, _ := tx.bucket(bucketMsgByRecipient).Cursor().Seek(append(prefix, itob(a+1)...))
	return k != nil && len(k) == 16 && btoi(k[:8]) == recipientID && btoi(k[8:]) < b
}

// with is rs with the run [a, b] added, merged with the runs it overlaps.
func (rs readRuns) with(a, b int64) readRuns {
	out := make(readRuns, 0, len(rs)+2)
	i := 0
	for ; i < len(rs) && rs[i+1] < a; i += 2 {
		out = append(out, rs[i], rs[i+1])
	}
	for ; i < len(rs) && rs[i] <= b; i += 2 {
		a, b = min(a, rs[i]), max(b, rs[i+1])
	}
	return append(append(out, a, b), rs[i:]...)
}

// ReadRunBlock is the block of read runs a message ID falls in.
func ReadRunBlock(msgID int64) int64 { return msgID >> readRunBlockBits }

// MarkAllRead marks read every message up to lastID that the user receives
// through a span: one run per block of each conversation, so it costs a
// write per block, not per message. blocks lists, per conversation, the
// blocks (ReadRunBlock) that hold its messages, ascending: the caller wrote
// them and knows, and reading the conversation's index to find them would
// cost more than the runs. Imports use it, whose history arrives read.
func (tx *Tx) MarkAllRead(userID, lastID int64, blocks func(recipientID int64) []int64) error {
	for rid, ss := range tx.userSpans(userID) {
		for _, s := range ss {
			from, to := s.From, min(s.end()-1, lastID)
			for _, block := range blocks(rid) {
				start, end := max(from, block<<readRunBlockBits), min(to, (block+1)<<readRunBlockBits-1)
				if start > end {
					continue
				}
				key := readRunKey{userID, rid, block}
				if err := tx.putReadRuns(key, tx.readRuns(key).with(start, end)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
