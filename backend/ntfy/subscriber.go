package ntfy

import (
	"sync"
	"time"
)

// sink is how one subscription's events reach its client: lines on an
// HTTP stream, or WebSocket frames.
type sink interface {
	// write sends one event; a keepalive is the sink's own (a WebSocket
	// pings) and fails once the client is known gone.
	write(m message) error
	close()
}

// subscriber is one open subscription. Its events are written in order by
// at most one goroutine at a time, started when there is something to
// write, so an idle subscription holds no goroutine of its own.
type subscriber struct {
	hub        *Hub
	topic, web string // web: the web app's address, for click URLs
	sink       sink

	mu      sync.Mutex
	pending []message
	writing bool
	closed  bool
	ticker  *time.Timer
}

// start subscribes s and sends the open event, then what it asked to catch
// up on; keepalives follow every Keepalive.
func (h *Hub) start(s *subscriber, since sinceMarker) {
	missed := h.subscribe(s, since)
	s.send(control(eventOpen, s.topic, time.Now()))
	for _, c := range missed {
		s.send(c.wire(s.topic, s.web))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.ticker = time.AfterFunc(h.opts.Keepalive, s.keepalive)
	}
}

func (s *subscriber) keepalive() {
	s.send(control(eventKeepalive, s.topic, time.Now()))
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.ticker.Reset(s.hub.opts.Keepalive)
	}
}

// send queues m and starts a writer if none runs.
func (s *subscriber) send(m message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.pending = append(s.pending, m)
	if !s.writing {
		s.writing = true
		go s.drain()
	}
}

func (s *subscriber) drain() {
	for {
		s.mu.Lock()
		batch := s.pending
		s.pending = nil
		if len(batch) == 0 || s.closed {
			s.writing = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		for _, m := range batch {
			if err := s.sink.write(m); err != nil {
				s.close()
				break
			}
		}
	}
}

// close ends the subscription: the client is gone or the topic revoked.
func (s *subscriber) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	if s.ticker != nil {
		s.ticker.Stop()
	}
	s.mu.Unlock()
	s.sink.close()
	s.hub.unsubscribe(s)
}
