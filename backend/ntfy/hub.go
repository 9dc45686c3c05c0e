package ntfy

import (
	"net/http"
	"slices"
	"sync"
	"time"

	"lanchat/backend/domain"
)

// ntfy's defaults: a keepalive every 45 seconds (phones' read timeouts
// allow it and it spares their batteries) and messages kept 12 hours.
const (
	DefaultKeepalive = 45 * time.Second
	DefaultCacheFor  = 12 * time.Hour
	// cacheSize bounds what one topic keeps for catching up.
	cacheSize = 200
)

// Options configure a Hub.
type Options struct {
	// Keepalive is how often an idle subscription hears from the server;
	// CacheFor how long notifications are kept for since= (zero: ntfy's
	// defaults).
	Keepalive, CacheFor time.Duration
	// Allowed tells a topic a phone may subscribe to (an active person's).
	Allowed func(topic string) bool
	// WebURL is the web app's address as seen by the client of r, which
	// click URLs open.
	WebURL func(r *http.Request) string
}

// Hub holds the topics: their subscribers and their recent notifications.
type Hub struct {
	opts   Options
	mu     sync.Mutex
	topics map[string]*topic
}

type topic struct {
	subs  map[*subscriber]struct{}
	cache []cached // oldest first
}

// NewHub returns an empty hub.
func NewHub(opts Options) *Hub {
	if opts.Keepalive == 0 {
		opts.Keepalive = DefaultKeepalive
	}
	if opts.CacheFor == 0 {
		opts.CacheFor = DefaultCacheFor
	}
	return &Hub{opts: opts, topics: map[string]*topic{}}
}

func (h *Hub) topic(name string) *topic {
	t := h.topics[name]
	if t == nil {
		t = &topic{subs: map[*subscriber]struct{}{}}
		h.topics[name] = t
	}
	return t
}

// Notify keeps a notification for the topic and sends it to its
// subscribers (domain.PhoneNotifier).
func (h *Hub) Notify(name string, n domain.PhoneNotification) {
	now := time.Now()
	c := cached{id: newMessageID(), time: now.Unix(), expires: now.Add(h.opts.CacheFor).Unix(), n: n}
	h.mu.Lock()
	t := h.topic(name)
	t.cache = append(expired(t.cache, now.Unix()), c)
	if len(t.cache) > cacheSize {
		t.cache = slices.Delete(t.cache, 0, len(t.cache)-cacheSize)
	}
	subs := make([]*subscriber, 0, len(t.subs))
	for s := range t.subs {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.send(c.wire(name, s.web))
	}
}

// expired drops the notifications past their time.
func expired(cache []cached, now int64) []cached {
	return slices.DeleteFunc(cache, func(c cached) bool { return c.expires <= now })
}

// Revoke ends a topic: its subscribers are hung up on and what it kept is
// forgotten (domain.PhoneNotifier).
func (h *Hub) Revoke(name string) {
	h.mu.Lock()
	t := h.topics[name]
	delete(h.topics, name)
	h.mu.Unlock()
	if t != nil {
		for s := range t.subs {
			s.close()
		}
	}
}

// RevokeAll ends every topic: the organization was replaced.
func (h *Hub) RevokeAll() {
	h.mu.Lock()
	names := make([]string, 0, len(h.topics))
	for name := range h.topics {
		names = append(names, name)
	}
	h.mu.Unlock()
	for _, name := range names {
		h.Revoke(name)
	}
}

// subscribe adds s to its topic and returns what it asked to catch up on,
// in one step so that nothing falls between the two.
func (h *Hub) subscribe(s *subscriber, since sinceMarker) []cached {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.topic(s.topic)
	t.subs[s] = struct{}{}
	return since.of(t.cache, time.Now().Unix())
}

// unsubscribe forgets s; a topic with neither subscribers nor
// notifications goes.
func (h *Hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.topics[s.topic]; t != nil {
		delete(t.subs, s)
		if len(t.subs) == 0 && len(t.cache) == 0 {
			delete(h.topics, s.topic)
		}
	}
}

// kept is what a topic holds for a poll.
func (h *Hub) kept(name string, since sinceMarker) []cached {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.topics[name]; t != nil {
		return since.of(t.cache, time.Now().Unix())
	}
	return nil
}

// Subscribers counts the open subscriptions (benchmarks, tests).
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, t := range h.topics {
		n += len(t.subs)
	}
	return n
}
