package events

import (
	"encoding/json"
	"iter"
	"slices"

	"lanchat/backend/store"
)

// queuesOf snapshots the queues of users (and, with public, of every
// all_public_streams queue) so delivery runs without the registry lock.
// users runs under that lock.
func (r *Registry) queuesOf(users iter.Seq[int64], public bool) Audience {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := Audience{}
	for uid := range users {
		for q := range r.byUser[uid] {
			out[q] = struct{}{}
		}
	}
	if public {
		for q := range r.public {
			out[q] = struct{}{}
		}
	}
	return out
}

// Publish sends an event to every queue of the users that wants its type.
func (r *Registry) Publish(e Event, userIDs []int64) {
	r.PublishWhere(e, userIDs, nil)
}

// PublishWhere is Publish to the queues whose options pass only (every
// queue when only is nil): an event a client capability shapes.
func (r *Registry) PublishWhere(e Event, userIDs []int64, only func(QueueOptions) bool) {
	t, _ := e["type"].(string)
	var payload encoded // encoded on first use: often nobody listens
	for q := range r.queuesOf(slices.Values(userIDs), false) {
		if q.wants(t) && (only == nil || only(q.opts)) {
			if payload == nil {
				payload = encode(e)
			}
			r.deliver(q, payload, 0)
		}
	}
}

// MessageEvent is a new message for its recipients' queues.
type MessageEvent struct {
	Message store.Message
	// Rendered and Raw are the message as shown with and without markdown
	// applied; each queue gets the form it registered for.
	Rendered, Raw any
	// Recipients are who hold the message, with their flags.
	Recipients store.Recipients
	// Public stream messages also reach all_public_streams queues.
	Public bool
	// SenderQueueID and LocalID echo the sender's local_id to the queue it
	// named, so that client can match its optimistic copy.
	SenderQueueID, LocalID string
}

// Audience is the queues an event goes to, fixed when its change commits.
// The domain takes it under its publish lock, so a queue registered
// concurrently is either in it or has the change in its initial state;
// building the event, matching narrows and pushing then run without that
// lock.
type Audience map[*Queue]struct{}

// MessageAudience is the queues of a message's recipients and, for a
// public stream's message, every all_public_streams queue. It walks
// whichever is fewer, the recipients or the people with a queue.
func (r *Registry) MessageAudience(me MessageEvent) Audience {
	return r.queuesOf(func(yield func(int64) bool) {
		if len(r.byUser) >= me.Recipients.Len() {
			me.Recipients.Holders()(yield)
			return
		}
		for uid := range r.byUser {
			if _, ok := me.Recipients.Flags(uid); ok && !yield(uid) {
				return
			}
		}
	}, me.Public)
}

// Candidate is a message being matched against narrows. What matching
// derives from it is worked out once, on first need, however many queues
// and terms ask.
type Candidate struct {
	Message store.Message
	// Public tells whether the message is in a public stream.
	Public bool
	words  []string // nil: not split yet
}

// Words are the message's words for search narrows (store.MessageWords).
func (c *Candidate) Words() []string {
	if c.words == nil {
		c.words = store.MessageWords(c.Message)
	}
	return c.words
}

// PublishMessage delivers a message event to each queue of to that wants
// it, filtered by the queue's narrow with its user's flags. Messages must
// be published in ID order (event IDs tell a restored queue which it has
// delivered).
func (r *Registry) PublishMessage(to Audience, me MessageEvent) {
	enc := newMessageEncoder(me)
	for q := range to {
		if e, ok := enc.eventFor(q); ok {
			r.deliver(q, e, me.Message.ID)
		}
	}
	r.MessagesPublished(me.Message.ID)
}

// Replay gives a queue restored after a restart (Restore) the message
// events its client missed, at its first read: the client has seen events
// up to acked, and missed returns the messages after the given ID, up to
// the newest stored at the restart, that the queue's user holds or may
// see (in ID order). Later reads, and queues registered in this run, pass
// at once.
func (r *Registry) Replay(q *Queue, acked int64, missed func(after, through int64) []MessageEvent) {
	if q.replayThrough.Load() == 0 {
		return
	}
	q.replaying.Lock()
	defer q.replaying.Unlock()
	through := q.replayThrough.Load()
	if through == 0 {
		return
	}
	// Never before the queue's start, whatever the client says.
	after := max(MessagesThrough(acked), q.opts.Through)
	var replayed []queued
	for _, me := range missed(after, through) {
		if e, ok := newMessageEncoder(me).eventFor(q); ok {
			replayed = append(replayed, queued{id: eventID(me.Message.ID, 1), payload: e})
		}
	}
	q.replayThrough.Store(0)
	if len(replayed) > r.settings.MaxEvents {
		r.Delete(q) // as if it had overflowed: its client registers anew
		return
	}
	q.prepend(replayed)
}

// messageEncoder encodes a message's event for each queue that takes it.
// Queues that share a message form and flags share one encoded event:
// fan-out to thousands of queues encodes a handful of events, not one per
// queue.
type messageEncoder struct {
	me        MessageEvent
	candidate *Candidate
	// each form encoded on first use
	raw, rendered json.RawMessage
	shared        map[messageVariant]encoded
}

type messageVariant struct {
	rendered, recipient bool
	flags               store.Flags
}

func newMessageEncoder(me MessageEvent) *messageEncoder {
	return &messageEncoder{me: me, candidate: &Candidate{Message: me.Message, Public: me.Public}, shared: map[messageVariant]encoded{}}
}

// eventFor is q's event for the message; false when q does not take it
// (its types or its narrow).
func (m *messageEncoder) eventFor(q *Queue) (encoded, bool) {
	if !q.messages {
		return nil, false
	}
	flags, recipient := m.me.Recipients.Flags(q.opts.UserID)
	if !recipient {
		flags = store.FlagRead | store.FlagHistorical
	}
	if q.opts.Narrow != nil && !q.opts.Narrow.Match(m.candidate, flags) {
		return nil, false
	}
	var message json.RawMessage
	if q.opts.ApplyMarkdown {
		if m.rendered == nil {
			m.rendered = encodeValue(m.me.Rendered)
		}
		message = m.rendered
	} else {
		if m.raw == nil {
			m.raw = encodeValue(m.me.Raw)
		}
		message = m.raw
	}
	if m.me.LocalID != "" && q.ID == m.me.SenderQueueID {
		return messageEvent(message, flags, recipient, m.me.LocalID), true
	}
	v := messageVariant{rendered: q.opts.ApplyMarkdown, recipient: recipient, flags: flags}
	e, ok := m.shared[v]
	if !ok {
		e = messageEvent(message, flags, recipient, "")
		m.shared[v] = e
	}
	return e, true
}

// messageEvent encodes one queue's message event around the encoded
// message. Non-recipients (all_public_streams queues) get no flags, as in
// Zulip.
func messageEvent(message json.RawMessage, flags store.Flags, recipient bool, localID string) encoded {
	names := []string{}
	if recipient {
		names = flags.Names()
	}
	e := Event{"type": "message", "flags": names, "message": message}
	if localID != "" {
		e["local_message_id"] = localID
	}
	return encode(e)
}
