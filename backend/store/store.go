// Package store keeps Lanchat's records in one bbolt file: one bucket per kind
// of record, big-endian integer keys so cursors scan in ID order, and JSON
// values so a schema change is a migration over plain documents.
// It knows nothing of HTTP or of permissions; the domain layer decides what
// may be written and groups related writes into one transaction.
package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FileName is the database file inside a data directory.
const FileName = "lanchat.db"

// ErrNotFound is returned by lookups of records that do not exist.
var ErrNotFound = errors.New("not found")

// ErrStorageFull and ErrReadOnly mean a write could not reach the disk; the
// transaction was rolled back and reads keep working.
var (
	ErrStorageFull = errors.New("the disk holding the data directory is full")
	ErrReadOnly    = errors.New("the data directory is read-only")
)

// classify turns the operating system's write failures into the store's
// sentinels. bbolt reports some of them only as text (its file-resize error
// formats the cause with %s), hence the message check beside errors.Is.
func classify(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT),
		strings.Contains(text, syscall.ENOSPC.Error()), strings.Contains(text, syscall.EDQUOT.Error()):
		return fmt.Errorf("%w: %v", ErrStorageFull, err)
	case errors.Is(err, syscall.EROFS), strings.Contains(text, syscall.EROFS.Error()),
		errors.Is(err, berrors.ErrDatabaseReadOnly):
		return fmt.Errorf("%w: %v", ErrReadOnly, err)
	}
	return err
}

// Store is an open database.
type Store struct {
	db       *bolt.DB
	readOnly bool
	batch    batcher
	// accounts counts committed transactions that wrote an account.
	accounts atomic.Uint64
	users    decodeCache[User]
	streams  decodeCache[Stream]
	// subscribers keeps each stream's subscriber list under its
	// membership stamp (StreamSubscriberIDs).
	subscribers versionedCache[uint64, []int64]
}

// Open creates dataDir and the database inside it when absent, then runs any
// pending migrations before returning.
func Open(dataDir string) (opened *Store, err error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	path := filepath.Join(dataDir, FileName)
	var size int64
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	}
	// bbolt trusts the file's pages: a damaged file makes it panic, and
	// one cut short (a partial copy) makes it fault reading past the end.
	// Either is reported as damage, the file closed (which releases its
	// lock) and left as it was.
	var file *os.File
	openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if file != nil {
				file.Close()
			}
			opened, err = nil, fmt.Errorf("open %s: the database file is damaged (%v); restore it from a backup (lanchatd restore)", path, p)
		}
	}()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, OpenFile: openFile})
	readOnly := false
	if errors.Is(classify(err), ErrReadOnly) {
		// A read-only data directory still serves reads.
		readOnly = true
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true, OpenFile: openFile})
	}
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("open %s: the database is in use by another process", path)
		}
		// The operating system's errors name the file already.
		if pathErr := (*fs.PathError)(nil); errors.As(err, &pathErr) && pathErr.Path == path {
			err = pathErr.Err
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Committing grows the file to its pages before their meta names
	// them, so a shorter file lost pages: refused before anything writes
	// to it.
	if needed := highWaterMark(db); size > 0 && size < needed {
		db.Close()
		return nil, fmt.Errorf("open %s: the database file is cut short, %d bytes of the %d its pages take; restore it from a backup (lanchatd restore)", path, size, needed)
	}
	s := &Store{db: db, readOnly: readOnly,
		users: decodeCache[User]{own: ownUser}, streams: decodeCache[Stream]{own: ownStream}}
	if readOnly {
		err = s.checkVersion()
	} else {
		err = s.migrate()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// highWaterMark is the size of the pages db's current meta counts.
func highWaterMark(db *bolt.DB) int64 {
	var size int64
	db.View(func(tx *bolt.Tx) error {
		size = tx.Size()
		return nil
	})
	return size
}

// ReadOnly tells whether the store was opened without write access.
func (s *Store) ReadOnly() bool { return s.readOnly }

// AccountsVersion changes once a transaction that wrote an account has
// committed, before the write's caller goes on: accounts read at one
// version are current for as long as it holds.
func (s *Store) AccountsVersion() uint64 { return s.accounts.Load() }

// Close flushes and closes the database file.
func (s *Store) Close() error { return s.db.Close() }

// Reopen closes the database file and opens it again, for a bulk writer
// (an import) to call between transactions while nothing else uses the
// store: every page of the mapped file a process has read stays counted in
// its resident memory until the mapping goes, which for a store written
// from empty to gigabytes is most of it.
func (s *Store) Reopen() error {
	path := s.db.Path()
	if err := s.db.Close(); err != nil {
		return err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		return fmt.Errorf("reopen %s: %w", path, err)
	}
	s.db = db
	return nil
}

// Path is the database file's location.
func (s *Store) Path() string { return s.db.Path() }

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(*Tx) error) error {
	return s.db.View(func(btx *bolt.Tx) error { return fn(&Tx{btx: btx, s: s}) })
}

// Update runs fn in a read-write transaction that commits (and syncs) when fn
// returns nil.
func (s *Store) Update(fn func(*Tx) error) error {
	return classify(s.db.Update(func(btx *bolt.Tx) error { return fn(&Tx{btx: btx, s: s}) }))
}

// Check runs bbolt's consistency check and reports the first problem found.
func (s *Store) Check() error {
	return s.db.View(func(btx *bolt.Tx) error {
		var first error
		for err := range btx.Check() { // drain: the checker blocks until read
			if first == nil {
				first = err
			}
		}
		return first
	})
}

// Tx is one transaction; its methods read and write typed records.
type Tx struct {
	btx *bolt.Tx
	s   *Store
	// buckets caches bucket handles of read transactions: bbolt looks a
	// name up afresh on every call there, and history asks thousands of
	// times. A transaction uses a few buckets, so a short list beats a map
	// made for every one of them.
	buckets []namedBucket
	// Spans and read runs are read many times per request and per send;
	// writes go through these caches (each Tx of a batch has its own).
	spanCache map[spanKey][]span
	runs      map[readRunKey]readRuns
}

type namedBucket struct {
	name []byte
	b    *bolt.Bucket
}

// Snapshot gives fn the size of a consistent copy of the database and a
// function that writes that copy, both from one read transaction: writers
// keep going while it runs.
func (s *Store) Snapshot(fn func(size int64, write func(io.Writer) error) error) error {
	return s.db.View(func(btx *bolt.Tx) error {
		return fn(btx.Size(), func(w io.Writer) error {
			_, err := btx.WriteTo(w)
			return err
		})
	})
}
