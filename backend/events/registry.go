package events

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Settings bound the queues' life and size.
type Settings struct {
	// IdleTimeout drops a queue nobody has read for this long (Zulip: 10
	// minutes).
	IdleTimeout time.Duration
	// Heartbeat is how long a blocking read waits before answering with a
	// heartbeat event.
	Heartbeat time.Duration
	// MaxEvents drops a queue holding this many unread events, so a client
	// that never reads cannot grow memory forever.
	MaxEvents int
	// MaxQueuesPerUser bounds each user's queues (every queue costs each
	// message sent to its user a narrow check): registering one more drops
	// the user's least recently read queue. Zero means no bound.
	MaxQueuesPerUser int
}

// DefaultSettings follow Zulip. The heartbeat comes well before the 90 s
// after which Zulip's Python client gives up on a long-poll.
// Fifty queues a user is far more than their tabs, devices and bots use.
var DefaultSettings = Settings{IdleTimeout: 10 * time.Minute, Heartbeat: 50 * time.Second, MaxEvents: 10000, MaxQueuesPerUser: 50}

// ErrNoQueue means the queue does not exist (never did, expired or
// overflowed): the client must register again.
var ErrNoQueue = errors.New("bad event queue id")

// Registry holds every live queue, indexed by ID and by user.
type Registry struct {
	settings Settings
	now      func() time.Time

	mu     sync.RWMutex
	byID   map[string]*Queue
	byUser map[int64]map[*Queue]struct{}
	public map[*Queue]struct{} // all_public_streams queues
	// closed: the organization is going away (Close); a queue registered
	// after that is born ended, so no new wait can hold it up.
	closed bool
	// ended are the IDs of queues removed since the last TakeEnded, for
	// the domain to forget their records; a queue closed with the
	// organization is not among them, to be restored with it.
	ended []string

	// stopping: the server is stopping (Stop); no read waits.
	stopping bool

	// published is the message ID through which every message has been
	// delivered to every queue that takes it (the domain publishes
	// messages in ID order).
	published atomic.Int64
}

// NewRegistry returns an empty registry.
func NewRegistry(s Settings) *Registry {
	return &Registry{settings: s, now: time.Now, byID: map[string]*Queue{},
		byUser: map[int64]map[*Queue]struct{}{}, public: map[*Queue]struct{}{}}
}

// Settings returns the registry's bounds.
func (r *Registry) Settings() Settings { return r.settings }

// Register creates a queue.
func (r *Registry) Register(opts QueueOptions) *Queue {
	q := newQueue(newQueueID(), opts, max(opts.Through, r.published.Load()), r.now())
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(q)
	return q
}

// Restore brings back a queue of an earlier run under its ID, its events
// to come: the messages stored up to now that its client was not sent are
// replayed at its first read (Replay); other events of the earlier run are
// gone. It counts as used now, so its client has the usual idle time to
// come back.
func (r *Registry) Restore(id string, opts QueueOptions) *Queue {
	through := r.published.Load()
	q := newQueue(id, opts, through, r.now())
	q.count = 1 // the replayed message `through` takes eventID(through, 1)
	q.replayThrough.Store(through)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(q)
	return q
}

func (r *Registry) add(q *Queue) {
	opts := q.opts
	if r.closed {
		q.dead = true
		return
	}
	q.stopped = r.stopping
	if limit := r.settings.MaxQueuesPerUser; limit > 0 && len(r.byUser[opts.UserID]) >= limit {
		r.remove(leastRecentlyUsed(r.byUser[opts.UserID]))
	}
	r.byID[q.ID] = q
	if r.byUser[opts.UserID] == nil {
		r.byUser[opts.UserID] = map[*Queue]struct{}{}
	}
	r.byUser[opts.UserID][q] = struct{}{}
	if opts.AllPublicStreams {
		r.public[q] = struct{}{}
	}
}

func leastRecentlyUsed(qs map[*Queue]struct{}) *Queue {
	var oldest *Queue
	var at time.Time
	for q := range qs {
		q.mu.Lock()
		used := q.lastUsed
		q.mu.Unlock()
		if oldest == nil || used.Before(at) {
			oldest, at = q, used
		}
	}
	return oldest
}

// newQueueID is an opaque, unguessable ID: a queue's events are private.
func newQueueID() string { return rand.Text() }

// Get returns a live queue owned by userID.
func (r *Registry) Get(id string, userID int64) (*Queue, error) {
	r.mu.RLock()
	q, ok := r.byID[id]
	r.mu.RUnlock()
	if !ok || q.opts.UserID != userID {
		return nil, ErrNoQueue
	}
	return q, nil
}

// Delete removes a queue.
func (r *Registry) Delete(q *Queue) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.remove(q)
}

func (r *Registry) remove(q *Queue) {
	if _, live := r.byID[q.ID]; live && !r.closed {
		r.ended = append(r.ended, q.ID)
	}
	delete(r.byID, q.ID)
	delete(r.public, q)
	if qs := r.byUser[q.opts.UserID]; qs != nil {
		delete(qs, q)
		if len(qs) == 0 {
			delete(r.byUser, q.opts.UserID)
		}
	}
	q.mu.Lock()
	if !q.dead {
		q.dead = true
		close(q.wake)
	}
	q.mu.Unlock()
}

