package server

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
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
// limit. 40 MiB, not 64: a thousand signed-in people leave about 8 MB live,
// which GOGC=400 would let grow to 40 MB of heap and, with the binary's and
// the store's mapped pages (16 MB), past the 60 MB the host should need.
const memoryLimit = 40 << 20

// liveHeadroom keeps the limit at least this many times the live heap: a
// limit below what is live would have the collector run all the time (ten
// thousand long-polls hold more than 64 MiB).
const liveHeadroom = 3

var adjusting sync.Once

// tuneGC applies gcPercent and the soft limit unless the operator set GOGC
// or GOMEMLIMIT, which win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
		adjusting.Do(func() { afterEachGC(adjustMemoryLimit) })
	}
}

// adjustMemoryLimit sets the soft limit from the live heap the last
// collection found.
func adjustMemoryLimit() {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	debug.SetMemoryLimit(max(memoryLimit, liveHeadroom*int64(live[0].Value.Uint64())))
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
