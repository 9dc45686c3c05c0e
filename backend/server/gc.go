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

// tuneGC applies gcPercent unless the operator set GOGC, which wins.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