// Close removes every queue, ending their waits (ErrNoQueue), and takes
// no new ones: the organization they belong to is going away.
func (r *Registry) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, q := range r.byID {
		r.remove(q)
	}
}

// Stop ends every wait with the events there are (often none) and lets no
// read wait again, keeping the queues: the server is stopping, and their
// clients poll them again once it is back (Restore).
func (r *Registry) Stop() {
	r.mu.Lock()
	r.stopping = true
	qs := make([]*Queue, 0, len(r.byID))
	for _, q := range r.byID {
		qs = append(qs, q)
	}
	r.mu.Unlock()
	for _, q := range qs {
		q.stop()
	}
}

// TakeEnded returns the IDs of the queues removed (deleted, expired,
// overflowed, their user's ended) since the last call.
func (r *Registry) TakeEnded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ended := r.ended
	r.ended = nil
	return ended
}

// MessagesPublished records that every message through id has been
// delivered: at start-up, the newest message stored.
func (r *Registry) MessagesPublished(id int64) {
	for {
		old := r.published.Load()
		if id <= old || r.published.CompareAndSwap(old, id) {
			return
		}
	}
}

// Len is the number of live queues.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byID)
}

// Fetch waits for events after lastEventID, dropping those up to it: it
// returns at once when there are some (or when dontBlock), else when one
// arrives, or with a heartbeat after the heartbeat interval (while Run
// runs), or empty when ctx ends.
func (r *Registry) Fetch(ctx context.Context, q *Queue, lastEventID int64, dontBlock bool) ([]Delivered, error) {
	return r.fetch(ctx, q, lastEventID, lastEventID, dontBlock)
}

// Follow is Fetch for a reader that has already been sent events its
// client has not acknowledged yet: it drops events up to acked and waits
// for one after sent, so what awaits an acknowledgement costs nothing.
func (r *Registry) Follow(ctx context.Context, q *Queue, acked, sent int64) ([]Delivered, error) {
	return r.fetch(ctx, q, acked, max(acked, sent), false)
}

// fetch waits without a timer of its own: Run's sweep sends the heartbeat
// (a timer per wait was a quarter of a wake-up's cost at 10,000 waiting
// readers, in BenchmarkPublishToWaitingQueues).
func (r *Registry) fetch(ctx context.Context, q *Queue, acked, after int64, dontBlock bool) ([]Delivered, error) {
	for {
		evs, wake, ok := q.take(acked, after, r.now(), !dontBlock)
		if !ok {
			return nil, ErrNoQueue
		}
		if len(evs) > 0 || dontBlock || wake == nil {
			return evs, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			q.stopWaiting(wake)
			return []Delivered{}, nil
		}
	}
}

var heartbeat = encode(Event{"type": "heartbeat"})

// deliver pushes to one queue, dropping it when it overflows. message is
// the event's message ID (0 for other events).
func (r *Registry) deliver(q *Queue, e encoded, message int64) {
	if !q.push(e, max(message, r.published.Load()), r.settings.MaxEvents) {
		r.Delete(q)
	}
}

// Run collects idle queues and sends heartbeats until ctx ends. A
// heartbeat goes out between one and 1.1 heartbeat intervals into a wait.
func (r *Registry) Run(ctx context.Context) {
	collect := time.NewTicker(max(r.settings.IdleTimeout/10, 10*time.Millisecond))
	defer collect.Stop()
	beat := time.NewTicker(max(r.settings.Heartbeat/10, 5*time.Millisecond))
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-collect.C:
			r.collect()
		case <-beat.C:
			r.sendHeartbeats()
		}
	}
}

// sendHeartbeats wakes the readers that have waited a heartbeat interval
// with a heartbeat event.
func (r *Registry) sendHeartbeats() {
	now := r.now()
	var due []*Queue
	r.mu.RLock()
	for _, q := range r.byID {
		if q.heartbeatDue(now, r.settings.Heartbeat) {
			due = append(due, q)
		}
	}
	r.mu.RUnlock()
	for _, q := range due {
		r.deliver(q, heartbeat, 0)
	}
}

// collect drops queues idle for longer than the timeout.
func (r *Registry) collect() {
	cutoff := r.now().Add(-r.settings.IdleTimeout)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.byID {
		q.mu.Lock()
		idle := q.lastUsed.Before(cutoff)
		q.mu.Unlock()
		if idle {
			r.remove(q)
		}
	}
}

// DeletePublicQueues drops a user's all_public_streams queues: the user has
// become a guest, who may not hold one (the rest of their queues stay).
func (r *Registry) DeletePublicQueues(userID int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for q := range r.byUser[userID] {
		if q.opts.AllPublicStreams {
			r.remove(q)
		}
	}
}

// DeleteUser drops every queue of a user, ending their live connections
// (a deactivated account must stop receiving at once).
func (r *Registry) DeleteUser(userID int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for q := range r.byUser[userID] {
		r.remove(q)
	}
}
