package main

import (
	"log"

	"lanchat/backend/bench"
)

// phoneSends and phoneSubscriptions size the ntfy figure.
const (
	phoneSends         = 300
	phoneSubscriptions = 1000
)

// ntfy measures phone notifications: from a direct message's send to the
// line on its recipient's subscribed JSON stream, and the server memory of
// idle subscriptions.
func (r *run) ntfy() error {
	srv, err := r.start("ntfy")
	if err != nil {
		return err
	}
	defer srv.Stop()
	latency, err := bench.PhoneLatency(srv, phoneSends)
	if err != nil {
		return err
	}
	r.report.Add("phone notification: direct message sent → line on the ntfy subscriber", latency, "notifications/s", "p99 ≤ 50 ms", "one sender, one after another")
	log.Printf("phone notification: p50 %v p99 %v", latency.P50, latency.P99)
	grown, err := bench.IdlePhoneMemory(srv, phoneSubscriptions)
	if err != nil {
		return err
	}
	r.report.Note("Server memory of %d idle phone subscriptions (ntfy JSON streams past their open event; anonymous RSS growth, each side measured once the host idled 7 s and handed its garbage back): %.1f MB (target ≤ 10 MB).",
		phoneSubscriptions, float64(grown)/1e6)
	log.Printf("idle phone subscriptions: %d: %.1f MB", phoneSubscriptions, float64(grown)/1e6)
	return nil
}
