package domain

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Event queues outlive the process: each is recorded when registered and
// forgotten when it ends, and restored under its ID at start-up, so a
// client polling across a restart (clean or not) goes on with the same
// queue. Its event IDs tell which messages its client has seen
// (events.MessagesThrough); the rest are replayed from the store.

// queueRecord is the store's record of a queue registered with req.
func queueRecord(q *events.Queue, req RegisterRequest) store.EventQueue {
	opts := q.Options()
	rec := store.EventQueue{ID: q.ID, UserID: opts.UserID, EventTypes: req.EventTypes,
		AllPublicStreams: opts.AllPublicStreams, ApplyMarkdown: opts.ApplyMarkdown, BulkMessageDeletion: opts.BulkMessageDeletion,
		IncludeDeactivatedGroups: opts.IncludeDeactivatedGroups, Through: opts.Through}
	for _, t := range req.Narrow {
		rec.Narrow = append(rec.Narrow, store.EventQueueTerm{Operator: t.Operator, Operand: t.Operand, Negated: t.Negated})
	}
	return rec
}

// recordQueue keeps a new queue's record. A store that cannot be written
// (read-only, full) still serves, with queues that end at a restart.
func (s *Service) recordQueue(rec store.EventQueue) error {
	err := s.store.Batch(func(tx *store.Tx) error { return tx.PutEventQueue(rec) })
	if errors.Is(err, store.ErrReadOnly) || errors.Is(err, store.ErrStorageFull) {
		return nil
	}
	return err
}

// RestoreEventQueues brings back the queues recorded by earlier runs,
// before the organization serves. A queue of an account that is gone or
// deactivated, or whose narrow no longer resolves, is forgotten.
func (s *Service) RestoreEventQueues() error {
	var forget []string
	err := s.store.View(func(tx *store.Tx) error {
		s.events.MessagesPublished(tx.LastMessageID())
		records, err := tx.EventQueues()
		if err != nil {
			return err
		}
		for _, rec := range records {
			opts, ok := restoredOptions(tx, rec)
			if !ok {
				forget = append(forget, rec.ID)
				continue
			}
			s.events.Restore(rec.ID, opts)
		}
		return nil
	})
	if err != nil || len(forget) == 0 || s.store.ReadOnly() {
		return err
	}
	return s.forgetQueues(forget)
}

// restoredOptions are a recorded queue's options, resolved again against
// the store as it is now.
func restoredOptions(tx *store.Tx, rec store.EventQueue) (events.QueueOptions, bool) {
	user, err := tx.User(rec.UserID)
	if err != nil || !user.IsActive || (rec.AllPublicStreams && isGuest(user)) {
		return events.QueueOptions{}, false
	}
	opts := events.QueueOptions{UserID: user.ID, EventTypes: rec.EventTypes, AllPublicStreams: rec.AllPublicStreams,
		ApplyMarkdown: rec.ApplyMarkdown, BulkMessageDeletion: rec.BulkMessageDeletion,
		IncludeDeactivatedGroups: rec.IncludeDeactivatedGroups, Through: rec.Through}
	if len(rec.Narrow) > 0 {
		terms := make([]NarrowTerm, len(rec.Narrow))
		for i, t := range rec.Narrow {
			terms[i] = NarrowTerm{Operator: t.Operator, Operand: t.Operand, Negated: t.Negated}
		}
		narrow, err := resolveQueueNarrow(tx, user, terms)
		if err != nil {
			return events.QueueOptions{}, false
		}
		opts.Narrow = narrow
	}
	return opts, true
}

// missedMessages are the message events, in ID order, of the messages
// after `after` through `through` that user holds, or (allPublic) may see
// in a public stream: what a queue restored for user may have missed.
func (s *Service) missedMessages(user int64, allPublic bool, after, through int64) []events.MessageEvent {
	var out []events.MessageEvent
	s.store.View(func(tx *store.Tx) error {
		v := newMessageViewer(tx, viewOptions{applyMarkdown: true}, s.topicLinks)
		for id := after + 1; id <= through; id++ {
			m, err := tx.Message(id)
			if err != nil {
				continue // deleted, or never committed
			}
			public := false
			if !m.IsPrivate() {
				st, err := tx.Stream(m.StreamID)
				public = err == nil && !st.InviteOnly
			}
			recipients := store.Recipients{}
			if flags, ok := tx.MessageFlags(user, m); ok {
				recipients.Set(user, flags)
			} else if !allPublic || !public {
				continue
			}
			me := events.MessageEvent{Message: m, Recipients: recipients, Public: public}
			setMessageForms(v, &me)
			out = append(out, me)
		}
		return nil
	})
	return out
}

// replayMissed gives q, if it was restored and not read since, the
// messages its client missed, before the read that acknowledges acked.
func (s *Service) replayMissed(q *events.Queue, acked int64) {
	opts := q.Options()
	s.events.Replay(q, acked, func(after, through int64) []events.MessageEvent {
		return s.missedMessages(opts.UserID, opts.AllPublicStreams, after, through)
	})
}

// forgetEndedQueuesEvery forgets the queues that ended, every interval
// until ctx ends. A crash before a record goes restores a queue nobody
// reads, which expires again by the idle rule.
func (s *Service) forgetEndedQueuesEvery(ctx context.Context, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.forgetEndedQueues()
		}
	}
}

// forgetEndedQueues deletes the records of the queues that ended since it
// last ran.
func (s *Service) forgetEndedQueues() {
	if ended := s.events.TakeEnded(); len(ended) > 0 && !s.store.ReadOnly() {
		if err := s.forgetQueues(ended); err != nil {
			slog.Warn("forget ended event queues", "err", err)
		}
	}
}

func (s *Service) forgetQueues(ids []string) error {
	return s.store.Update(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.DeleteEventQueue(id); err != nil {
				return err
			}
		}
		return nil
	})
}
