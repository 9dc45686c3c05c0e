package logbatch

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"lanchat/backend/apitest"
)

// gate is an underlying writer whose first write waits until it is opened,
// recording every write it is given.
type gate struct {
	entered chan struct{} // closed when the first write has begun
	open    chan struct{}
	mu      sync.Mutex
	writes  []string
}

func newGate() *gate { return &gate{entered: make(chan struct{}), open: make(chan struct{})} }

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	first := len(g.writes) == 0
	g.writes = append(g.writes, string(p))
	g.mu.Unlock()
	if first {
		close(g.entered)
		<-g.open
	}
	return len(p), nil
}

// TestLinesWrittenDuringAWriteGoOutTogether: while the underlying writer is
// busy, lines wait in memory without holding up their callers, and the next
// write carries all of them, whole and in order.
func TestLinesWrittenDuringAWriteGoOutTogether(t *testing.T) {
	g := newGate()
	w := New(g)
	w.Write([]byte("first\n"))
	<-g.entered
	var want strings.Builder
	for i := range 100 {
		line := fmt.Sprintf("line %d\n", i)
		if n, err := w.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		want.WriteString(line)
	}
	close(g.open)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(g.writes) != 2 || g.writes[0] != "first\n" || g.writes[1] != want.String() {
		t.Fatalf("underlying writes = %q, want the first line, then the other 100 in one write", g.writes)
	}
}

// TestConcurrentLinesArriveWhole: lines written from many goroutines all
// arrive once, none cut into another, by the time Close returns.
func TestConcurrentLinesArriveWhole(t *testing.T) {
	var out apitest.SyncBuffer
	w := New(&out)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				fmt.Fprintf(w, "goroutine %d line %d %s\n", g, i, strings.Repeat("x", i%40))
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if seen[line] {
			t.Fatalf("line %q twice", line)
		}
		seen[line] = true
	}
	for g := range 8 {
		for i := range 500 {
			if line := fmt.Sprintf("goroutine %d line %d %s\n", g, i, strings.Repeat("x", i%40)); !seen[line] {
				t.Fatalf("line %q missing or cut", line)
			}
		}
	}
}

// TestWriteAfterCloseGoesStraightThrough: what logs after Close (a last
// error on the way out) is not lost.
func TestWriteAfterCloseGoesStraightThrough(t *testing.T) {
	var out apitest.SyncBuffer
	w := New(&out)
	w.Write([]byte("before\n"))
	w.Close()
	w.Write([]byte("after\n"))
	if got := out.String(); got != "before\nafter\n" {
		t.Fatalf("got %q", got)
	}
}

// TestFullBufferWaitsForTheWriter: a writer that stalls (a full pipe) holds
// up callers once maxPending bytes wait, rather than growing without bound.
func TestFullBufferWaitsForTheWriter(t *testing.T) {
	g := newGate()
	w := New(g)
	w.Write([]byte("first\n"))
	<-g.entered
	line := []byte(strings.Repeat("y", 1023) + "\n")
	for range maxPending / len(line) {
		w.Write(line)
	}
	blocked := make(chan struct{})
	go func() {
		w.Write(line)
		close(blocked)
	}()
	// The write over the bound can only finish once the gate opens.
	w.lock()
	for w.waiting == 0 {
		w.mu.Unlock()
		runtime.Gosched()
		w.lock()
	}
	w.mu.Unlock()
	select {
	case <-blocked:
		t.Fatal("a write beyond maxPending returned while the writer was stalled")
	default:
	}
	close(g.open)
	<-blocked
	w.Close()
	total := 0
	for _, s := range g.writes {
		total += len(s)
	}
	if want := len("first\n") + (maxPending/len(line)+1)*len(line); total != want {
		t.Fatalf("%d bytes written, want %d", total, want)
	}
}

// TestBusyCallersDoNotQueueOnALock: callers logging at once, with more of
// them runnable than there are processors (a burst of long-poll answers),
// never wait on a lock for each other: a sync.Mutex around the batch
// parked each caller that found it held, and every later one behind it.
func TestBusyCallersDoNotQueueOnALock(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("callers only contend with two processors or more")
	}
	w := New(io.Discard)
	defer w.Close()
	line := []byte(strings.Repeat("z", 199) + "\n")
	sample := []metrics.Sample{{Name: "/sync/mutex/wait/total:seconds"}}
	metrics.Read(sample)
	before := sample[0].Value.Float64()
	const callers, each = 200, 500
	const lines = callers * each
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range each {
				w.Write(line)
			}
		})
	}
	wg.Wait()
	metrics.Read(sample)
	// Runtime locks (the scheduler's, a channel's) spin briefly and are
	// counted too: a few nanoseconds a line here, against 30 µs a line
	// when callers waited in the mutex's Lock.
	waited := time.Duration((sample[0].Value.Float64() - before) * 1e9)
	if waited > lines*time.Microsecond {
		t.Fatalf("callers waited %v on locks for %d lines", waited, lines)
	}
}
