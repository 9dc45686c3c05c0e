package server

import (
	"math"
	"runtime/debug"
	"testing"
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
