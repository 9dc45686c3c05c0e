package server

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// The host's collector settings apply unless the operator set their own.
func TestTuneGCLeavesTheOperatorsSettings(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, tc := range []struct {
		gogc, gomemlimit string
		percent          int
		limit            int64
	}{
		{"", "", gcPercent, memoryLimit},
		{"100", "", 100, memoryLimit},
		{"", "1GiB", gcPercent, math.MaxInt64},
	} {
		t.Setenv("GOGC", tc.gogc)
		t.Setenv("GOMEMLIMIT", tc.gomemlimit)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		tuneGC()
		if percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); percent != tc.percent || limit != tc.limit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d and limit %d, want %d and %d", tc.gogc, tc.gomemlimit, percent, limit, tc.percent, tc.limit)
		}
	}
}

// A live heap above the least limit raises it, so the collector does not
// run all the time; once the heap is small again, the limit comes back.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	live := make([]byte, memoryLimit) // more than a third of the limit
	for i := range live {
		live[i] = 1
	}
	raised := waitForLimit(func(l int64) bool { return l >= liveHeadroom*int64(len(live)) })
	runtime.KeepAlive(live)
	live = nil
	lowered := waitForLimit(func(l int64) bool { return l < 2*memoryLimit })
	if !raised || !lowered {
		t.Errorf("limit raised above %d live bytes: %v; back near %d after: %v (now %d)", memoryLimit, raised, memoryLimit, lowered, debug.SetMemoryLimit(-1))
	}
}

// Goroutines' stacks count against the limit as the heap does, so they
// raise it too: ten thousand waiting long-polls hold about as much in
// stacks as in the heap.
func TestMemoryLimitCountsStacks(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	const waiting, depth = 2000, 64 // frames of 256 bytes: 16 KiB or more of stack each
	release := make(chan struct{})
	var started sync.WaitGroup
	for range waiting {
		started.Add(1)
		go deepWait(depth, &started, release)
	}
	started.Wait()
	want := int64(liveHeadroom * waiting * 16 << 10) // above the least limit
	raised := waitForLimit(func(l int64) bool { return l >= want })
	close(release)
	if !raised {
		t.Errorf("limit %d with %d goroutines of 16 KiB of stack or more, want at least %d", debug.SetMemoryLimit(-1), waiting, want)
	}
}

// deepWait grows its goroutine's stack by depth frames, then waits.
func deepWait(depth int, started *sync.WaitGroup, release chan struct{}) byte {
	var frame [256]byte
	frame[depth%len(frame)] = byte(depth)
	if depth > 0 {
		return deepWait(depth-1, started, release) + frame[0]
	}
	started.Done()
	<-release
	return frame[0]
}

// waitForLimit collects until the soft limit satisfies ok (the adjustment
// runs on the finalizer goroutine after a collection), a bounded number of
// times.
func waitForLimit(ok func(int64) bool) bool {
	for range 50 {
		runtime.GC()
		runtime.Gosched()
		if ok(debug.SetMemoryLimit(-1)) {
			return true
		}
	}
	return false
}

// Once allocation pauses after a busy spell, the garbage it left is
// collected and its pages handed back at once, not kept at the collector's
// goal until the next busy spell.
func TestIdleHostReturnsFreedMemory(t *testing.T) {
	runtime.GC() // what is kept is this test's, not an earlier one's
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() { releaseWhenIdle(ticks); close(done) }()
	at := time.Now()
	tick := func() { at = at.Add(idleCheck); ticks <- at }
	tick()
	makeGarbage(64 << 20) // a busy spell's
	tick()                // busy
	tick()                // idle: release
	tick()                // the release has run
	close(ticks)
	<-done
	if held := heldHeap(); held > 32<<20 {
		t.Errorf("%d bytes of heap held after a busy spell went idle", held)
	}
}

// Busy spells that follow each other closely are released from at most
// once per minReleaseGap: the first pause after the gap releases.
func TestReleasesAreSpaced(t *testing.T) {
	released := false
	r := newIdleRelease(func() { released = true }, func() uint64 { return 0 })
	at := time.Now()
	// Each step is a check after a window that allocated busyAllocs of
	// garbage (a burst) or nothing (a pause).
	for i, s := range []struct {
		after       time.Duration
		burst, want bool
	}{
		{after: idleCheck, burst: true},        // busy
		{after: idleCheck, want: true},         // paused: released
		{after: time.Second, burst: true},      // the next burst, a second later
		{after: idleCheck},                     // paused, within the gap: kept
		{after: time.Second, burst: true},      // another burst
		{after: minReleaseGap - 3*time.Second}, // paused, 4.5 s after the release
		{after: time.Second, want: true},       // paused past the gap: released
		{after: idleCheck},                     // nothing allocated since
		{after: minReleaseGap, burst: true},    // a burst long after
		{after: idleCheck, want: true},         // released at its first pause
	} {
		if s.burst {
			garbage := make([]byte, busyAllocs+idleAllocs)
			for j := range garbage {
				garbage[j] = 1
			}
			runtime.KeepAlive(garbage)
		}
		at = at.Add(s.after)
		released = false
		r.check(at)
		if released != s.want {
			t.Errorf("step %d: released %v, want %v", i, released, s.want)
		}
	}
}

// A host that keeps much (ten thousand long-polls' buffers and stacks)
// releases only once its garbage is as large as what it keeps: the forced
// collection marks all of that, and what it hands back the next busy spell
// faults in again. Before, a release followed every 16 MB of garbage, a
// collection of seconds every few messages at 10,000 pollers.
func TestReleasesWaitForGarbageAsLargeAsWhatIsKept(t *testing.T) {
	held := make([]byte, 4*busyAllocs)
	for i := range held {
		held[i] = 1
	}
	runtime.GC() // kept is what the last collection found live
	released := false
	r := newIdleRelease(func() { released = true }, kept)
	at := time.Now()
	spell := func(garbage int, want bool, what string) {
		makeGarbage(garbage)
		at = at.Add(idleCheck)
		r.check(at) // busy
		at = at.Add(idleCheck)
		released = false
		r.check(at) // paused
		if released != want {
			t.Errorf("%s: released %v, want %v", what, released, want)
		}
	}
	spell(busyAllocs+idleAllocs, false, "garbage of a quarter of what is kept")
	at = at.Add(minReleaseGap)
	spell(len(held)+busyAllocs, true, "garbage past what is kept")
	// A small spell's garbage goes back once the host has been quiet for
	// quietRelease, not before.
	at = at.Add(minReleaseGap)
	spell(busyAllocs+idleAllocs, false, "a small spell, just paused")
	for quiet := time.Duration(0); quiet < quietRelease; quiet += idleCheck {
		at = at.Add(idleCheck)
		r.check(at)
	}
	if !released {
		t.Errorf("a small spell's garbage kept after %v of quiet", quietRelease)
	}
	runtime.KeepAlive(held)
}

// makeGarbage allocates n bytes that die at once, a megabyte at a time, as
// a busy spell's requests do: a collection meanwhile finds none of it live.
func makeGarbage(n int) {
	for range n >> 20 {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		runtime.KeepAlive(b)
	}
}

// heldHeap is the heap memory mapped and not handed back: objects, dead or
// alive, and free pages.
func heldHeap() uint64 {
	held := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(held)
	return held[0].Value.Uint64() + held[1].Value.Uint64() + held[2].Value.Uint64()
}
