package bench

import (
	"fmt"
	"net/url"
	"time"
)

// Sends measures durable sends: workers senders post stream messages as fast
// as the server acknowledges them.
func Sends(srv *Server, workers int, d time.Duration) (Latencies, error) {
	emails := []string{"admin@example.com", "alice@example.com", "bob@example.com"}
	clients := make([]*Client, workers)
	for i := range clients {
		c, err := Login(srv.URL, emails[i%len(emails)])
		if err != nil {
			return Latencies{}, err
		}
		clients[i] = c
	}
	return Run(workers, d, func(w int) error {
		return clients[w].call("POST", "/api/v1/messages", url.Values{
			"type": {"stream"}, "to": {"general"}, "topic": {fmt.Sprintf("load %d", w%10)},
			"content": {"a benchmark message about kubernetes and coffee"},
		}, nil)
	})
}

// History measures GET /messages of 1000 messages before the newest in a
// narrow, from one client at a time (latency, not throughput, is the goal).
func History(srv *Server, narrow string, d time.Duration) (Latencies, error) {
	c, err := Login(srv.URL, "alice@example.com")
	if err != nil {
		return Latencies{}, err
	}
	form := url.Values{"anchor": {"newest"}, "num_before": {"1000"}, "num_after": {"0"}, "narrow": {narrow}}
	var check struct {
		Messages []struct{ ID int64 } `json:"messages"`
	}
	if err := c.call("GET", "/api/v1/messages", form, &check); err != nil {
		return Latencies{}, err
	}
	if len(check.Messages) != 1000 {
		return Latencies{}, fmt.Errorf("narrow %s returned %d messages, want 1000", narrow, len(check.Messages))
	}
	return Run(1, d, func(int) error { return c.call("GET", "/api/v1/messages", form, nil) })
}
