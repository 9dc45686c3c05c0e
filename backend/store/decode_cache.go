package store

import (
	"hash/maphash"
	"maps"
	"sync"
)

// decodeCache keeps records already decoded from JSON, with a fingerprint
// of the bytes they were decoded from. Users and streams are read several
// times by every request (a send reads its sender and stream in three
// transactions), and decoding them was a seventh of a send's CPU. A cached
// copy is used only when the record's bytes in the reading transaction have
// the cached fingerprint, so it is never stale, whatever the transaction's
// snapshot, and nothing has to be invalidated when a write commits or rolls
// back.
//
// The fingerprint is the length and two 64-bit hashes under seeds drawn at
// random for each process, instead of a copy of the bytes (which was half
// the cache's memory, and every live byte lets the collector's GOGC=400
// leave five more of garbage). A changed record of the same ID and length
// would be served stale only if both hashes of the new bytes matched the
// old ones: for a random seed that is a 2^-128 chance per read of a changed
// record. No one can aim for it: the seeds and hashes never leave the
// process, so a record's author, who chooses some of its bytes, learns
// nothing that makes one attempt likelier than another.
type decodeCache[T any] struct {
	decoded versionedCache[fingerprint, T]
	// own copies what a caller may change in place (slices, maps,
	// pointers), so callers own what they get.
	own func(T) T
}

// versionedCache keeps values by record ID, each with the version of the
// stored data it was read from (a record's fingerprint, a stream's
// membership stamp): a reader passes the version its transaction sees, and
// gets the kept value only if it is the same. A nil cache keeps nothing.
type versionedCache[V comparable, T any] struct {
	mu      sync.RWMutex
	entries map[int64]versioned[V, T]
}

type versioned[V comparable, T any] struct {
	version V
	value   T
}

// get returns the value kept for id if it was read at version.
func (c *versionedCache[V, T]) get(id int64, version V) (T, bool) {
	var e versioned[V, T]
	ok := false
	if c != nil {
		c.mu.RLock()
		e, ok = c.entries[id]
		c.mu.RUnlock()
	}
	return e.value, ok && e.version == version
}

// put keeps value for id, read at version.
func (c *versionedCache[V, T]) put(id int64, version V, value T) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[int64]versioned[V, T]{}
	}
	c.entries[id] = versioned[V, T]{version, value}
	c.mu.Unlock()
}

// fingerprint stands for a record's bytes.
type fingerprint struct {
	length int
	h1, h2 uint64
}

var fingerprintSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func fingerprintOf(data []byte) fingerprint {
	return fingerprint{len(data), maphash.Bytes(fingerprintSeeds[0], data), maphash.Bytes(fingerprintSeeds[1], data)}
}

// decode returns the record whose stored bytes are data.
func (c *decodeCache[T]) decode(id int64, data []byte) (T, error) {
	fp := fingerprintOf(data)
	if v, ok := c.decoded.get(id, fp); ok {
		return c.own(v), nil
	}
	var v T
	if err := decode(data, &v); err != nil {
		return v, err
	}
	c.decoded.put(id, fp, v)
	return c.own(v), nil
}

// getCached reads the JSON record with ID id of bucket through c.
func getCached[T any](tx *Tx, bucket []byte, id int64, c *decodeCache[T]) (T, error) {
	data := tx.bucket(bucket).Get(itob(id))
	if data == nil {
		var zero T
		return zero, ErrNotFound
	}
	return c.decode(id, data)
}

// ownUser copies a user's alert words, settings and status.
func ownUser(u User) User {
	if u.AlertWords != nil {
		u.AlertWords = append([]string(nil), u.AlertWords...)
	}
	u.Settings = maps.Clone(u.Settings) // values are JSON scalars
	if u.Status != nil {
		status := *u.Status
		u.Status = &status
	}
	return u
}

// ownStream is the identity: a stream holds no references.
func ownStream(s Stream) Stream { return s }
