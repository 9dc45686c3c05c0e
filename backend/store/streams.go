package store

import "strings"

// Stream is a named channel; messages in it are grouped by topic.
type Stream struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	InviteOnly  bool   `json:"invite_only"`
	DateCreated int64  `json:"date_created"`
	// CreatorID is the user who created the stream, recorded since schema 7;
	// 0 when unknown (older streams, the organization's first stream,
	// imported ones).
	CreatorID int64 `json:"creator_id,omitempty"`
	// FirstMessageID is the stream's oldest message, or 0 while it has none.
	FirstMessageID int64 `json:"first_message_id,omitempty"`
	// Deactivated streams are deleted for every purpose but keep their
	// record, so their ID is never reused; their name is free again.
	Deactivated bool `json:"deactivated,omitempty"`
	// GroupSettings are the stream's group-based permissions by Zulip's
	// setting name (since schema 9; schema 8 kept only
	// can_remove_subscribers_group, as a system group's ID); an absent one
	// is its default.
	GroupSettings map[string]GroupSetting `json:"group_settings,omitempty"`
}

func streamNameKey(name string) []byte { return []byte(strings.ToLower(strings.TrimSpace(name))) }

// Stream loads one active stream by ID.
func (tx *Tx) Stream(id int64) (Stream, error) {
	s, err := getCached(tx, bucketStreams, id, &tx.s.streams)
	if err == nil && s.Deactivated {
		return Stream{}, ErrNotFound
	}
	return s, err
}

// StreamByName loads a stream by name, ignoring case as Zulip does.
func (tx *Tx) StreamByName(name string) (Stream, error) {
	id := tx.bucket(bucketStreamByName).Get(streamNameKey(name))
	if id == nil {
		return Stream{}, ErrNotFound
	}
	return tx.Stream(btoi(id))
}

// Streams lists every active stream in ID order.
func (tx *Tx) Streams() ([]Stream, error) {
	var out []Stream
	err := each(tx, bucketStreams, func(s Stream) bool {
		if !s.Deactivated {
			out = append(out, s)
		}
		return true
	})
	return out, err
}

// AllStreams lists every stream in ID order, deactivated ones included
// (their messages stay, and an export carries them).
func (tx *Tx) AllStreams() ([]Stream, error) {
	var out []Stream
	err := each(tx, bucketStreams, func(s Stream) bool { out = append(out, s); return true })
	return out, err
}

// CreateStream assigns the next stream ID and stores the stream. The caller
// checks that the name is free.
func (tx *Tx) CreateStream(s *Stream) error {
	id, err := tx.nextID(bucketStreams)
	if err != nil {
		return err
	}
	s.ID = id
	return tx.PutStream(*s)
}

// PutStream writes an existing stream, keeping the name index current.
func (tx *Tx) PutStream(s Stream) error {
	var old Stream
	if err := tx.get(bucketStreams, itob(s.ID), &old); err == nil && !strings.EqualFold(old.Name, s.Name) {
		if err := tx.bucket(bucketStreamByName).Delete(streamNameKey(old.Name)); err != nil {
			return err
		}
	}
	var err error
	if s.Deactivated {
		err = tx.bucket(bucketStreamByName).Delete(streamNameKey(s.Name))
	} else {
		err = tx.bucket(bucketStreamByName).Put(streamNameKey(s.Name), itob(s.ID))
	}
	if err != nil {
		return err
	}
	return tx.put(bucketStreams, itob(s.ID), s)
}
