package server

import (
	"runtime"
	"testing"

	"lanchat/backend/api"
)

// TestProcsGiveHeavyReadsPsOfTheirOwn: the server runs with the Ps
// api.Procs asks for (a P for each core and one more for each heavy read),
// so heavy reads on their niced threads never hold a P sends need; an
// operator's GOMAXPROCS wins.
func TestProcsGiveHeavyReadsPsOfTheirOwn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		env         string
		start, want int // start: what the runtime began with
	}{{"", runtime.NumCPU(), api.Procs()}, {"1", 1, 1}} {
		t.Setenv("GOMAXPROCS", tc.env)
		runtime.GOMAXPROCS(tc.start)
		tuneProcs()
		if got := runtime.GOMAXPROCS(0); got != tc.want {
			t.Errorf("GOMAXPROCS=%q: %d Ps, want %d", tc.env, got, tc.want)
		}
	}
}
