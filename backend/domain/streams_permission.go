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

// streamRule is a stream's setting by name.
func streamRule(name string) groupSettingRule {
	i := slices.IndexFunc(streamGroupSettings, func(r groupSettingRule) bool { return r.Name == name })
	return streamGroupSettings[i]
}

// streamSetting is a stream's value of a setting, its default when never
// set.
func streamSetting(ix *groupIndex, st store.Stream, name string) store.GroupSetting {
	if s, ok := st.GroupSettings[name]; ok {
		return s
	}
	return store.GroupSetting{Group: ix.system(streamRule(name).DefaultGroupName)}
}

// streamAllows is the stream's permission gate: whether u holds the named
// group setting of st.
func streamAllows(tx *store.Tx, u store.User, st store.Stream, name string) (bool, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return false, err
	}
	return ix.holds(streamSetting(ix, st, name), u), nil
}

// changeStreamSetting applies a change of a stream's group setting to st
// and reports whether the value changed.
func changeStreamSetting(tx *store.Tx, st *store.Stream, name string, ch GroupSettingChange) (bool, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return false, err
	}
	current := streamSetting(ix, *st, name)
	setting, err := applyChange(tx, ix, streamRule(name), current, ch)
	if err != nil || sameSetting(setting, current) {
		return false, err
	}
	if st.GroupSettings == nil {
		st.GroupSettings = map[string]store.GroupSetting{}
	}
	st.GroupSettings[name] = setting
	return true, nil
}

// removeSubscribersGroup is the stream's can_remove_subscribers_group.
func removeSubscribersGroup(tx *store.Tx, st store.Stream) (int64, error) {
	if st.CanRemoveSubscribersGroup != 0 {
		return st.CanRemoveSubscribersGroup, nil
	}
	return tx.SystemGroupID(streamGroupSettings[0].DefaultGroupName)
}

// checkRemoveSubscribersGroup checks a new can_remove_subscribers_group
// against the setting's rule.
func checkRemoveSubscribersGroup(tx *store.Tx, id int64) (int64, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return 0, err
	}
	setting, err := checkSetting(tx, ix, streamGroupSettings[0], GroupSettingValue{Group: id})
	return setting.Group, err
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
