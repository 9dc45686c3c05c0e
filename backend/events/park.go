package events

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ErrParked: the read was parked (Parked); its Finish will end it.
var ErrParked = errors.New("events: read parked")

// Parked is a reader that waits for events without a goroutine of its
// own: a read under WithParking leaves it on the queue instead of
// blocking, and the push that brings events hands it to a worker, which
// takes them and calls Finish. Waking a goroutine per reader to write its
// own answer was about 2 µs of a delivery's CPU (docs/performance.md).
// An owner reuses one Parked for its reads, one at a time (Reset).
//
// Finish is called once per parked read: with its events, with none if
// the client hung up (HangUp), or with ErrNoQueue if the queue ended.
type Parked struct {
	Finish func(evs []Delivered, err error)

	mu     sync.Mutex // taken before the queue's
	q      *Queue     // where the read was parked
	acked  int64
	after  int64
	hungUp bool
	parked atomic.Bool
}

type parkingKey struct{}

// WithParking makes the reads under ctx park on p rather than block.
func WithParking(ctx context.Context, p *Parked) context.Context {
	return context.WithValue(ctx, parkingKey{}, p)
}

// Reset readies p for its owner's next read. A hang-up stays: the client
// is gone for every read after it.
func (p *Parked) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.q = nil
	p.parked.Store(false)
}

// IsParked: the current read parked, and Finish ends it (the layers the
// read passed through leave their tails to it).
func (p *Parked) IsParked() bool { return p.parked.Load() }

// read takes q's events, or parks p on q (ErrParked). A client that hung
// up gets no events rather than a wait.
func (p *Parked) read(q *Queue, acked, after int64, now time.Time) ([]Delivered, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.readLocked(q, acked, after, now)
}

// readLocked is read with p.mu held: until it is released, a push that
// took p off the queue waits here to resume it (see resume).
func (p *Parked) readLocked(q *Queue, acked, after int64, now time.Time) ([]Delivered, error) {
	evs, parked, ok := q.takeOrPark(acked, after, now, p)
	switch {
	case !ok:
		return nil, ErrNoQueue
	case parked:
		p.q, p.acked, p.after = q, acked, after
		p.parked.Store(true)
		return nil, ErrParked
	}
	return evs, nil
}

// HangUp ends the read: its client has gone. A parked read is finished
// with no events here, unless a push has already taken it to finish; a
// read not parked yet will not park.
func (p *Parked) HangUp() {
	p.mu.Lock()
	p.hungUp = true
	unparked := p.q != nil && p.q.unpark(p)
	p.mu.Unlock()
	if unparked {
		p.Finish([]Delivered{}, nil)
	}
}

// resume finishes a read a push (or the queue's end) took off its queue:
// it takes the events, or parks again if another read took them first.
func (r *Registry) resume(p *Parked) {
	p.mu.Lock()
	evs, err := p.readLocked(p.q, p.acked, p.after, r.now())
	p.mu.Unlock()
	if !errors.Is(err, ErrParked) {
		p.Finish(evs, err)
	}
}

// resumeAll finishes parked reads on one worker per core, so that the
// push that freed them goes on at once.
func (r *Registry) resumeAll(ps []*Parked) {
	workers := min(len(ps), runtime.GOMAXPROCS(0))
	for w := range workers {
		share := ps[w*len(ps)/workers : (w+1)*len(ps)/workers]
		go func() {
			for _, p := range share {
				r.resume(p)
			}
		}()
	}
}
