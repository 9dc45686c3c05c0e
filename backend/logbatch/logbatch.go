// Package logbatch hands log lines to their destination (standard error)
// in batches: one request line per long-poll answer was one write(2) per
// delivery, as much as the answer's own. Callers append their line to a
// buffer and go on; one goroutine writes whatever has gathered, so lines
// that arrive during a write go out together in the next one. Nothing
// waits on a timer: a lone line is written as soon as the writer is
// scheduled, and what a crash can lose is what gathered during one write.
package logbatch

import (
	"io"
	"runtime"
	"sync"
)

// maxPending bounds the bytes waiting: beyond it a caller waits for the
// write under way, as it waited for its own write before, so a stalled
// destination (a full pipe) does not grow memory without bound.
const maxPending = 256 << 10

// Writer batches writes to an underlying writer. Each Write is kept whole
// and in order. Close writes what is left; writes after it go straight
// through.
type Writer struct {
	out     io.Writer
	mu      sync.Mutex
	ready   sync.Cond // the writer goroutine waits for lines or Close
	drained sync.Cond // callers over maxPending wait for a write to take the lines
	pending []byte
	spare   []byte // the last batch's buffer, reused
	waiting int    // callers held up by maxPending
	closed  bool
	done    chan struct{}
}

// New starts the writer goroutine over out.
func New(out io.Writer) *Writer {
	w := &Writer{out: out, done: make(chan struct{})}
	w.ready.L, w.drained.L = &w.mu, &w.mu
	go w.run()
	return w
}

// Write queues p and returns at once, unless maxPending bytes are waiting.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.out.Write(p)
	}
	for len(w.pending) > 0 && len(w.pending)+len(p) > maxPending && !w.closed {
		w.waiting++
		w.drained.Wait()
		w.waiting--
	}
	if w.closed {
		return w.out.Write(p)
	}
	if len(w.pending) == 0 {
		w.ready.Signal()
	}
	w.pending = append(w.pending, p...)
	return len(p), nil
}

// Close writes what is waiting and stops the goroutine.
func (w *Writer) Close() error {
	w.mu.Lock()
	w.closed = true
	w.ready.Signal()
	w.mu.Unlock()
	<-w.done
	return nil
}

func (w *Writer) run() {
	defer close(w.done)
	w.mu.Lock()
	for {
		for len(w.pending) == 0 && !w.closed {
			w.ready.Wait()
		}
		if len(w.pending) == 0 {
			w.drained.Broadcast()
			w.mu.Unlock()
			return
		}
		// Woken by a batch's first line: the goroutines already runnable
		// (a burst of long-poll answers) log theirs before this one writes.
		w.mu.Unlock()
		runtime.Gosched()
		w.mu.Lock()
		batch := w.pending
		w.pending = w.spare[:0]
		w.drained.Broadcast()
		w.mu.Unlock()
		// A failed write has nowhere to be reported: the log is where
		// failures go. The lines are dropped, as a direct write's would be.
		w.out.Write(batch)
		w.mu.Lock()
		if cap(batch) <= maxPending {
			w.spare = batch
		}
	}
}
