package server

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// gcPercent is the heap growth the collector allows before running. A
// chat host's live heap is small (tens of MB), and at Go's default of 100
// collection cost a third of durable sends under load (docs/benchmarks.md);
// 400 trades a few tens of MB for that throughput.
const gcPercent = 400

// memoryLimit is the least soft limit on the runtime's memory. Alone,
// GOGC=400 let the heap grow to five times what is live: 230 MB while
// delivering to a thousand sockets, kept for minutes after. Near the limit
// the collector runs sooner and freed pages go back to the system, so a
// small heap keeps GOGC=400's throughput and a busy one stays near the
// limit.
const memoryLimit = 64 << 20

// liveHeadroom keeps the limit at least this many times what a collection
// cannot free, the live heap and the goroutines' stacks: a limit near that
// would have the collector run all the time (ten thousand long-polls hold
// more than 64 MiB of each).
const liveHeadroom = 3

var adjusting sync.Once

// tuneGC applies gcPercent, and the soft limit with the release of idle
// memory, unless the operator set GOGC or GOMEMLIMIT, which win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		adjusting.Do(func() {
			afterEachGC(adjustMemoryLimit)
			go releaseWhenIdle(time.NewTicker(idleCheck).C)
		})
	}
}

// adjustMemoryLimit sets the soft limit from the live heap the last
// collection found and the stacks in use, which count against the limit
// too: with the heap alone, a host whose connections hold more in stacks
// than in the heap collected several times as often.
func adjustMemoryLimit() {
	debug.SetMemoryLimit(max(memoryLimit, liveHeadroom*int64(kept())))
}

// kept is what a collection cannot free: the live heap the last one found
// and the goroutines' stacks.
func kept() uint64 {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(live)
	return live[0].Value.Uint64() + live[1].Value.Uint64()
}

// gcSentinel is garbage whose finalizer marks the end of a collection; it
// is too big for the tiny allocator, whose objects may never be finalized.
type gcSentinel [16]byte

// afterEachGC runs f after every collection, on the finalizer goroutine.
func afterEachGC(f func()) {
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
		f()
		afterEachGC(f)
	})
}

// idleCheck is how often the host looks for a pause in allocation.
const idleCheck = 500 * time.Millisecond

// A check window that allocated less than idleAllocs is idle; a spell that
// allocated busyAllocs since the last release, and at least as much as a
// collection cannot free (kept), left garbage worth handing back. At most
// one forced collection per busyAllocs allocated, less often than GOGC=400
// collects a heap of 4 MB live or more.
//
// The forced collection marks all that is kept, and the pages it hands back
// are faulted in again by the next busy spell: with ten thousand long-polls
// (some 200 MB of connection buffers and stacks), releasing after every
// 16 MB meant a full collection every few messages, each of them seconds of
// CPU, which tripled a delivery's CPU (docs/performance.md, "the idle
// release at 10,000 pollers"). Waiting for garbage as large as what is kept
// makes a release cost at most about as much as the spell that earned it;
// a host that has gone quiet for quietRelease hands back any busy spell's
// garbage all the same, as an idle host should.
const (
	idleAllocs = 1 << 20
	busyAllocs = 16 << 20
)

// minReleaseGap spaces the releases. A host whose bursts come every second
// or so (each message a burst of answers to thousands of long-polls) needs
// the pages a release hands back again at the next burst: it paid a full
// collection and the page faults to map them again at every message, a
// tenth of a delivery's CPU at 10,000 pollers. A host whose activity has
// stopped still hands its garbage back within seconds.
const minReleaseGap = 5 * time.Second

// quietRelease is how long after its last busy window (or release) a host's
// garbage goes back however small it is beside what is kept.
const quietRelease = 20 * time.Second

// releaseWhenIdle collects and hands freed pages back to the system
// once allocation pauses after a busy spell, at a tick at least
// minReleaseGap after the last release. Between collections GOGC=400 and
// the soft limit keep up to five times the live heap mapped, and the
// scavenger returns only what exceeds the collector's goal, so a host idle
// after a burst (a thousand people signing in) kept the burst's garbage
// resident; under steady load nothing is idle and nothing changes.
func releaseWhenIdle(ticks <-chan time.Time) {
	r := newIdleRelease(debug.FreeOSMemory, kept)
	for at := range ticks {
		r.check(at)
	}
}

// idleRelease is releaseWhenIdle's state: the allocation counter at the
// last check and at the last release, when that was, and when the last
// window that allocated a busy spell's worth (or the last release) ended:
// a host's own periodic work, a megabyte here and there, does not count.
type idleRelease struct {
	release                func()
	kept                   func() uint64
	allocs                 []metrics.Sample
	checked, released      uint64
	releasedAt, quietSince time.Time
}

func newIdleRelease(release func(), kept func() uint64) *idleRelease {
	r := &idleRelease{release: release, kept: kept, allocs: []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}}
	r.checked = r.allocated()
	r.released = r.checked
	return r
}

func (r *idleRelease) allocated() uint64 {
	metrics.Read(r.allocs)
	return r.allocs[0].Value.Uint64()
}

// check looks at the window since the last check, at time at.
func (r *idleRelease) check(at time.Time) {
	now := r.allocated()
	window := now - r.checked
	if window >= busyAllocs || r.quietSince.IsZero() {
		r.quietSince = at // a busy spell: quiet from here
	}
	garbage := now - r.released
	if window < idleAllocs && at.Sub(r.releasedAt) >= minReleaseGap && garbage >= busyAllocs &&
		(at.Sub(r.quietSince) >= quietRelease || garbage >= r.kept()) {
		r.release()
		now = r.allocated()
		r.released, r.releasedAt, r.quietSince = now, at, at
	}
	r.checked = now
}
