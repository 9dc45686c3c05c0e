package domain

import (
	"slices"

	"lanchat/assets"
	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Reaction types, with Zulip's names.
const (
	ReactionUnicode = "unicode_emoji"
	ReactionRealm   = "realm_emoji"
	ReactionExtra   = "zulip_extra_emoji"
)

// ReactionRequest names an emoji by name, code or both.
type ReactionRequest struct {
	EmojiName    string
	EmojiCode    string
	ReactionType string // empty: unicode_emoji, or realm_emoji for a custom name
}

// resolveEmoji checks a reaction's emoji and fills in its name and code.
func resolveEmoji(tx *store.Tx, req ReactionRequest) (store.Reaction, error) {
	r := store.Reaction{EmojiName: req.EmojiName, EmojiCode: req.EmojiCode, ReactionType: req.ReactionType}
	if r.ReactionType == "" {
		r.ReactionType = ReactionUnicode
		if _, ok := customEmoji(tx, req.EmojiName); ok && req.EmojiCode == "" {
			r.ReactionType = ReactionRealm
		}
	}
	switch r.ReactionType {
	case ReactionUnicode:
		if r.EmojiCode == "" {
			e, ok := assets.EmojiByName(r.EmojiName)
			if !ok {
				return r, BadRequest("Emoji '%s' does not exist", r.EmojiName)
			}
			r.EmojiCode = e.Code
			break
		}
		e, ok := assets.EmojiByCode(r.EmojiCode)
		if !ok {
			return r, BadRequest("Invalid emoji code.")
		}
		// The name travels with the reaction to every reader: it must be
		// the code's name or an alias, as in Zulip.
		if named, ok := assets.EmojiByName(r.EmojiName); !ok || named.Code != e.Code {
			return r, BadRequest("Invalid emoji name.")
		}
	case ReactionRealm:
		c, ok := customEmoji(tx, r.EmojiName)
		if !ok || (r.EmojiCode != "" && r.EmojiCode != c.ID) {
			return r, BadRequest("Emoji '%s' does not exist", r.EmojiName)
		}
		r.EmojiCode = c.ID
	case ReactionExtra:
		if r.EmojiName != "zulip" {
			return r, BadRequest("Emoji '%s' does not exist", r.EmojiName)
		}
		r.EmojiCode = "zulip"
	default:
		return r, BadRequest("Invalid emoji type.")
	}
	return r, nil
}

// sameEmoji tells whether two reactions are the same emoji (names may
// differ: aliases share a code).
func sameEmoji(a, b store.Reaction) bool {
	return a.ReactionType == b.ReactionType && a.EmojiCode == b.EmojiCode
}

// AddReaction adds the actor's emoji reaction to a message they can see, and
// tells the message's holders.
func (s *Service) AddReaction(actor store.User, messageID int64, req ReactionRequest) error {
	return s.changeReactions(actor, messageID, req, "add", func(tx *store.Tx, m *store.Message) (store.Reaction, error) {
		r, err := resolveEmoji(tx, req)
		if err != nil {
			return r, err
		}
		r.UserID = actor.ID
		if slices.ContainsFunc(m.Reactions, func(x store.Reaction) bool { return x.UserID == actor.ID && sameEmoji(x, r) }) {
			return r, errorf(CodeReactionAlreadyExists, "Reaction already exists.")
		}
		m.Reactions = append(m.Reactions, r)
		return r, nil
	})
}

// RemoveReaction takes the actor's emoji reaction off a message they can
// see, and tells the message's holders.
func (s *Service) RemoveReaction(actor store.User, messageID int64, req ReactionRequest) error {
	return s.changeReactions(actor, messageID, req, "remove", func(tx *store.Tx, m *store.Message) (store.Reaction, error) {
		// Removing needs only enough to find the reaction.
		r := store.Reaction{EmojiName: req.EmojiName, EmojiCode: req.EmojiCode, ReactionType: req.ReactionType, UserID: actor.ID}
		var unknown error
		if r.EmojiCode == "" || r.ReactionType == "" {
			resolved, err := resolveEmoji(tx, req)
			if err == nil {
				r.EmojiCode, r.ReactionType = resolved.EmojiCode, resolved.ReactionType
			}
			unknown = err
		}
		i := slices.IndexFunc(m.Reactions, func(x store.Reaction) bool { return x.UserID == actor.ID && sameEmoji(x, r) })
		if i < 0 && unknown != nil {
			// An emoji name that names nothing is refused as such, as by Zulip.
			return r, unknown
		}
		if i < 0 {
			return r, errorf(CodeReactionDoesNotExist, "Reaction doesn't exist.")
		}
		r = m.Reactions[i]
		m.Reactions = slices.Delete(m.Reactions, i, i+1)
		return r, nil
	})
}

// changeReactions applies change, for the emoji req names, to a message the
// actor can see, stores it and tells the message's holders (and the actor)
// which reaction went op.
func (s *Service) changeReactions(actor store.User, messageID int64, req ReactionRequest, op string,
	change func(*store.Tx, *store.Message) (store.Reaction, error)) error {
	if req.EmojiName == "" && req.EmojiCode == "" {
		return MissingArgument("emoji_name")
	}
	return internal("react", s.update(func(tx *store.Tx) (func(), error) {
		m, _, err := accessMessage(tx, actor, messageID, streamCache{})
		if err != nil {
			return nil, err
		}
		r, err := change(tx, &m)
		if err != nil {
			return nil, err
		}
		if err := tx.PutMessageBody(m); err != nil {
			return nil, err
		}
		audience, err := messageAudience(tx, m, actor)
		if err != nil {
			return nil, err
		}
		e := events.Event{"type": "reaction", "op": op, "message_id": m.ID, "emoji_name": r.EmojiName,
			"emoji_code": r.EmojiCode, "reaction_type": r.ReactionType, "user_id": actor.ID,
			"user": map[string]any{"user_id": actor.ID, "email": actor.Email, "full_name": actor.FullName}}
		out := deliveries{func() { s.events.Publish(e, audience) }}
		// Reacting is taking part in the topic, for the automatic policies.
		if op == "add" && !m.IsPrivate() && tx.IsSubscribed(actor.ID, m.StreamID) {
			if err := s.participate(tx, &out, actor, m); err != nil {
				return nil, err
			}
		}
		return out.publish, nil
	}))
}
