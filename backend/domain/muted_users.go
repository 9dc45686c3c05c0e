package domain

import (
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// mutedUsersList is register's and the muted_users event's list.
func mutedUsersList(u store.User) []store.MutedUser {
	return append([]store.MutedUser{}, u.MutedUsers...)
}

// MuteUser is POST /users/me/muted_users/{id}: people and, since level
// 188, bots may be muted; the muter's queues get the new list.
func (s *Service) MuteUser(actor store.User, mutedID int64) error {
	return s.changeMutedUsers(actor, mutedID, func(u *store.User, muted bool) error {
		if muted {
			return BadRequest("User already muted")
		}
		u.MutedUsers = append(u.MutedUsers, store.MutedUser{ID: mutedID, Timestamp: s.now().Unix()})
		return nil
	})
}

// UnmuteUser is DELETE /users/me/muted_users/{id}.
func (s *Service) UnmuteUser(actor store.User, mutedID int64) error {
	return s.changeMutedUsers(actor, mutedID, func(u *store.User, muted bool) error {
		if !muted {
			return BadRequest("User is not muted")
		}
		u.MutedUsers = slices.DeleteFunc(u.MutedUsers, func(m store.MutedUser) bool { return m.ID == mutedID })
		return nil
	})
}

// changeMutedUsers checks the one to (un)mute, applies change to the
// actor's record in one write and announces the new list.
func (s *Service) changeMutedUsers(actor store.User, mutedID int64, change func(u *store.User, muted bool) error) error {
	if mutedID == actor.ID {
		return BadRequest("Cannot mute self")
	}
	return internal("mute user", s.update(func(tx *store.Tx) (func(), error) {
		if _, err := tx.User(mutedID); err != nil {
			return nil, BadRequest("No such user")
		}
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		muted := slices.ContainsFunc(u.MutedUsers, func(m store.MutedUser) bool { return m.ID == mutedID })
		if err := change(&u, muted); err != nil {
			return nil, err
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		e := events.Event{"type": "muted_users", "muted_users": mutedUsersList(u)}
		return func() { s.events.Publish(e, []int64{u.ID}) }, nil
	}))
}
