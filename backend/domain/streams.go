package domain

import (
	"errors"
	"strings"
	"unicode/utf8"

	"lanchat/backend/store"
)

// MaxStreamNameLength and MaxStreamDescriptionLength are Zulip's limits.
const (
	MaxStreamNameLength        = 60
	MaxStreamDescriptionLength = 1024
)

// streamColors is the palette new subscriptions draw from, by stream ID, so
// each stream keeps one colour for everybody unless they change it.
var streamColors = []string{
	"#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55",
	"#b0a5fd", "#addfe5", "#f5ce6e", "#c2726a", "#94c849", "#bd86e5",
}

func validateStreamName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", BadRequest("Channel name can't be empty!")
	case utf8.RuneCountInString(name) > MaxStreamNameLength:
		return "", BadRequest("Channel name too long (limit: %d characters).", MaxStreamNameLength)
	case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' }):
		return "", BadRequest("Invalid character in channel name.")
	}
	return name, nil
}

// createStream stores a new stream inside tx after validating its name;
// creatorID is who asked for it, 0 when no one did (the organization's
// first stream) or an import does not say, as Zulip records none then.
func (s *Service) createStream(tx *store.Tx, name, description string, inviteOnly bool, creatorID int64) (store.Stream, error) {
	name, err := validateStreamName(name)
	if err != nil {
		return store.Stream{}, err
	}
	if utf8.RuneCountInString(description) > MaxStreamDescriptionLength {
		return store.Stream{}, BadRequest("Channel description too long (limit: %d characters).", MaxStreamDescriptionLength)
	}
	if _, err := tx.StreamByName(name); err == nil {
		return store.Stream{}, BadRequest("Channel name '%s' is already taken.", name)
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Stream{}, err
	}
	st := store.Stream{Name: name, Description: description, InviteOnly: inviteOnly, DateCreated: s.now().Unix(), CreatorID: creatorID}
	return st, tx.CreateStream(&st)
}

// defaultColor is a new subscription's colour, one per stream.
func defaultColor(streamID int64) string { return streamColors[int(streamID)%len(streamColors)] }

// subscribe makes userID an active subscriber of the stream, keeping the
// settings of an earlier subscription. It reports whether anything changed.
func subscribe(tx *store.Tx, userID int64, st store.Stream) (bool, error) {
	sub, err := tx.Subscription(userID, st.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		sub = store.Subscription{UserID: userID, StreamID: st.ID, Color: defaultColor(st.ID)}
	case err != nil:
		return false, err
	case sub.Active:
		return false, nil
	}
	sub.Active = true
	return true, tx.PutSubscription(sub)
}
