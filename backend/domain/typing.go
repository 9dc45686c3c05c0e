package domain

import (
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
		var err error
		audience, err = typingReceivers(tx, actor, audience)
		return err
	})
	if err != nil {
		return internal("typing", err)
	}
	s.events.Publish(e, audience)
	return nil
}

// typingReceivers are the participants other than the typist who have not
// turned off receives_typing_notifications (Zulip 9.0, level 253).
func typingReceivers(tx *store.Tx, actor store.User, participants []int64) ([]int64, error) {
	var out []int64
	for _, id := range participants {
		if id == actor.ID {
			continue
		}
		u, err := tx.User(id)
		if err != nil {
			return nil, err
		}
		// Only the person's own change is read: the default receives.
		if u.Settings["receives_typing_notifications"] != false {
			out = append(out, id)
		}
	}
	return out, nil
}

// SetEditTyping tells those who would see a message's edit that the actor
// started or stopped editing it (levels 351, 361): the participants of a
// direct message, the subscribers of a channel message.
func (s *Service) SetEditTyping(actor store.User, messageID int64, op string) error {
	if op != "start" && op != "stop" {
		return BadRequest("Invalid op '%s'", op)
	}
	e := events.Event{"type": "typing_edit_message", "op": op, "sender_id": actor.ID, "message_id": messageID}
	var audience []int64
	err := s.store.View(func(tx *store.Tx) error {
		m, _, err := accessMessage(tx, actor, messageID, streamCache{})
		if err != nil {
			return err
		}
		if m.IsPrivate() {
			audience = sortedUnique(append([]int64{m.SenderID}, m.PrivateUserIDs...))
			e["recipient"] = map[string]any{"type": "direct", "user_ids": audience}
		} else {
			audience = tx.StreamSubscriberIDs(m.StreamID)
			e["recipient"] = map[string]any{"type": "channel", "channel_id": m.StreamID, "topic": m.Topic}
		}
		audience, err = typingReceivers(tx, actor, audience)
		return err
	})
	if err != nil {
		return internal("edit typing", err)
	}
	s.events.Publish(e, audience)
	return nil
}
