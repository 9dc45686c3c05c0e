package domain

import (
	"maps"
	"slices"

	"lanchat/backend/events"
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
	if id := ix.system(streamRule(name).DefaultGroupName); id != 0 {
		return store.GroupSetting{Group: id}
	}
	return store.GroupSetting{Group: ix.system(store.NobodyGroup)}
}

// checkCanAdministerStream is the gate for changing a stream:
// administrators, and its can_administer_channel_group.
func checkCanAdministerStream(tx *store.Tx, actor store.User, st store.Stream) error {
	if isAdmin(actor) {
		return nil
	}
	allowed, err := streamAllows(tx, actor, st, SettingAdministerChannel)
	if err == nil && !allowed {
		return ErrNotAdmin
	}
	return err
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

// changeStreamGroupSettings applies group-setting changes to st and returns
// each changed one as a stream update event's property and value.
func changeStreamGroupSettings(tx *store.Tx, st *store.Stream, changes map[string]GroupSettingChange) ([]events.Event, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return nil, err
	}
	var out []events.Event
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		current := streamSetting(ix, *st, name)
		setting, err := applyChange(tx, ix, streamRule(name), current, changes[name])
		if err != nil {
			return nil, err
		}
		if sameSetting(setting, current) {
			continue
		}
		if st.GroupSettings == nil {
			st.GroupSettings = map[string]store.GroupSetting{}
		}
		st.GroupSettings[name] = setting
		out = append(out, events.Event{"property": name, "value": settingValue(setting)})
	}
	return out, nil
}

// StreamGroupSettingNames are the group settings a stream has, which
// creating and changing a stream take by name.
func StreamGroupSettingNames() []string {
	out := make([]string, 0, len(streamGroupSettings))
	for _, r := range streamGroupSettings {
		out = append(out, r.Name)
	}
	return out
}

// checkCanRemoveSubscribers is the stream's gate for unsubscribing users:
// anyone may leave; removing others takes can_remove_subscribers_group, or
// administering the stream (level 349).
func checkCanRemoveSubscribers(tx *store.Tx, actor store.User, st store.Stream, users []store.User) error {
	if !slices.ContainsFunc(users, func(u store.User) bool { return u.ID != actor.ID }) {
		return nil
	}
	if checkCanAdministerStream(tx, actor, st) == nil {
		return nil
	}
	allowed, err := streamAllows(tx, actor, st, SettingRemoveSubscribers)
	if err != nil {
		return err
	}
	if !allowed {
		return BadRequest("Insufficient permission")
	}
	return nil
}

// checkCanPostToStream is the stream's gate for sending to it:
// can_send_message_group; a bot may also post where its owner may.
func checkCanPostToStream(tx *store.Tx, sender store.User, st store.Stream) error {
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	senders := streamSetting(ix, st, SettingSendMessage)
	if ix.holds(senders, sender) {
		return nil
	}
	if sender.IsBot() && sender.BotOwnerID != 0 {
		if owner, err := tx.User(sender.BotOwnerID); err == nil && ix.holds(senders, owner) {
			return nil
		}
	}
	return BadRequest("You do not have permission to post in this channel.")
}

// checkCanAddSubscribers is the gate for subscribing others to a stream:
// the organization's can_add_subscribers_group or the stream's; the
// creator of a stream the same request creates.
func checkCanAddSubscribers(tx *store.Tx, actor store.User, st store.Stream, created bool, users []store.User) error {
	if created || !slices.ContainsFunc(users, func(u store.User) bool { return u.ID != actor.ID }) {
		return nil
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	r, err := tx.Realm()
	if err != nil {
		return err
	}
	if ix.holds(realmSetting(ix, r, SettingAddSubscribers), actor) || ix.holds(streamSetting(ix, st, SettingAddSubscribers), actor) {
		return nil
	}
	return BadRequest("Insufficient permission")
}
