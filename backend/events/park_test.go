package events

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// finishes records a Parked's Finish calls.
type finishes struct {
	mu    sync.Mutex
	calls []finished
	done  chan struct{} // receives once per call
}

type finished struct {
	ids []int64
	err error
}

func newParked() (*Parked, *finishes) {
	f := &finishes{done: make(chan struct{}, 16)}
	p := &Parked{Finish: func(evs []Delivered, err error) {
		f.mu.Lock()
		f.calls = append(f.calls, finished{ids(evs), err})
		f.mu.Unlock()
		f.done <- struct{}{}
	}}
	return p, f
}

// wait returns the Finish calls after the first, and any that follow
// within a moment.
func (f *finishes) wait(t *testing.T) []finished {
	t.Helper()
	select {
	case <-f.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the parked read was never finished")
	}
	time.Sleep(10 * time.Millisecond)
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func parkedFetch(t *testing.T, r *Registry, q *Queue, p *Parked, last int64) {
	t.Helper()
	if evs, err := r.Fetch(WithParking(context.Background(), p), q, last, false); !errors.Is(err, ErrParked) || !p.IsParked() {
		t.Fatalf("fetch with nothing queued: %v, %v, parked %v", ids(evs), err, p.IsParked())
	}
}

// A read under WithParking parks instead of blocking, and the push that
// brings events finishes it once, with them; events already queued are
// read at once, and dont_block never parks.
func TestParkedReadIsFinishedByThePush(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Minute, MaxEvents: 100})
	q := r.Register(QueueOptions{UserID: 1})
	p, f := newParked()
	ctx := WithParking(context.Background(), p)
	if evs, err := r.Fetch(ctx, q, -1, true); err != nil || len(evs) != 0 || p.IsParked() {
		t.Fatalf("dont_block: %v, %v, parked %v", ids(evs), err, p.IsParked())
	}
	parkedFetch(t, r, q, p, -1)
	r.Publish(Event{"type": "a"}, []int64{1})
	r.Publish(Event{"type": "b"}, []int64{1})
	if got := f.wait(t); len(got) != 1 || got[0].err != nil || len(got[0].ids) == 0 || got[0].ids[0] != 0 {
		t.Fatalf("finished with %+v, want once with event 0 first", got)
	}
	p.Reset()
	if evs, err := r.Fetch(ctx, q, 0, false); err != nil || !slices.Equal(ids(evs), []int64{1}) {
		t.Errorf("a read with an event queued: %v, %v (want 1 at once)", ids(evs), err)
	}
}

// A parked read ends with its queue (ErrNoQueue), or with a heartbeat
// when it has waited the interval: it counts as a waiting reader.
func TestParkedReadEndsWithItsQueueOrAHeartbeat(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: 30 * time.Millisecond, MaxEvents: 100})
	q := r.Register(QueueOptions{UserID: 1})
	p, f := newParked()
	parkedFetch(t, r, q, p, -1)
	r.Delete(q)
	if got := f.wait(t); len(got) != 1 || !errors.Is(got[0].err, ErrNoQueue) {
		t.Fatalf("queue deleted: finished with %+v, want ErrNoQueue once", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	q = r.Register(QueueOptions{UserID: 1})
	p, f = newParked()
	parkedFetch(t, r, q, p, -1)
	got := f.wait(t)
	if len(got) != 1 || got[0].err != nil || len(got[0].ids) != 1 {
		t.Fatalf("waited the heartbeat interval: finished with %+v, want one event", got)
	}
}

// A hang-up finishes a parked read with no events, and stops a read that
// has not parked yet from parking. Raced against a push, the read is
// finished exactly once either way, and the queue counts no reader left
// waiting.
func TestParkedReadHangUp(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Minute, MaxEvents: 1000})
	q := r.Register(QueueOptions{UserID: 1})
	p, f := newParked()
	p.HangUp()
	if evs, err := r.Fetch(WithParking(context.Background(), p), q, -1, false); err != nil || evs == nil || len(evs) != 0 || p.IsParked() {
		t.Fatalf("read after the hang-up: %v, %v, parked %v; want no events at once", evs, err, p.IsParked())
	}

	p, f = newParked()
	parkedFetch(t, r, q, p, -1)
	p.HangUp()
	if got := f.wait(t); len(got) != 1 || got[0].err != nil || len(got[0].ids) != 0 {
		t.Fatalf("hung up while parked: finished with %+v, want once with no events", got)
	}

	last := int64(-1)
	for range 200 {
		p, f = newParked()
		parkedFetch(t, r, q, p, last)
		go p.HangUp()
		r.Publish(Event{"type": "a"}, []int64{1})
		got := f.wait(t)
		if len(got) != 1 || got[0].err != nil {
			t.Fatalf("hang-up against a push: finished with %+v, want once", got)
		}
		last = q.LastEventID()
	}
	if q.heartbeatDue(time.Now().Add(time.Hour), time.Minute) {
		t.Error("a finished read still counts as waiting")
	}
}
