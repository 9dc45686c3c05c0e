package api

import "testing"

// TestProcsLeaveEveryCoreToSends: beside the Ps Go gave the process at
// start, Procs asks for one more for each heavy read that may run at once,
// so heavy reads running together still leave a P for every core.
func TestProcsLeaveEveryCoreToSends(t *testing.T) {
	if Procs()-heavyReadsAtOnce() < cores {
		t.Errorf("Procs() = %d: %d heavy reads at once would leave fewer than the %d cores' Ps", Procs(), heavyReadsAtOnce(), cores)
	}
}
