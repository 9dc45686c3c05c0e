package logbuffer

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// writes records each Write the buffer makes.
type writes struct {
	mu    sync.Mutex
	calls []string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

func (w *writes) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.calls...)
}

// Lines written together go out together, in order, within the delay
// and with no Flush; a later line waits afresh.
func TestLinesGoOutTogetherWithinTheDelay(t *testing.T) {
	out := &writes{}
	w := New(out)
	var want strings.Builder
	for i := range 100 {
		fmt.Fprintf(w, "line %d\n", i)
		fmt.Fprintf(&want, "line %d\n", i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Join(out.all(), "") != want.String() && time.Now().Before(deadline) {
		time.Sleep(FlushDelay)
	}
	// Only a stall of the test itself past FlushDelay splits them.
	if got := out.all(); strings.Join(got, "") != want.String() || len(got) >= 10 {
		t.Fatalf("%d writes of %q, want the 100 lines in a few", len(got), strings.Join(got, ""))
	}
	before := len(out.all())
	fmt.Fprintln(w, "line 100")
	w.Flush()
	if got := out.all(); len(got) != before+1 || got[before] != "line 100\n" {
		t.Fatalf("writes %q after Flush", got)
	}
}

// Lines logged from many goroutines at once come out whole, every one.
func TestConcurrentLinesStayWhole(t *testing.T) {
	var out bytes.Buffer
	w := New(&out)
	log := slog.New(slog.NewTextHandler(w, nil))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				log.Info("request", "goroutine", g, "i", i, "padding", strings.Repeat("x", i%300))
			}
		})
	}
	wg.Wait()
	w.Flush()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8*2000 {
		t.Fatalf("%d lines, want %d", len(lines), 8*2000)
	}
	for _, l := range lines {
		if !strings.Contains(l, "msg=request goroutine=") || strings.Count(l, "level=") != 1 {
			t.Fatalf("broken line %q", l)
		}
	}
}

// BenchmarkLines is a request-like line logged by many goroutines at once
// into a pipe another goroutine drains (as lanchat-bench reads lanchatd's
// standard error), written directly or through the buffer; cpu-ns/op is
// the process's CPU time per line, the write(2)s included.
func BenchmarkLines(b *testing.B) {
	for _, name := range []string{"direct", "buffered"} {
		b.Run(name, func(b *testing.B) {
			pr, pw, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			drained := make(chan struct{})
			go func() { io.Copy(io.Discard, pr); close(drained) }()
			var out io.Writer = pw
			buffered := New(pw)
			if name == "buffered" {
				out = buffered
			}
			log := slog.New(slog.NewTextHandler(out, nil))
			b.SetParallelism(64)
			b.ReportAllocs()
			cpu := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					log.Info("request", "method", "GET", "route", "/api/v1/events", "status", 200, "duration_ms", 0.25, "client", "192.168.1.20", "user", "alice@example.com")
				}
			})
			buffered.Flush()
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			pw.Close()
			<-drained
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
