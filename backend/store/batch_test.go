package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

var batchTestBucket = []byte("batch_test")

// putKey is a batch write of one key, recording the transaction it ran in.
func putKey(key string, txIDs *sync.Map) func(*Tx) error {
	return func(tx *Tx) error {
		txIDs.Store(key, tx.btx.ID())
		b, err := tx.btx.CreateBucketIfNotExists(batchTestBucket)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), []byte("v"))
	}
}

func storedKeys(t *testing.T, s *Store) []string {
	t.Helper()
	var keys []string
	s.db.View(func(btx *bolt.Tx) error {
		if b := btx.Bucket(batchTestBucket); b != nil {
			return b.ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil })
		}
		return nil
	})
	return keys
}

// waitPending waits until n calls are queued behind the running commit.
func waitPending(s *Store, n int) {
	for {
		s.batch.mu.Lock()
		got := len(s.batch.pending)
		s.batch.mu.Unlock()
		if got >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBatchGroupsWritesThatArriveDuringACommit: the first write commits
// alone and at once; the writes that arrive while it runs share the next
// commit.
func TestBatchGroupsWritesThatArriveDuringACommit(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	var txIDs sync.Map
	release := make(chan struct{})
	first := make(chan error)
	go func() {
		first <- s.Batch(func(tx *Tx) error {
			<-release // hold the commit open while the others arrive
			return putKey("first", &txIDs)(tx)
		})
	}()
	for !s.batchBusy() {
		time.Sleep(time.Millisecond)
	}
	const followers = 20
	var wg sync.WaitGroup
	errs := make(chan error, followers)
	for i := range followers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Batch(putKey(fmt.Sprint("k", i), &txIDs))
		}()
	}
	waitPending(s, followers)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := len(storedKeys(t, s)); got != followers+1 {
		t.Fatalf("%d keys stored, want %d", got, followers+1)
	}
	firstTx, _ := txIDs.Load("first")
	shared := map[any]bool{}
	txIDs.Range(func(k, v any) bool {
		if k != "first" {
			shared[v] = true
		}
		return true
	})
	if len(shared) != 1 || shared[firstTx] {
		t.Errorf("followers committed in transactions %v (first in %v): want one shared transaction after the first", shared, firstTx)
	}
}

func (s *Store) batchBusy() bool {
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	return s.batch.busy
}

// TestBatchIsolatesAFailingWrite: a write that fails or panics gets its
// own error; the writes batched with it still commit, and nothing hangs.
func TestBatchIsolatesAFailingWrite(t *testing.T) {
	refused := errors.New("refused")
	for _, tc := range []struct {
		name string
		bad  func(*Tx) error
		want string
	}{
		{"error", func(*Tx) error { return refused }, "refused"},
		{"panic", func(*Tx) error { panic("boom") }, "write panicked: boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openTemp(t)
			defer s.Close()
			var txIDs sync.Map
			const writers = 30
			var wg sync.WaitGroup
			errs := make([]error, writers)
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == writers/2 {
						errs[i] = s.Batch(tc.bad)
						return
					}
					errs[i] = s.Batch(putKey(fmt.Sprint("k", i), &txIDs))
				}()
			}
			wg.Wait()
			for i, err := range errs {
				switch {
				case i == writers/2 && (err == nil || !strings.Contains(err.Error(), tc.want)):
					t.Errorf("the bad write returned %v, want %q", err, tc.want)
				case i != writers/2 && err != nil:
					t.Errorf("write %d failed beside the bad one: %v", i, err)
				}
			}
			if got := len(storedKeys(t, s)); got != writers-1 {
				t.Errorf("%d keys stored, want %d", got, writers-1)
			}
		})
	}
}
