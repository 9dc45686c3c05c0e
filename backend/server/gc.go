package server

import (
	"os"
	"runtime/debug"
)

// gcPercent is the heap growth the collector allows before running. A
// chat host's live heap is small (tens of MB), and at Go's default of 100
// collection cost a third of durable sends under load (docs/benchmarks.md);
// 400 trades a few tens of MB for that throughput.
const gcPercent = 400

// memoryLimit is a soft limit on the runtime's memory. Alone, GOGC=400 let
// the heap grow to five times what is live: 230 MB while delivering to a
// thousand sockets, kept for minutes after. Near the limit the collector
// runs sooner and freed pages go back to the system, so a small heap keeps
// GOGC=400's throughput and a busy one stays near the limit. It is soft: a
// live heap above it is collected more often, never refused.
const memoryLimit = 64 << 20

// tuneGC applies gcPercent and memoryLimit unless the operator set GOGC or
// GOMEMLIMIT, which win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
