package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkRequestLogLine is what each request's log line costs, through
// slog's text and JSON handlers (lanchatd's --log-format), written to a
// discarding writer (the write itself is the destination's cost).
func BenchmarkRequestLogLine(b *testing.B) {
	for name, h := range map[string]slog.Handler{
		"text": slog.NewTextHandler(io.Discard, nil),
		"json": slog.NewJSONHandler(io.Discard, nil),
	} {
		b.Run(name, func(b *testing.B) {
			a := &API{log: slog.New(h)}
			r := httptest.NewRequest("GET", "/api/v1/events", nil)
			r.Pattern = "/api/v1/events"
			l := &requestLog{status: http.StatusOK, caller: "alice@example.com"}
			start := time.Now()
			b.ReportAllocs()
			for b.Loop() {
				a.logRequest(l, r, start)
			}
		})
	}
}
