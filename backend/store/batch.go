package store

import (
	"errors"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// batcher is a group commit without a timer. A write that finds no commit
// under way commits at once; writes that arrive while one runs wait, and
// the first of them then commits all of them together. So a lone write
// waits for nothing but its own fsync, and under load each commit carries
// whatever arrived during the previous one. (bbolt's own Batch holds every
// write for MaxBatchDelay in case others come: a lone message paid that
// delay in full before anyone could see it.)
type batcher struct {
	mu      sync.Mutex
	pending []*batchCall
	busy    bool // a leader is committing; newcomers wait for it
}

type batchCall struct {
	fn   func(*bolt.Tx) error
	done chan error // one result, or errLead first when this call must commit
}

// errLead tells a waiting call that it commits the next batch.
var errLead = errors.New("lead the next batch")

// Batch is Update for writes that arrive concurrently: they share commits.
// fn may run more than once, so it must have no effects outside the
// transaction until Batch returns.
func (s *Store) Batch(fn func(*Tx) error) error {
	c := &batchCall{fn: func(btx *bolt.Tx) error { return fn(&Tx{btx: btx, s: s}) }, done: make(chan error, 1)}
	b := &s.batch
	b.mu.Lock()
	b.pending = append(b.pending, c)
	lead := !b.busy
	b.busy = true
	b.mu.Unlock()
	if !lead {
		if err := <-c.done; err != errLead {
			return err
		}
	}
	b.mu.Lock()
	calls := b.pending // c among them
	b.pending = nil
	b.mu.Unlock()
	s.commit(calls)
	b.mu.Lock()
	if len(b.pending) > 0 {
		b.pending[0].done <- errLead
	} else {
		b.busy = false
	}
	b.mu.Unlock()
	return <-c.done
}

// commit runs calls in one transaction and answers each. When one fails,
// the transaction is rolled back, that call runs alone (so only it sees
// its error) and the others are committed together again.
func (s *Store) commit(calls []*batchCall) {
	for len(calls) > 0 {
		failed := -1
		err := s.db.Update(func(btx *bolt.Tx) error {
			for i, c := range calls {
				if err := runGuarded(c.fn, btx); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			for _, c := range calls {
				c.done <- classify(err)
			}
			return
		}
		alone := calls[failed]
		alone.done <- classify(s.db.Update(func(btx *bolt.Tx) error { return runGuarded(alone.fn, btx) }))
		calls = append(calls[:failed:failed], calls[failed+1:]...)
	}
}

// runGuarded turns a panic in fn into its error: the goroutine committing
// a batch must answer everyone waiting on it.
func runGuarded(fn func(*bolt.Tx) error, btx *bolt.Tx) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("write panicked: %v", v)
		}
	}()
	return fn(btx)
}
