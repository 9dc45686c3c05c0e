package store

// ScheduledMessage is a message a user asked to be sent later (Zulip's
// scheduled messages). It stays here until it is sent (then deleted) or its
// sending fails (then kept, Failed, for its sender to see and fix).
type ScheduledMessage struct {
	ID       int64   `json:"id"`
	SenderID int64   `json:"sender_id"`
	Type     string  `json:"type"` // "stream" or "private"
	StreamID int64   `json:"stream_id,omitempty"`
	Topic    string  `json:"topic,omitempty"`
	To       []int64 `json:"to,omitempty"` // private: the recipients' user IDs
	Content  string  `json:"content"`
	// DeliverAt is when to send it, Unix seconds.
	DeliverAt int64 `json:"deliver_at"`
	Failed    bool  `json:"failed,omitempty"`
	// FailureMessage says why sending failed (the stream gone, say).
	FailureMessage string `json:"failure_message,omitempty"`
}

// ScheduledMessages lists every scheduled message in ID order.
func (tx *Tx) ScheduledMessages() ([]ScheduledMessage, error) {
	out := []ScheduledMessage{}
	err := each(tx, bucketScheduledMessages, func(m ScheduledMessage) bool { out = append(out, m); return true })
	return out, err
}

// ScheduledMessage loads one scheduled message.
func (tx *Tx) ScheduledMessage(id int64) (ScheduledMessage, error) {
	var m ScheduledMessage
	err := tx.get(bucketScheduledMessages, itob(id), &m)
	return m, err
}

// CreateScheduledMessage assigns the next ID and stores the message.
func (tx *Tx) CreateScheduledMessage(m *ScheduledMessage) error {
	id, err := tx.nextID(bucketScheduledMessages)
	if err != nil {
		return err
	}
	m.ID = id
	return tx.PutScheduledMessage(*m)
}

// PutScheduledMessage writes an existing scheduled message.
func (tx *Tx) PutScheduledMessage(m ScheduledMessage) error {
	return tx.put(bucketScheduledMessages, itob(m.ID), m)
}

// DeleteScheduledMessage removes a scheduled message (sent or cancelled).
func (tx *Tx) DeleteScheduledMessage(id int64) error {
	return tx.bucket(bucketScheduledMessages).Delete(itob(id))
}
