// Command lanchat-bench measures a real lanchatd on loopback and writes
// docs/benchmarks.md: durable sends, history and search on a large store,
// cold start, each beside the machine's ceilings.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanchat/backend/bench"
)

func main() {
	binary := flag.String("lanchatd", "build/bin/lanchatd", "the server binary under test")
	messages := flag.Int("messages", 1_000_000, "messages in the history fixture")
	workDir := flag.String("work", "build/bench", "where fixtures and scratch stores live (fixtures are reused)")
	out := flag.String("out", "docs/benchmarks.md", "report file")
	duration := flag.Duration("duration", 5*time.Second, "how long each figure is measured")
	senders := flag.Int("senders", 50, "concurrent senders")
	flag.Parse()
	if err := run(*binary, *messages, *workDir, *out, *duration, *senders); err != nil {
		log.Fatal(err)
	}
}

func run(binary string, messages int, workDir, out string, d time.Duration, senders int) error {
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return err
	}
	r := &bench.Report{Command: "make bench (" + strings.Join(os.Args, " ") + ")"}

	fsyncs, err := bench.FsyncCeiling(workDir, 2*time.Second)
	if err != nil {
		return fmt.Errorf("fsync ceiling: %w", err)
	}
	noop, err := bench.NoopCeiling(senders, d)
	if err != nil {
		return fmt.Errorf("no-op ceiling: %w", err)
	}
	r.Add(fmt.Sprintf("ceiling: no-op handler, %d clients", senders), noop, "req/s", "", "1.00")
	r.Note("bbolt raw durable commits, one writer, same disk: %.0f commits/s (the fsync ceiling).", fsyncs)
	log.Printf("ceilings: no-op %.0f req/s, fsync %.0f commits/s", noop.PerSecond, fsyncs)

	scratch := filepath.Join(workDir, "sends")
	os.RemoveAll(scratch)
	srv, err := bench.StartServer(binary, scratch)
	if err != nil {
		return err
	}
	sends, err := bench.Sends(srv, senders, d)
	srv.Stop()
	if err != nil {
		return fmt.Errorf("sends: %w", err)
	}
	r.Add(fmt.Sprintf("durable sends, %d concurrent senders", senders), sends, "sends/s", "≥ 5,000 sends/s",
		fmt.Sprintf("%.2f of no-op; %.1f× the fsync ceiling (group commit)", sends.PerSecond/noop.PerSecond, sends.PerSecond/fsyncs))
	log.Printf("sends: %.0f/s p50 %v p99 %v", sends.PerSecond, sends.P50, sends.P99)

	for _, pollers := range []struct {
		n      int
		target string
	}{{1000, "p99 < 5 ms"}, {10000, "p99 < 20 ms"}} {
		dir := filepath.Join(workDir, fmt.Sprintf("delivery-%d", pollers.n))
		os.RemoveAll(dir)
		srv, err := bench.StartServer(binary, dir)
		if err != nil {
			return err
		}
		l, err := bench.Delivery(srv, pollers.n, 10)
		if err != nil {
			srv.Stop()
			return fmt.Errorf("delivery to %d pollers: %w", pollers.n, err)
		}
		sustained, err := bench.SustainedSends(srv, pollers.n, 10, d)
		srv.Stop()
		if err != nil {
			return fmt.Errorf("sends with %d pollers: %w", pollers.n, err)
		}
		r.Add(fmt.Sprintf("sustained sends, 10 senders, %d long-pollers receiving each", pollers.n), sustained, "sends/s", "",
			fmt.Sprintf("bound: every send is %d answers, so at most %.0f sends/s at the no-op rate", pollers.n, noop.PerSecond/float64(pollers.n)))
		log.Printf("sustained sends with %d pollers: %.0f/s", pollers.n, sustained.PerSecond)
		// Answering n polls takes at least n no-op requests' time on these cores.
		floor := time.Duration(float64(pollers.n) / noop.PerSecond * float64(time.Second))
		r.Add(fmt.Sprintf("send request → delivery, %d long-polling clients", pollers.n), l, "", pollers.target,
			fmt.Sprintf("floor for the last delivery: %d answers at the no-op rate = %.0f ms", pollers.n, float64(floor.Microseconds())/1000))
		log.Printf("delivery to %d pollers: p50 %v p99 %v", pollers.n, l.P50, l.P99)
	}
	dir := filepath.Join(workDir, "idle-queues")
	os.RemoveAll(dir)
	if srv, err = bench.StartServer(binary, dir); err != nil {
		return err
	}
	perQueue, err := bench.IdleQueueMemory(srv, 10000)
	srv.Stop()
	if err != nil {
		return fmt.Errorf("idle queue memory: %w", err)
	}
	r.Note("Server memory per idle event queue (RSS growth over 10,000 registered, unread queues, garbage included): %.1f KiB (target < 8 KiB).", perQueue/1024)
	log.Printf("idle queue: %.1f KiB", perQueue/1024)

	fixture := filepath.Join(workDir, fmt.Sprintf("fixture-%d", messages))
	t0 := time.Now()
	if err := bench.Fixture(fixture, messages); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	log.Printf("fixture of %d messages ready in %v", messages, time.Since(t0).Round(time.Second))
	srv, err = bench.StartServer(binary, fixture)
	if err != nil {
		return err
	}
	defer srv.Stop()
	r.Note("Cold start on the %d-message store (process start to `listening on`): %.0f ms (target < 300 ms).", messages, float64(srv.ColdStart.Microseconds())/1000)
	for _, h := range []struct{ name, narrow, target string }{
		{"GET /messages 1000 by stream", `[["stream","general"]]`, "< 10 ms p50"},
		{"GET /messages 1000 by topic", fmt.Sprintf(`[["stream","general"],["topic",%q]]`, bench.FixtureTopic), "< 10 ms p50"},
		{"GET /messages 1000 by search", fmt.Sprintf(`[["search",%q]]`, bench.SearchWord), "< 30 ms p50"},
	} {
		l, err := bench.History(srv, h.narrow, d)
		if err != nil {
			return fmt.Errorf("%s: %w", h.name, err)
		}
		r.Add(fmt.Sprintf("%s (%d-message store)", h.name, messages), l, "req/s", h.target, fmt.Sprintf("%.3f of no-op", l.PerSecond/noop.PerSecond))
		log.Printf("%s: p50 %v p99 %v", h.name, l.P50, l.P99)
	}
	return r.Write(out)
}
