package domain

import (
	"slices"

	"lanchat/backend/store"
)

// checkCanCreateStream is the gate for creating a stream: guests never may,
// others when in can_create_private_channel_group or
// can_create_public_channel_group.
func checkCanCreateStream(tx *store.Tx, actor store.User, inviteOnly bool) error {
	setting := SettingCreatePublicChannel
	if inviteOnly {
		setting = SettingCreatePrivateChannel
	}
	allowed, err := realmAllows(tx, actor, setting)
	if err != nil {
		return err
	}
	if isGuest(actor) || !allowed {
		return BadRequest("Insufficient permission")
	}
	return nil
}

// removeSubscribersGroup is the stream's can_remove_subscribers_group.
func removeSubscribersGroup(tx *store.Tx, st store.Stream) (int64, error) {
	if st.CanRemoveSubscribersGroup != 0 {
		return st.CanRemoveSubscribersGroup, nil
	}
	return tx.SystemGroupID(streamGroupSettings[0].DefaultGroupName)
}

// checkCanRemoveSubscribers is the stream's gate for unsubscribing users:
// anyone may leave; removing others takes can_remove_subscribers_group.
func checkCanRemoveSubscribers(tx *store.Tx, actor store.User, st store.Stream, users []store.User) error {
	if !slices.ContainsFunc(users, func(u store.User) bool { return u.ID != actor.ID }) {
		return nil
	}
	id, err := removeSubscribersGroup(tx, st)
	if err != nil {
		return err
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	if !ix.contains(id, actor) {
		return BadRequest("Insufficient permission")
	}
	return nil
}
