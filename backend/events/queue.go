// Package events holds the live event queues: each registered client has a
// queue of events addressed to its user, read by long-polling (or a
// WebSocket) and acknowledged by event ID. Fan-out touches only the queues
// of the recipients, so its cost grows with recipients, not with clients.
package events

import (
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"lanchat/backend/store"
)

// Event is one event's payload as clients see it, without its id.
type Event map[string]any

// encoded is an event's JSON object without its id, shared by every queue
// it goes to: encoding happens once per publish, not once per reader.
type encoded []byte

func encode(e Event) encoded { return encoded(encodeValue(e)) }

func encodeValue(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic("events: unencodable event: " + err.Error()) // a programming error
	}
	return data
}

// Delivered is an event as a queue hands it out: its ID and its shared
// encoding, which AppendJSON splices the ID into. Nothing is copied until
// the answer is written.
type Delivered struct {
	ID      int64
	payload encoded
}

// AppendJSON appends the event's JSON object, id first.
func (d Delivered) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, d.ID, 10)
	if len(d.payload) > 2 {
		b = append(b, ',')
	}
	return append(b, d.payload[1:]...)
}

// MarshalJSON writes the event as it was encoded.
func (d Delivered) MarshalJSON() ([]byte, error) { return d.AppendJSON(nil), nil }

// AppendList appends evs as a JSON array. The events are already encoded:
// answering a long-poll copies bytes instead of encoding (and, through
// MarshalJSON, re-validating) every event for every reader.
func AppendList(dst []byte, evs []Delivered) []byte {
	dst = append(dst, '[')
	for i, e := range evs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = e.AppendJSON(dst)
	}
	return append(dst, ']')
}

// Filter decides which message events a queue wants (a narrow), given the
// queue's user's flags on the message.
type Filter interface {
	Match(c *Candidate, f store.Flags) bool
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
	// IncludeDeactivatedGroups: the client takes deactivated user groups
	// (level 294).
	IncludeDeactivatedGroups bool
	// Through is the newest message in the client's initial state: the
	// queue's message events start after it.
	Through int64
}

type queued struct {
	id      int64
	payload encoded
}

// Queue is one client's event queue.
type Queue struct {
	ID   string
	opts QueueOptions
	want map[string]bool
	// messages: the queue takes message events, which a fan-out asks of
	// every queue it reaches; kept beside the queue's own fields, the
	// answer costs no read of the map's memory, cold by then.
	messages bool

	mu     sync.Mutex
	events []queued
	// The newest event's ID is eventID(through, count):
	// through is the message ID up to which the queue has been given
	// every message event it takes, count the events since through last
	// grew.
	through, count int64
	// replayThrough, on a queue restored after a restart, is the newest
	// message stored then: the messages up to it that the client was not
	// sent yet are replayed from the store at its first read (Replay).
	// Zero once replayed, and on a queue registered in this run.
	replayThrough atomic.Int64
	replaying     sync.Mutex
	lastUsed      time.Time
	wake          chan struct{} // closed and replaced when events arrive
	dead          bool          // garbage-collected or overflowed
	// stopped: the server is stopping (Registry.Stop); reads return what
	// there is instead of waiting.
	stopped bool
	// waiting readers are blocked for events since waitingSince; the
	// registry's sweep sends them a heartbeat once they have waited the
	// heartbeat interval. A push wakes them all, and so clears both.
	waiting      int
	waitingSince time.Time
}

// messageShift splits an event ID into the message ID its queue had been
// given every message through, and a count of events since (eventID; the
// count from 1, so that a queue of an empty organization numbers its
// events from 0 after a last_event_id of -1, as Zulip's do).
// Clients send the ID back as last_event_id, so a queue restored after a
// crash learns from it which messages its client has seen, with nothing
// written per event. 21 bits of count and message IDs below 2³² keep
// every ID below 2⁵³, exact in JavaScript's numbers.
const messageShift = 21

// maxCount is how many events a queue may take between two messages.
const maxCount = 1<<messageShift - 1

func eventID(through, count int64) int64 { return through<<messageShift + count - 1 }

// MessagesThrough is the message ID through which a client that has seen
// events up to lastEventID was given every message event its queue took.
func MessagesThrough(lastEventID int64) int64 { return max(lastEventID+1, 0) >> messageShift }

