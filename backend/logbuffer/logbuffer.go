// Package logbuffer is the log's writer to standard error: slog's handler
// writes each line whole, and the lines gather in a bufio.Writer that goes
// out FlushDelay after the first of them, rather than in one write(2)
// each. A burst of long-poll answers logs thousands of lines at once, and
// a write per line was about a third of a line's cost (BenchmarkLines).
// What a crash can lose is the lines of its last FlushDelay.
package logbuffer

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// FlushDelay is the longest a line waits for others to go out with.
const FlushDelay = 10 * time.Millisecond

// size is the buffer's; a full one writes itself out at once, so a
// stalled destination holds callers up rather than growing memory.
const size = 64 << 10

// Writer buffers whole lines for an underlying writer.
type Writer struct {
	mu        sync.Mutex
	buf       *bufio.Writer
	scheduled bool // a flush is due within FlushDelay
}

// New buffers lines for out.
func New(out io.Writer) *Writer {
	return &Writer{buf: bufio.NewWriterSize(out, size)}
}

// Write buffers p; it goes out within FlushDelay.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.scheduled {
		w.scheduled = true
		time.AfterFunc(FlushDelay, func() { w.Flush() })
	}
	return w.buf.Write(p)
}

// Flush writes out what waits, as a program does before it exits.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scheduled = false
	return w.buf.Flush()
}
