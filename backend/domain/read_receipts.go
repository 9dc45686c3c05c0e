package domain

import (
	"lanchat/backend/store"
)

// ReadReceipts lists who has read a message, as Zulip's read receipts do:
// not its sender, and not those who turned send_read_receipts off. The
// organization must enable them; the viewer must be able to read the
// message.
func (s *Service) ReadReceipts(viewer store.User, id int64) ([]int64, error) {
	out := []int64{}
	err := s.store.View(func(tx *store.Tx) error {
		r, err := tx.Realm()
		if err != nil && err != store.ErrNotFound {
			return err
		}
		if !r.EnableReadReceipts {
			return BadRequest("Read receipts are disabled in this organization.")
		}
		m, _, err := accessMessage(tx, viewer, id, streamCache{})
		if err != nil {
			return err
		}
		users, err := activeUserIDs(tx)
		if err != nil {
			return err
		}
		for _, uid := range tx.MessageUserIDs(id, users) {
			if uid == m.SenderID {
				continue
			}
			if f, _ := tx.Flags(uid, id); f&store.FlagRead == 0 {
				continue
			}
			u, err := tx.User(uid)
			if err != nil || u.IsBot() || userSettings(u)["send_read_receipts"] == false {
				continue
			}
			out = append(out, uid)
		}
		return nil
	})
	return out, internal("read receipts", err)
}