// newQueue is a queue whose events follow the messages through through:
// those are in its client's initial state.
func newQueue(id string, opts QueueOptions, through int64, now time.Time) *Queue {
	q := &Queue{ID: id, opts: opts, through: through, lastUsed: now, wake: make(chan struct{})}
	if opts.EventTypes != nil {
		q.want = map[string]bool{}
		for _, t := range opts.EventTypes {
			q.want[t] = true
		}
	}
	q.messages = q.wants("message")
	return q
}

// Options returns the queue's register options.
func (q *Queue) Options() QueueOptions { return q.opts }

func (q *Queue) wants(eventType string) bool {
	return q.want == nil || q.want[eventType] || eventType == "heartbeat"
}

// push appends an event and wakes waiting readers. through is the message
// ID up to which the queue has now been given every message event it
// takes: the event's own message, or the registry's published watermark.
// It reports false when the queue has overflowed and must be dropped.
func (q *Queue) push(e encoded, through int64, limit int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead {
		return true
	}
	if through > q.through {
		q.through, q.count = through, 0
	}
	if len(q.events) >= limit || q.count == maxCount {
		q.dead = true
		close(q.wake)
		return false
	}
	q.count++
	q.events = append(q.events, queued{id: eventID(q.through, q.count), payload: e})
	close(q.wake)
	q.wake = make(chan struct{})
	q.waiting, q.waitingSince = 0, time.Time{}
	return true
}

// prepend puts events before every queued one: their IDs are lower.
func (q *Queue) prepend(evs []queued) {
	if len(evs) == 0 {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.events = append(evs, q.events...)
}

// LastEventID is the ID of the newest event queued so far; -1 for a queue
// that has taken none, as Zulip's new queues say (a restored queue replays
// from its options' Through, not from that -1).
func (q *Queue) LastEventID() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.count == 0 {
		return -1
	}
	return eventID(q.through, q.count)
}

// take drops events up to acked (acknowledged) and returns those after
// after (not yet sent to this reader), each with its id, and a channel that
// closes when more arrive (nil once the queue is stopped: do not wait). A long-poll passes the same ID twice; a socket
// has sent past what its client acknowledged. With nothing to return, a
// reader that will block on the channel counts as waiting (see
// stopWaiting).
func (q *Queue) take(acked, after int64, now time.Time, block bool) ([]Delivered, <-chan struct{}, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead {
		return nil, nil, false
	}
	out := q.takeLocked(acked, after, now)
	if q.stopped {
		return out, nil, true
	}
	if len(out) == 0 && block {
		q.countWaiting(now)
	}
	return out, q.wake, true
}

func (q *Queue) takeLocked(acked, after int64, now time.Time) []Delivered {
	q.lastUsed = now
	i := 0
	for i < len(q.events) && q.events[i].id <= acked {
		i++
	}
	if i > 0 {
		q.dropFront(i)
	}
	i = 0
	for i < len(q.events) && q.events[i].id <= after {
		i++
	}
	out := make([]Delivered, 0, len(q.events)-i)
	for _, e := range q.events[i:] {
		out = append(out, Delivered{ID: e.id, payload: e.payload})
	}
	return out
}

// stop wakes every reader waiting on the queue and lets none wait again.
func (q *Queue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
	if !q.dead {
		close(q.wake)
		q.wake = make(chan struct{})
	}
	q.waiting, q.waitingSince = 0, time.Time{}
}

// countWaiting counts a reader in that waits from now for events.
func (q *Queue) countWaiting(now time.Time) {
	if q.waiting == 0 {
		q.waitingSince = now
	}
	q.waiting++
}

// stopWaiting counts out a reader that stopped waiting on wake without
// being woken (its client went away); one woken by a push is counted out
// already.
func (q *Queue) stopWaiting(wake <-chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.wake == wake && q.waiting > 0 {
		q.waiting--
	}
}

// heartbeatDue: a reader has been waiting for at least every.
func (q *Queue) heartbeatDue(now time.Time, every time.Duration) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting > 0 && now.Sub(q.waitingSince) >= every
}

// dropFront drops the queue's first n events in place, so the next push
// appends into the same array: a fresh array per acknowledgement meant an
// allocation per queue for every event published. An array a burst grew
// is let go once it is mostly empty.
func (q *Queue) dropFront(n int) {
	rest := q.events[n:]
	if cap(q.events) > 64 && len(rest) < cap(q.events)/4 {
		q.events = append([]queued(nil), rest...)
		return
	}
	kept := copy(q.events, rest)
	clear(q.events[kept:]) // the dropped payloads are not kept alive
	q.events = q.events[:kept]
}
