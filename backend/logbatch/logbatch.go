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
// destination (a full pipe) does not grow memory without bound. It holds
// the lines of a burst of 10,000 long-poll answers (about 2 MB), which
// the writer, yielding to the burst, takes in one go: a bound of 256 KiB
// held up callers in every such burst.
const maxPending = 4 << 20

// maxSpare bounds the batch buffer kept for the next batch: a burst's
// buffer is let go.
const maxSpare = 256 << 10

// Writer batches writes to an underlying writer. Each Write is kept whole
// and in order. Close writes what is left; writes after it go straight
// through.
type Writer struct {
	out io.Writer
	// mu guards the fields below; it is taken by lock, never by Lock.
	mu      sync.Mutex
	pending []byte
	spare   []byte        // the last batch's buffer, reused
	drained chan struct{} // closed when the writer takes the lines waiting
	waiting int           // callers held up by maxPending
	closed  bool
	ready   chan struct{} // the writer goroutine waits here for lines or Close
	done    chan struct{}
}

// New starts the writer goroutine over out.
func New(out io.Writer) *Writer {
	w := &Writer{out: out, drained: make(chan struct{}), ready: make(chan struct{}, 1), done: make(chan struct{})}
	go w.run()
	return w
}

// lock takes mu, yielding while another goroutine holds it. sync.Mutex's
// Lock, finding it held while goroutines wait to run (the burst of
// answers when ten thousand long-polls wake at once), parks the caller;
// once one has waited a millisecond it hands the lock to that parked
// caller, queued behind the whole burst, and every line after it queues
// too, each paying a park and a wake-up: a quarter of the log line's cost
// at 10,000 pollers. Only ever tried, the lock is held by running
// goroutines alone, for the few instructions of an append.
func (w *Writer) lock() {
	for !w.mu.TryLock() {
		runtime.Gosched()
	}
}

// Write queues p and returns at once, unless maxPending bytes are waiting.
func (w *Writer) Write(p []byte) (int, error) {
	w.lock()
	for len(w.pending) > 0 && len(w.pending)+len(p) > maxPending && !w.closed {
		drained := w.drained
		w.waiting++
		w.mu.Unlock()
		<-drained
		w.lock()
		w.waiting--
	}
	if w.closed {
		w.mu.Unlock()
		return w.out.Write(p)
	}
	first := len(w.pending) == 0
	w.pending = append(w.pending, p...)
	w.mu.Unlock()
	if first {
		w.wake()
	}
	return len(p), nil
}

// wake tells the writer goroutine there are lines (or Close); a wake-up
// already waiting covers them.
func (w *Writer) wake() {
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// Close writes what is waiting and stops the goroutine.
func (w *Writer) Close() error {
	w.lock()
	already := w.closed
	w.closed = true
	w.mu.Unlock()
	if !already {
		w.wake()
		<-w.done
	}
	return nil
}

func (w *Writer) run() {
	defer close(w.done)
	for range w.ready {
		// Woken by a batch's first line: the goroutines already runnable
		// (a burst of long-poll answers) log theirs before this one writes.
		runtime.Gosched()
		w.lock()
		batch, closed := w.pending, w.closed
		w.pending = w.spare[:0]
		close(w.drained)
		w.drained = make(chan struct{})
		w.mu.Unlock()
		// A failed write has nowhere to be reported: the log is where
		// failures go. The lines are dropped, as a direct write's would be.
		if len(batch) > 0 {
			w.out.Write(batch)
		}
		if closed {
			return
		}
		if cap(batch) <= maxSpare {
			w.spare = batch
		}
	}
}
