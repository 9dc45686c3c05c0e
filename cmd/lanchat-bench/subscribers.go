package main

import (
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"time"

	"lanchat/backend/bench"
)

// subscriberHistory are the narrows read at 50 subscribers: the stream, the
// home view (every received message) and is:unread, the two that are
// derived from subscription spans and read runs.
var subscriberHistory = []string{fmt.Sprintf(`[["stream",%q]]`, bench.ScaleStream), `[]`, `[["is","unread"]]`}

// subscribers measures durable sends and their store cost at each stream size.
func (r *run) subscribers() error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Sends at a team's shape\n\n%d concurrent senders post to one stream whose subscribers all receive each message; the store is measured before and after (allocated pages and keys of every bucket, `bench.SubscriberScale`). Target at 50 subscribers: ≥ 6,000 sends/s and ≤ 1 KB of store per message beyond its record, both nearly flat from 5 to 500.\n\n", r.senders)
	b.WriteString("| subscribers | sends/s | p50 | p99 | server CPU per send | store bytes per message | of which the message record | beyond the record | keys per message |\n|---|---|---|---|---|---|---|---|---|\n")
	var history map[string]bench.Latencies
	for _, n := range r.streams {
		var narrows []string
		if n == 50 {
			narrows = subscriberHistory
		}
		f, err := bench.SubscriberScale(r.binary, filepath.Join(r.workDir, fmt.Sprintf("subscribers-%d", n)), n, r.senders, r.d, narrows, r.extra...)
		if err != nil {
			return fmt.Errorf("%d subscribers: %w", n, err)
		}
		if n == 50 {
			history = f.History
		}
		fmt.Fprintf(&b, "| %d | %.0f | %s | %s | %.0f µs | %.0f | %.0f | %.0f | %.1f |\n", n, f.Sends.PerSecond, msText(f.Sends.P50), msText(f.Sends.P99), micros(f.Sends.ServerCPU),
			f.BytesPerMessage, f.RecordBytes, f.BytesPerMessage-f.RecordBytes, f.KeysPerMessage)
		log.Printf("%d subscribers: %.0f sends/s, %.1f µs server CPU/send, %.0f B/message (%.0f beyond the record), %.1f keys/message", n, f.Sends.PerSecond, micros(f.Sends.ServerCPU), f.BytesPerMessage, f.BytesPerMessage-f.RecordBytes, f.KeysPerMessage)
	}
	if history == nil {
		r.report.Section(b.String()) // 50 was not among -subscribers
		return nil
	}
	b.WriteString("\nHistory at 50 subscribers, on the store the sends above left (newest 1000, one reader who has read nothing):\n\n| narrow | p50 | p99 |\n|---|---|---|\n")
	for _, narrow := range subscriberHistory {
		l := history[narrow]
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", narrow, msText(l.P50), msText(l.P99))
	}
	r.report.Section(b.String())
	return nil
}

func msText(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
}
