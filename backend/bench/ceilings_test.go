package bench

import (
	"net"
	"net/http/httptest"
	"testing"

	"lanchat/backend/apitest"
)

// TestLongPollCeilings runs both long-poll ceilings with a few pollers: the
// bench's own client must get every answer of every round from the HTTP
// handler and from the raw server alike.
func TestLongPollCeilings(t *testing.T) {
	handler := httptest.NewServer(LongPollHandler())
	defer handler.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go ServeRawLongPoll(ln)
	for name, url := range map[string]string{"http": handler.URL, "raw": "http://" + ln.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			const pollers, rounds = 25, 3
			l, err := LongPollCeiling(&Server{URL: url}, pollers, rounds)
			if err != nil {
				t.Fatal(err)
			}
			if l.Count != pollers*rounds || l.P50 <= 0 || l.P99 < l.P50 {
				t.Errorf("latencies %+v, want %d positive samples", l, pollers*rounds)
			}
		})
	}
}

// TestDelivery runs the delivery figure against a real server in this
// process: every poller must receive every message.
func TestDelivery(t *testing.T) {
	srv := apitest.Start(t)
	const pollers, sends = 12, 3
	delivery, send, err := Delivery(&Server{URL: srv.URL}, pollers, sends)
	if err != nil {
		t.Fatal(err)
	}
	if delivery.Count != pollers*sends || send.Count != sends || delivery.P99 < delivery.P50 {
		t.Errorf("delivery %+v, send %+v: want %d and %d samples", delivery, send, pollers*sends, sends)
	}
}
