package api

import (
	"context"
	"testing"
	"time"
)

// TestSlotsBoundEachPersonAndEveryone: a person holds at most perPerson
// slots and everyone together at most total; a take may wait for a slot
// given back, up to its wait or its context.
func TestSlotsBoundEachPersonAndEveryone(t *testing.T) {
	s := newSlots(2, 3)
	ctx := context.Background()
	for _, step := range []struct {
		person int64
		want   bool
	}{{1, true}, {1, true}, {1, false}, {2, true}, {3, false}} {
		if got := s.take(ctx, step.person, 0); got != step.want {
			t.Fatalf("person %d took a slot: %v, want %v", step.person, got, step.want)
		}
	}
	if s.take(ctx, 3, 50*time.Millisecond) {
		t.Fatal("a take past the total got a slot without one given back")
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		s.give(1)
	}()
	if !s.take(ctx, 3, time.Minute) {
		t.Fatal("a waiting take missed the slot given back")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if s.take(cancelled, 3, time.Minute) {
		t.Fatal("a take whose request ended got a slot")
	}
	if unbounded := newSlots(0, 0); !unbounded.take(ctx, 1, 0) || !unbounded.take(ctx, 1, 0) {
		t.Error("slots without bounds refused")
	}
}

// TestPaceSpreadsAPersonsBytes: what one person sends is spread at the
// pace's rate, whatever else others send.
func TestPaceSpreadsAPersonsBytes(t *testing.T) {
	p := newPace(1 << 20)
	if wait := p.take(1, 1<<20); wait != 0 {
		t.Errorf("the first MiB waited %v", wait)
	}
	if wait := p.take(1, 1<<19); wait < 900*time.Millisecond || wait > time.Second {
		t.Errorf("the next half MiB waits %v, want about a second", wait)
	}
	if wait := p.take(2, 1<<20); wait != 0 {
		t.Errorf("another person waited %v", wait)
	}
}
