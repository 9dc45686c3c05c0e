package bench

import (
	"testing"

	"lanchat/backend/apitest"
)

// TestSocketDelivery runs the WebSocket delivery figure against a real
// server in this process: every client must receive every message, each
// round's frame carrying it (decodePoll refuses a frame without one).
func TestSocketDelivery(t *testing.T) {
	srv := apitest.Start(t)
	const clients, sends = 12, 3
	delivery, send, err := SocketDelivery(&Server{URL: srv.URL}, clients, sends)
	if err != nil {
		t.Fatal(err)
	}
	if delivery.Count != clients*sends || send.Count != sends || delivery.P99 < delivery.P50 {
		t.Errorf("delivery %+v, send %+v: want %d and %d samples", delivery, send, clients*sends, sends)
	}
}
