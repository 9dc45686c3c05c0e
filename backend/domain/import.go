package domain

import (
	"lanchat/backend/store"
)

// ImportedMessage is a message to import with its original sender and time.
type ImportedMessage struct {
	SenderID  int64
	Timestamp int64
	OutgoingMessage
}

// ImportMessages stores many messages in one transaction, through the same
// validation, rendering and indexing as SendMessage. It serves bulk imports
// and the benchmark fixtures; senders' own copies start read. It publishes
// no live events: an import is not a conversation.
func (s *Service) ImportMessages(msgs []ImportedMessage) ([]int64, error) {
	ids := make([]int64, 0, len(msgs))
	err := s.store.Update(func(tx *store.Tx) error {
		senders := map[int64]store.User{}
		for _, im := range msgs {
			sender, ok := senders[im.SenderID]
			if !ok {
				var err error
				if sender, err = tx.User(im.SenderID); err != nil {
					return BadRequest("Invalid user ID: %d", im.SenderID)
				}
				senders[im.SenderID] = sender
			}
			content, err := normalizeContent(im.Content)
			if err != nil {
				return err
			}
			target, err := resolveTarget(tx, sender, im.OutgoingMessage)
			if err != nil {
				return err
			}
			m, _, err := s.storeMessage(tx, sender, target, content, s.render(tx, sender, content), im.Client, im.Timestamp, true)
			if err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		return nil, internal("import messages", err)
	}
	return ids, nil
}
