package server

import (
	"os"
	"runtime"

	"lanchat/backend/api"
)

// tuneProcs gives the runtime the Ps api.Procs asks for, unless the
// operator set GOMAXPROCS, which wins.
func tuneProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(api.Procs())
	}
}
