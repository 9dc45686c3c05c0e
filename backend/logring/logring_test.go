package logring

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestRingKeepsTheLastSeriousRecordsNewestFirst(t *testing.T) {
	var out bytes.Buffer
	ring := New(3, slog.LevelWarn)
	log := slog.New(ring.Handler(slog.NewTextHandler(&out, nil)))
	log.Info("fine", "n", 0)
	for i := 1; i <= 5; i++ {
		log.Warn("refused", "n", i)
	}
	log.With("route", "POST /x").WithGroup("req").Error("failed", "msg", "two words", slog.Group("g", "k", "v"))

	var got []string
	for _, e := range ring.Entries() {
		got = append(got, e.Level+" "+e.Message+" "+e.Attrs)
	}
	want := []string{`ERROR failed route="POST /x" req.msg="two words" req.g.k=v`, "WARN refused n=5", "WARN refused n=4"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	// Every record still reaches the next handler, the info one too.
	if n := strings.Count(out.String(), "\n"); n != 7 || !strings.Contains(out.String(), "msg=fine") {
		t.Errorf("passed on %d lines:\n%s", n, out.String())
	}
}

func TestRingBeforeItFills(t *testing.T) {
	ring := New(4, slog.LevelWarn)
	if len(ring.Entries()) != 0 {
		t.Fatal("a new ring has entries")
	}
	log := slog.New(ring.Handler(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelError})))
	log.Warn("a")
	log.Warn("b")
	if e := ring.Entries(); len(e) != 2 || e[0].Message != "b" || e[1].Message != "a" {
		t.Errorf("entries %+v", e)
	}
}
