package domain

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// MaxStatusTextLength is Zulip's limit on status_text, in characters.
const MaxStatusTextLength = 60

// StatusChange is POST /users/me/status: nil fields stay as they are; an
// empty text or emoji name clears that part.
type StatusChange struct {
	Text      *string
	Away      *bool
	EmojiName *string
	EmojiCode string
	EmojiType string
}

// SetStatus changes the actor's status and tells everyone, as Zulip's
// user_status event does.
func (s *Service) SetStatus(actor store.User, ch StatusChange) error {
	if ch.Text == nil && ch.Away == nil && ch.EmojiName == nil {
		return BadRequest("Client did not pass any new values.")
	}
	if ch.Text != nil {
		text := strings.TrimSpace(*ch.Text)
		if utf8.RuneCountInString(text) > MaxStatusTextLength {
			return BadRequest("status_text is too long (limit: %d characters).", MaxStatusTextLength)
		}
		ch.Text = &text
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		st := store.UserStatus{}
		if u.Status != nil {
			st = *u.Status
		}
		e := events.Event{"type": "user_status", "user_id": u.ID}
		if ch.Text != nil {
			st.Text, e["status_text"] = *ch.Text, *ch.Text
		}
		if ch.Away != nil {
			st.Away, e["away"] = *ch.Away, *ch.Away
		}
		if ch.EmojiName != nil {
			st.EmojiName, st.EmojiCode, st.ReactionType = "", "", ""
			if *ch.EmojiName != "" {
				r, err := resolveEmoji(tx, ReactionRequest{EmojiName: *ch.EmojiName, EmojiCode: ch.EmojiCode, ReactionType: ch.EmojiType})
				if err != nil {
					return nil, err
				}
				st.EmojiName, st.EmojiCode, st.ReactionType = r.EmojiName, r.EmojiCode, r.ReactionType
			}
			e["emoji_name"], e["emoji_code"], e["reaction_type"] = st.EmojiName, st.EmojiCode, st.ReactionType
		}
		u.Status = &st
		if st == (store.UserStatus{}) {
			u.Status = nil
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		users, err := activeUserIDs(tx)
		if err != nil {
			return nil, err
		}
		return func() { s.events.Publish(e, users) }, nil
	})
	return internal("set status", err)
}

// UserStatusObject is a person's status as register's user_status shows
// it: only what is set.
type UserStatusObject struct {
	Text         string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
	Away         bool   `json:"away,omitempty"`
}

// userStatusState is register's user_status: each user with a status, by ID.
func userStatusState(tx *store.Tx) (map[string]UserStatusObject, error) {
	users, err := tx.Users()
	if err != nil {
		return nil, err
	}
	out := map[string]UserStatusObject{}
	for _, u := range users {
		if st := u.Status; st != nil && u.IsActive {
			out[strconv.FormatInt(u.ID, 10)] = statusObject(st)
		}
	}
	return out, nil
}

// UserStatus answers GET /users/{id}/status (level 262): the person's
// status, empty when none is set.
func (s *Service) UserStatus(viewer store.User, userID int64) (UserStatusObject, error) {
	var o UserStatusObject
	err := s.store.View(func(tx *store.Tx) error {
		u, err := tx.User(userID)
		if err != nil {
			return BadRequest("No such user")
		}
		if st := u.Status; st != nil {
			o = statusObject(st)
		}
		return nil
	})
	return o, internal("get user status", err)
}

func statusObject(st *store.UserStatus) UserStatusObject {
	return UserStatusObject{Text: st.Text, EmojiName: st.EmojiName, EmojiCode: st.EmojiCode, ReactionType: st.ReactionType, Away: st.Away}
}
