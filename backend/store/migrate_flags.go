package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// impliedFlags (schema 2 → 3) replaces a row and flag-index entries per
// recipient with spans, read runs and exception rows (flags.go). Spans are
// rebuilt from what each user holds: every stretch of a conversation's
// messages (in its own order) that a user holds becomes a span, left open
// at the end for an active subscription or a private conversation's
// participant. So every message held before is received after, and no
// other; flags beyond read stay as rows, and read ones become runs.
func impliedFlags(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketUserSpans, bucketReadRuns} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	tx := &Tx{btx: btx}
	// Each conversation's message IDs, ascending, and each message's
	// conversation.
	conversations := map[int64][]int64{}
	recipientOf := map[int64]int64{}
	c := tx.bucket(bucketMsgByRecipient).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) != 16 {
			continue
		}
		rid, id := btoi(k[:8]), btoi(k[8:])
		conversations[rid] = append(conversations[rid], id)
		recipientOf[id] = rid
	}
	// Who receives a conversation's next message: active subscribers and
	// private participants.
	open := map[[2]int64]bool{}
	c = tx.bucket(bucketRecipients).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		rid := btoi(v)
		switch {
		case k[0] == 's' && len(k) == 9:
			for _, uid := range tx.StreamSubscriberIDs(btoi(k[1:])) {
				open[[2]int64{uid, rid}] = true
			}
		case k[0] == 'p':
			for p := k[1:]; len(p) >= 8; p = p[8:] {
				open[[2]int64{btoi(p[:8]), rid}] = true
			}
		}
	}
	// Subscribers of streams that never had a message have no recipient yet.
	c = tx.bucket(bucketSubscribers).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		rid, err := tx.RecipientID(btoi(k[:8]), nil)
		if err != nil {
			return err
		}
		open[[2]int64{btoi(k[8:]), rid}] = true
	}
	// Every row, by user and conversation.
	held := map[[2]int64]map[int64]Flags{}
	rows := tx.bucket(bucketUserMessages)
	c = rows.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 16 || len(v) != 4 {
			continue
		}
		uid, id := btoi(k[:8]), btoi(k[8:])
		rid, ok := recipientOf[id]
		if !ok {
			continue
		}
		key := [2]int64{uid, rid}
		if held[key] == nil {
			held[key] = map[int64]Flags{}
		}
		held[key][id] = Flags(binary.BigEndian.Uint32(v))
	}
	pairs := map[[2]int64]bool{}
	for k := range held {
		pairs[k] = true
	}
	for k := range open {
		pairs[k] = true
	}
	next := tx.nextMessageID()
	for key := range pairs {
		if err := migrateConversation(tx, key[0], key[1], conversations[key[1]], held[key], open[key], next); err != nil {
			return fmt.Errorf("user %d, conversation %d: %w", key[0], key[1], err)
		}
	}
	if err := btx.DeleteBucket([]byte("user_flag_index")); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return err
	}
	return nil
}

// migrateConversation writes one user's spans, runs and rows for one
// conversation whose message IDs are ids.
func migrateConversation(tx *Tx, uid, rid int64, ids []int64, held map[int64]Flags, open bool, next int64) error {
	var spans []span
	var runs readRuns // as one list; split into blocks below
	inSpan, inRun := false, false
	for i, id := range ids {
		f, ok := held[id]
		switch {
		case ok && !inSpan:
			spans, inSpan = append(spans, span{From: id}), true
		case !ok && inSpan:
			spans[len(spans)-1].To, inSpan = id, false
		}
		read := ok && f&FlagRead != 0
		switch {
		case read && !inRun:
			runs, inRun = append(runs, id, id), true
		case read:
			runs[len(runs)-1] = id
		default:
			inRun = false
		}
		if inSpan && i == len(ids)-1 && !open {
			spans[len(spans)-1].To = id + 1
		}
	}
	if open && !inSpan {
		spans = append(spans, span{From: next})
	}
	for _, s := range spans {
		if err := tx.putSpan(uid, rid, s); err != nil {
			return err
		}
	}
	for id, f := range held {
		var err error
		if f&^FlagRead == 0 {
			err = tx.deleteRow(uid, id)
		} else {
			err = tx.putRow(uid, id, f)
		}
		if err != nil {
			return err
		}
	}
	blocks := map[readRunKey]readRuns{}
	for i := 0; i < len(runs); i += 2 {
		for a := runs[i]; a <= runs[i+1]; {
			k := readRunKeyOf(uid, rid, a)
			b := min(runs[i+1], (k.block+1)<<readRunBlockBits-1)
			blocks[k] = append(blocks[k], a, b)
			a = b + 1
		}
	}
	keys := make([]readRunKey, 0, len(blocks))
	for k := range blocks {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b readRunKey) int { return bytes.Compare(a.bytes(), b.bytes()) })
	for _, k := range keys {
		if err := tx.putReadRuns(k, blocks[k]); err != nil {
			return err
		}
	}
	return nil
}
