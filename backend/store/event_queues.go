package store

import "errors"

// EventQueue is a client's event queue as kept across restarts: what
// shapes it, not its events (the messages it missed are computed from the
// store when it is restored).
type EventQueue struct {
	ID     string `json:"id"`
	UserID int64  `json:"user_id"`
	// EventTypes nil: every type.
	EventTypes               []string         `json:"event_types"`
	Narrow                   []EventQueueTerm `json:"narrow,omitempty"`
	AllPublicStreams         bool             `json:"all_public_streams,omitempty"`
	ApplyMarkdown            bool             `json:"apply_markdown,omitempty"`
	BulkMessageDeletion      bool             `json:"bulk_message_deletion,omitempty"`
	IncludeDeactivatedGroups bool             `json:"include_deactivated_groups,omitempty"`
	// Through is the newest message in the client's initial state.
	Through int64 `json:"through"`
}

// EventQueueTerm is one term of a queue's narrow, as registered.
type EventQueueTerm struct {
	Operator string `json:"operator"`
	Operand  string `json:"operand"`
	Negated  bool   `json:"negated,omitempty"`
}

// PutEventQueue keeps a queue's record.
func (tx *Tx) PutEventQueue(q EventQueue) error {
	if q.ID == "" {
		return errors.New("an event queue record needs its ID")
	}
	return tx.put(bucketEventQueues, []byte(q.ID), q)
}

// DeleteEventQueue forgets a queue; a missing one is no error.
func (tx *Tx) DeleteEventQueue(id string) error {
	return tx.bucket(bucketEventQueues).Delete([]byte(id))
}

// EventQueues are every queue's record.
func (tx *Tx) EventQueues() ([]EventQueue, error) {
	var out []EventQueue
	err := tx.bucket(bucketEventQueues).ForEach(func(_, v []byte) error {
		var q EventQueue
		if err := decode(v, &q); err != nil {
			return err
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

// LastMessageID is the ID of the newest message ever stored (0 for none).
func (tx *Tx) LastMessageID() int64 { return tx.nextMessageID() - 1 }
