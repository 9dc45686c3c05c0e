package domain

import (
	"errors"
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// DefaultStreamObject is a default stream as Zulip's DefaultChannel: the
// stream's own properties, without counts or the viewer's settings.
type DefaultStreamObject struct {
	StreamProperties
}

// errPrivateDefault is Zulip's answer to a private stream offered as a
// default one: new people could not be let into it unasked.
var errPrivateDefault = BadRequest("Private channels cannot be made default.")

// defaultStreams lists the organization's default streams, in the order they
// were made default, leaving out any deleted since.
func (s *Service) defaultStreams(tx *store.Tx) ([]DefaultStreamObject, error) {
	realm, err := tx.Realm()
	if errors.Is(err, store.ErrNotFound) {
		return []DefaultStreamObject{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []DefaultStreamObject{}
	for _, id := range realm.DefaultStreamIDs {
		st, err := tx.Stream(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if st.Deactivated {
			continue
		}
		out = append(out, DefaultStreamObject{StreamProperties: s.streamObject(tx, st).StreamProperties})
	}
	return out, nil
}

// defaultStreamsWire is how register's realm_default_streams and the
// default_streams event list the default streams: as stream objects, or
// from level 330 by ID.
func defaultStreamsWire(list []DefaultStreamObject) any {
	if !Announces(330) {
		return list
	}
	ids := make([]int64, len(list))
	for i, d := range list {
		ids[i] = d.StreamID
	}
	return ids
}

// defaultStreamsState is register's realm_default_streams: empty for a
// guest, as in Zulip (guests join no stream unasked and see only theirs).
func (s *Service) defaultStreamsState(tx *store.Tx, viewer store.User) ([]DefaultStreamObject, error) {
	if isGuest(viewer) {
		return []DefaultStreamObject{}, nil
	}
	return s.defaultStreams(tx)
}

// setDefaultStream makes st a default stream or stops it being one, and
// queues the default_streams event to every active member who is not a
// guest when that changed anything. A private stream cannot become one.
func (s *Service) setDefaultStream(tx *store.Tx, out *deliveries, st store.Stream, on bool) error {
	if on && st.InviteOnly {
		return errPrivateDefault
	}
	if err := ensureRealm(tx, DefaultRealmName, s.now().Unix()); err != nil {
		return err
	}
	realm, err := tx.Realm()
	if err != nil {
		return err
	}
	if slices.Contains(realm.DefaultStreamIDs, st.ID) == on {
		return nil
	}
	if on {
		realm.DefaultStreamIDs = append(realm.DefaultStreamIDs, st.ID)
	} else {
		realm.DefaultStreamIDs = slices.DeleteFunc(realm.DefaultStreamIDs, func(id int64) bool { return id == st.ID })
	}
	if err := tx.PutRealm(realm); err != nil {
		return err
	}
	list, err := s.defaultStreams(tx)
	if err != nil {
		return err
	}
	users, err := tx.Users()
	if err != nil {
		return err
	}
	var audience []int64
	for _, u := range users {
		if u.IsActive && !isGuest(u) {
			audience = append(audience, u.ID)
		}
	}
	out.add(s, events.Event{"type": "default_streams", "default_streams": defaultStreamsWire(list)}, audience)
	return nil
}

// isDefaultStream tells whether new people join st.
func isDefaultStream(tx *store.Tx, st store.Stream) (bool, error) {
	realm, err := tx.Realm()
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return slices.Contains(realm.DefaultStreamIDs, st.ID), err
}

// AddDefaultStream is POST /default_streams (administrators only): new
// people will join the stream.
func (s *Service) AddDefaultStream(actor store.User, streamID int64) error {
	return s.changeDefaultStream(actor, streamID, true)
}

// RemoveDefaultStream is DELETE /default_streams (administrators only): new
// people no longer join the stream; its subscribers stay.
func (s *Service) RemoveDefaultStream(actor store.User, streamID int64) error {
	return s.changeDefaultStream(actor, streamID, false)
}

func (s *Service) changeDefaultStream(actor store.User, streamID int64, on bool) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("change default streams", s.update(func(tx *store.Tx) (func(), error) {
		st, err := visibleStreamByID(tx, actor, streamID)
		if err != nil {
			return nil, err
		}
		var out deliveries
		if err := s.setDefaultStream(tx, &out, st, on); err != nil {
			return nil, err
		}
		return out.publish, nil
	}))
}
