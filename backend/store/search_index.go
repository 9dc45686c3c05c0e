package store

import (
	"encoding/binary"
	"slices"
)

// The full-text index holds posting lists: under a term and a block of 256
// message IDs, the low bytes of the block's messages that have the term
// (sorted, one byte each). A send does not touch it: messages after the
// index's watermark are pending, and searches read them directly, much as
// PostgreSQL's GIN index (Zulip's full-text search) keeps new entries in a
// pending list that searches scan until it is merged. Every
// searchMergeEvery messages, a send merges the pending ones, so a term that
// recurs among them is one write, not one per message.
var keySearchIndexedThrough = []byte("search_indexed_through")

// searchMergeEvery bounds the pending messages a search reads directly.
const searchMergeEvery = 256

const postingBlockBits = 8

// postingKey is a term's key for the block holding id.
func postingKey(term string, id int64) []byte {
	k := make([]byte, 0, len(term)+9)
	k = append(append(k, term...), 0)
	return binary.BigEndian.AppendUint64(k, uint64(id)>>postingBlockBits)
}

// postingIDs appends the IDs a posting holds under key.
func postingIDs(ids []int64, key, value []byte) []int64 {
	base := int64(binary.BigEndian.Uint64(key[len(key)-8:])) << postingBlockBits
	for _, low := range value {
		ids = append(ids, base|int64(low))
	}
	return ids
}

// searchIndexedThrough is the watermark: every message up to this ID has its
// terms in the postings; later ones are pending.
func (tx *Tx) searchIndexedThrough() int64 {
	if v := tx.bucket(bucketMeta).Get(keySearchIndexedThrough); len(v) == 8 {
		return btoi(v)
	}
	return 0
}

// indexNewMessageSearch leaves a new message pending, merging the pending
// messages into the postings once there are searchMergeEvery of them.
func (tx *Tx) indexNewMessageSearch(id int64) error {
	through := tx.searchIndexedThrough()
	if id-through < searchMergeEvery {
		return nil
	}
	terms := map[string][]int64{}
	c := tx.bucket(bucketMessages).Cursor()
	for k, v := c.Seek(itob(through + 1)); k != nil && btoi(k) <= id; k, v = c.Next() {
		m, err := decodeMessage(v)
		if err != nil {
			return err
		}
		for _, term := range MessageWords(m) {
			terms[term] = append(terms[term], m.ID)
		}
	}
	if err := tx.addPostings(terms); err != nil {
		return err
	}
	return tx.bucket(bucketMeta).Put(keySearchIndexedThrough, itob(id))
}

// reindexMessageSearch moves an indexed message's postings from its old
// words to its new ones; a pending message's are written at its merge.
func (tx *Tx) reindexMessageSearch(old, m Message) error {
	if old.ID > tx.searchIndexedThrough() || old.Content == m.Content && old.Topic == m.Topic {
		return nil
	}
	if err := tx.removePostings(old); err != nil {
		return err
	}
	terms := map[string][]int64{}
	for _, term := range MessageWords(m) {
		terms[term] = []int64{m.ID}
	}
	return tx.addPostings(terms)
}

// unindexMessageSearch drops a deleted message from the postings.
func (tx *Tx) unindexMessageSearch(m Message) error {
	if m.ID > tx.searchIndexedThrough() {
		return nil
	}
	return tx.removePostings(m)
}

// addPostings adds message IDs (ascending for each term) to their terms'
// postings: one read and one write per term and block.
func (tx *Tx) addPostings(terms map[string][]int64) error {
	b := tx.bucket(bucketSearchPostings)
	for term, ids := range terms {
		for len(ids) > 0 {
			block := ids[0] >> postingBlockBits
			key := postingKey(term, ids[0])
			value := slices.Clone(b.Get(key))
			for ; len(ids) > 0 && ids[0]>>postingBlockBits == block; ids = ids[1:] {
				if at, found := slices.BinarySearch(value, byte(ids[0])); !found {
					value = slices.Insert(value, at, byte(ids[0]))
				}
			}
			if err := b.Put(key, value); err != nil {
				return err
			}
		}
	}
	return nil
}

// removePostings takes a message's ID out of its words' postings.
func (tx *Tx) removePostings(m Message) error {
	b := tx.bucket(bucketSearchPostings)
	for _, term := range MessageWords(m) {
		key := postingKey(term, m.ID)
		value := b.Get(key)
		at, found := slices.BinarySearch(value, byte(m.ID))
		if !found {
			continue
		}
		var err error
		if len(value) == 1 {
			err = b.Delete(key)
		} else {
			err = b.Put(key, slices.Delete(slices.Clone(value), at, at+1))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
