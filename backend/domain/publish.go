package domain

import (
	"slices"
	"sync"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// update runs fn in one write transaction; the function fn returns (if any)
// publishes the events of the change once it has committed.
func (s *Service) update(fn func(tx *store.Tx) (publish func(), err error)) error {
	return s.commit(s.published.RLocker(), s.store.Update, fn)
}

// batch is update for concurrent writers, sharing commits (store.Batch).
func (s *Service) batch(fn func(tx *store.Tx) (publish func(), err error)) error {
	return s.commit(s.published.RLocker(), s.store.Batch, fn)
}

// updateAlone is update holding the publish lock exclusively, as Register
// does: no other change publishes between its commit and its publish
// function, which can so end the queues the change makes wrong (a role
// change or a deactivation) before any later event reaches them.
func (s *Service) updateAlone(fn func(tx *store.Tx) (publish func(), err error)) error {
	return s.commit(&s.published, s.store.Update, fn)
}

func (s *Service) commit(lock sync.Locker, run func(func(*store.Tx) error) error, fn func(tx *store.Tx) (func(), error)) error {
	lock.Lock()
	defer lock.Unlock()
	var publish func()
	err := run(func(tx *store.Tx) error {
		var err error
		publish, err = fn(tx)
		return err
	})
	if err == nil && publish != nil {
		publish()
	}
	return err
}

// activeUserIDs are the active accounts: the audience of realm-wide
// events.
func activeUserIDs(tx *store.Tx) ([]int64, error) {
	return userIDsWhere(tx, func(u store.User) bool { return u.IsActive })
}

// allUserIDs are every account, deactivated ones too: any may hold
// messages.
func allUserIDs(tx *store.Tx) ([]int64, error) {
	return userIDsWhere(tx, func(store.User) bool { return true })
}

func userIDsWhere(tx *store.Tx, keep func(store.User) bool) ([]int64, error) {
	users, err := tx.Users()
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(users))
	for _, u := range users {
		if keep(u) {
			ids = append(ids, u.ID)
		}
	}
	return ids, nil
}

// deliveries collects events during a transaction, published in order
// after it commits.
type deliveries []func()

func (d *deliveries) add(s *Service, e events.Event, userIDs []int64) {
	*d = append(*d, func() { s.events.Publish(e, userIDs) })
}

func (d deliveries) publish() {
	for _, f := range d {
		f()
	}
}

// streamAudience is who may see a stream exist: its subscribers, and for a
// public stream every active member (guests see only their subscriptions).
func streamAudience(tx *store.Tx, st store.Stream) ([]int64, error) {
	users, err := tx.Users()
	if err != nil {
		return nil, err
	}
	if st.InviteOnly {
		// Subscribers, and those with metadata access (level 349).
		ix, err := loadGroups(tx)
		if err != nil {
			return nil, err
		}
		ids := tx.StreamSubscriberIDs(st.ID)
		for _, u := range users {
			if u.IsActive && !slices.Contains(ids, u.ID) && metadataViaGroups(ix, u, st) {
				ids = append(ids, u.ID)
			}
		}
		return ids, nil
	}
	var ids []int64
	for _, u := range users {
		if u.IsActive && canSeeStream(tx, u, st) {
			ids = append(ids, u.ID)
		}
	}
	return ids, nil
}

// flagsEvent is an update_message_flags event.
func flagsEvent(op string, flag string, ids []int64, all bool) events.Event {
	if ids == nil {
		ids = []int64{}
	}
	return events.Event{"type": "update_message_flags", "op": op, "operation": op, "flag": flag, "messages": ids, "all": all}
}

// messageOrder has message events published in message ID order, which
// event IDs rely on (events.MessagesThrough): sends commit together in
// batches and would otherwise fan out in whatever order their goroutines
// run. A send marks its message in flight inside its transaction (which
// may run more than once, under other IDs) and publishes once no message
// with a lower ID is in flight.
type messageOrder struct {
	mu       sync.Mutex
	turn     *sync.Cond
	inFlight map[int64]int // message ID → sends that hold it (a rolled-back ID is reused)
}

func (o *messageOrder) begin(id int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.inFlight == nil {
		o.inFlight, o.turn = map[int64]int{}, sync.NewCond(&o.mu)
	}
	o.inFlight[id]++
}

// end takes id out of flight: published, or its transaction rolled back.
func (o *messageOrder) end(id int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.inFlight[id]--; o.inFlight[id] <= 0 {
		delete(o.inFlight, id)
	}
	o.turn.Broadcast()
}

// await waits until no message with an ID below id is in flight.
func (o *messageOrder) await(id int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.lowerInFlight(id) {
		o.turn.Wait()
	}
}

func (o *messageOrder) lowerInFlight(id int64) bool {
	for other := range o.inFlight {
		if other < id {
			return true
		}
	}
	return false
}
