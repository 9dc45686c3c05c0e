package domain

import (
	"errors"
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// errPrivateDefault is Zulip's answer to a private stream offered as a
// default one: new people could not be let into it unasked.
var errPrivateDefault = BadRequest("Private channels cannot be made default.")

// defaultStreams lists the IDs of the organization's default streams (only
// IDs since level 330), in the order they were made default, leaving out
// any deleted since.
func defaultStreams(tx *store.Tx) ([]int64, error) {
	realm, err := tx.Realm()
	if errors.Is(err, store.ErrNotFound) {
		return []int64{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []int64{}
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
		out = append(out, st.ID)
	}
	return out, nil
}

// defaultStreamsState is register's realm_default_streams: empty for a
// guest, as in Zulip (guests join no stream unasked and see only theirs).
func defaultStreamsState(tx *store.Tx, viewer store.User) ([]int64, error) {
	if isGuest(viewer) {
		return []int64{}, nil
	}
	return defaultStreams(tx)
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
	list, err := defaultStreams(tx)
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
	out.add(s, events.Event{"type": "default_streams", "default_streams": list}, audience)
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
