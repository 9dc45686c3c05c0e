package main

import (
	"fmt"
	"log"
	"path/filepath"

	"lanchat/backend/bench"
)

// restartQueues is how many event queues the restart figure's server holds
// when it restarts.
const restartQueues = 10_000

// restart times a server's restart with restartQueues recorded event
// queues, from the new process's start until it serves them.
func (r *run) restart() error {
	f, err := bench.Restart(r.binary, filepath.Join(r.workDir, "restart"), restartQueues, r.extra...)
	if err != nil {
		return err
	}
	restored := fmt.Sprintf("all %d queues answered a poll (`dont_block`) after it, and a message sent then reached a narrowed one", f.Queues)
	if f.Missing != nil {
		restored = fmt.Sprintf("only %d of the %d queues answered a poll after it (the first that did not: %v)", f.Restored, f.Queues, f.Missing)
	}
	r.report.Note("Restart with %d event queues (%d members, %d each, half of them narrowed to a topic), recorded in the store as registered: SIGTERM to exit %.0f ms; "+
		"the new process's start to `listening on` %.0f ms, to the answer of a poll on a restored queue %.0f ms (target: serving within 1 s; the process's CPU time by then %.0f ms); %s.",
		f.Queues, f.Members, f.Queues/f.Members, micros(f.Stop)/1000, micros(f.Listening)/1000, micros(f.Serving)/1000, micros(f.ServingCPU)/1000, restored)
	log.Printf("restart with %d queues: stop %v, listening %v, serving %v (CPU %v), %d restored", f.Queues, f.Stop, f.Listening, f.Serving, f.ServingCPU, f.Restored)
	return nil
}
