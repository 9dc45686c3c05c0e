package events

import (
	"encoding/json"

	"lanchat/backend/store"
)

// queuesOf snapshots the queues of users (and, with public, of every
// all_public_streams queue) so delivery runs without the registry lock.
func (r *Registry) queuesOf(userIDs []int64, public bool) map[*Queue]struct{} {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := map[*Queue]struct{}{}
	for _, uid := range userIDs {
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
	t, _ := e["type"].(string)
	var payload encoded // encoded on first use: often nobody listens
	for q := range r.queuesOf(userIDs, false) {
		if q.wants(t) {
			if payload == nil {
				payload = encode(e)
			}
			r.deliver(q, payload)
		}
	}
}

// MessageEvent is a new message for its recipients' queues.
type MessageEvent struct {
	Message store.Message
	// Rendered and Raw are the message as shown with and without markdown
	// applied; each queue gets the form it registered for.
	Rendered, Raw any
	// Flags are each recipient's flags.
	Flags map[int64]store.Flags
	// Public stream messages also reach all_public_streams queues.
	Public bool
	// SenderQueueID and LocalID echo the sender's local_id to the queue it
	// named, so that client can match its optimistic copy.
	SenderQueueID, LocalID string
}

// PublishMessage delivers a message event to each queue that wants it,
// filtered by the queue's narrow with its user's flags. Queues that share a
// message form and flags share one encoded event: fan-out to thousands of
// queues encodes a handful of events, not one per queue.
func (r *Registry) PublishMessage(me MessageEvent) {
	ids := make([]int64, 0, len(me.Flags))
	for uid := range me.Flags {
		ids = append(ids, uid)
	}
	var raw, rendered json.RawMessage // each form encoded on first use
	type variant struct {
		rendered, recipient bool
		flags               store.Flags
	}
	shared := map[variant]encoded{}
	for q := range r.queuesOf(ids, me.Public) {
		if !q.wants("message") {
			continue
		}
		flags, recipient := me.Flags[q.opts.UserID]
		if !recipient {
			flags = store.FlagRead | store.FlagHistorical
		}
		if q.opts.Narrow != nil && !q.opts.Narrow.Match(me.Message, flags) {
			continue
		}
		var message json.RawMessage
		if q.opts.ApplyMarkdown {
			if rendered == nil {
				rendered = encodeValue(me.Rendered)
			}
			message = rendered
		} else {
			if raw == nil {
				raw = encodeValue(me.Raw)
			}
			message = raw
		}
		if me.LocalID != "" && q.ID == me.SenderQueueID {
			r.deliver(q, messageEvent(message, flags, recipient, me.LocalID))
			continue
		}
		v := variant{rendered: q.opts.ApplyMarkdown, recipient: recipient, flags: flags}
		e, ok := shared[v]
		if !ok {
			e = messageEvent(message, flags, recipient, "")
			shared[v] = e
		}
		r.deliver(q, e)
	}
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
