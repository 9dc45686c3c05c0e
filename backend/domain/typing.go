package domain

import (
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Typing is POST /typing: to direct-message recipients (To, emails or IDs),
// or to a stream topic's subscribers (StreamID and Topic).
type Typing struct {
	Op       string
	Type     string // "direct" (default; "private" too) or "stream" ("channel" too)
	To       []string
	StreamID int64
	Topic    string
}

// SetTyping tells the conversation's other participants that the actor
// started or stopped typing. Nothing is stored.
func (s *Service) SetTyping(actor store.User, t Typing) error {
	if t.Op != "start" && t.Op != "stop" {
		return BadRequest("Invalid op '%s'", t.Op)
	}
	e := events.Event{"type": "typing", "op": t.Op, "sender": map[string]any{"user_id": actor.ID, "email": actor.Email}}
	var audience []int64
	err := s.store.View(func(tx *store.Tx) error {
		switch t.Type {
		case "", "direct", "private":
			ids, err := resolveUsers(tx, t.To)
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				return BadRequest("Missing recipients")
			}
			participants := sortedUnique(append(ids, actor.ID))
			recipients := make([]map[string]any, 0, len(participants))
			for _, id := range participants {
				u, err := tx.User(id)
				if err != nil {
					return err
				}
				recipients = append(recipients, map[string]any{"user_id": u.ID, "email": u.Email})
			}
			e["message_type"], e["recipients"] = "direct", recipients
			audience = participants
		case "stream", "channel":
			st, err := visibleStreamByID(tx, actor, t.StreamID)
			if err != nil {
				return err
			}
			topic, err := normalizeTopic(t.Topic)
			if err != nil {
				return err
			}
			e["message_type"], e["stream_id"], e["topic"] = "stream", st.ID, topic
			audience = tx.StreamSubscriberIDs(st.ID)
		default:
			return BadRequest("Invalid type '%s'", t.Type)
		}
		return nil
	})
	if err != nil {
		return internal("typing", err)
	}
	others := slices.DeleteFunc(audience, func(id int64) bool { return id == actor.ID })
	s.events.Publish(e, others)
	return nil
}
