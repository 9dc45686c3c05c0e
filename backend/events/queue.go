// Package events holds the live event queues: each registered client has a
// queue of events addressed to its user, read by long-polling (or a
// WebSocket) and acknowledged by event ID. Fan-out touches only the queues
// of the recipients, so its cost grows with recipients, not with clients.
package events

import (
	"sync"
	"time"

	"lanchat/backend/store"
)

// Event is one event's payload as clients see it, without its id.
type Event map[string]any

// Filter decides which message events a queue wants (a narrow).
type Filter interface {
	Match(m store.Message, f store.Flags) bool
}

// QueueOptions are the register parameters that shape a queue.
type QueueOptions struct {
	UserID           int64
	EventTypes       []string // nil: every type
	Narrow           Filter   // nil: every message
	AllPublicStreams bool
	ApplyMarkdown    bool
	// BulkMessageDeletion: the client takes one delete_message event for
	// several messages.
	BulkMessageDeletion bool
}

type queued struct {
	id    int64
	event Event
}

// Queue is one client's event queue.
type Queue struct {
	ID   string
	opts QueueOptions
	want map[string]bool

	mu       sync.Mutex
	events   []queued
	nextID   int64
	lastUsed time.Time
	wake     chan struct{} // closed and replaced when events arrive
	dead     bool          // garbage-collected or overflowed
}

func newQueue(id string, opts QueueOptions, now time.Time) *Queue {
	q := &Queue{ID: id, opts: opts, lastUsed: now, wake: make(chan struct{})}
	if opts.EventTypes != nil {
		q.want = map[string]bool{}
		for _, t := range opts.EventTypes {
			q.want[t] = true
		}
	}
	return q
}

// Options returns the queue's register options.
func (q *Queue) Options() QueueOptions { return q.opts }

func (q *Queue) wants(eventType string) bool {
	return q.want == nil || q.want[eventType] || eventType == "heartbeat"
}

// push appends an event and wakes waiting readers. It reports false when
// the queue has overflowed and must be dropped.
func (q *Queue) push(e Event, limit int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead {
		return true
	}
	if len(q.events) >= limit {
		q.dead = true
		close(q.wake)
		return false
	}
	q.events = append(q.events, queued{id: q.nextID, event: e})
	q.nextID++
	close(q.wake)
	q.wake = make(chan struct{})
	return true
}

// LastEventID is the ID of the newest event queued so far (-1 for none).
func (q *Queue) LastEventID() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.nextID - 1
}

// take drops events up to lastEventID (acknowledged) and returns the rest,
// each with its id, and a channel that closes when more arrive.
func (q *Queue) take(lastEventID int64, now time.Time) ([]Event, <-chan struct{}, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead {
		return nil, nil, false
	}
	q.lastUsed = now
	i := 0
	for i < len(q.events) && q.events[i].id <= lastEventID {
		i++
	}
	if i > 0 {
		q.events = append(q.events[:0:0], q.events[i:]...)
	}
	out := make([]Event, 0, len(q.events))
	for _, e := range q.events {
		ev := make(Event, len(e.event)+1)
		for k, v := range e.event {
			ev[k] = v
		}
		ev["id"] = e.id
		out = append(out, ev)
	}
	return out, q.wake, true
}
