package domain

import (
	"maps"
	"slices"

	"lanchat/backend/store"
)

// changeRealmGroupSettings applies PATCH /realm's group settings to r and
// returns each changed one as its realm update_dict event's data.
func changeRealmGroupSettings(tx *store.Tx, r *store.Realm, changes map[string]GroupSettingChange) ([]map[string]any, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		rule := realmRule(name)
		current := realmSetting(ix, *r, name)
		setting, err := applyChange(tx, ix, rule, current, changes[name])
		if err != nil {
			return nil, err
		}
		if sameSetting(setting, current) {
			continue
		}
		if r.GroupSettings == nil {
			r.GroupSettings = map[string]store.GroupSetting{}
		}
		r.GroupSettings[name] = setting
		out = append(out, map[string]any{name: settingValue(setting)})
	}
	return out, nil
}

// realmAllows is the organization's permission gate: whether u holds the
// named group setting.
func realmAllows(tx *store.Tx, u store.User, name string) (bool, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return false, err
	}
	r, err := tx.Realm()
	if err != nil {
		return false, err
	}
	return ix.holds(realmSetting(ix, r, name), u), nil
}

// realmGroupSettingsState adds register's realm_<setting> for each group
// setting, the policies the channel-creation settings replaced (the
// smallest policy that includes everyone allowed), and
// server_supported_permission_settings.
func realmGroupSettingsState(tx *store.Tx, r store.Realm, state map[string]any) error {
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	for _, rule := range realmGroupSettings {
		if state["realm_"+rule.Name], err = ix.shown(realmSetting(ix, r, rule.Name)); err != nil {
			return err
		}
	}
	state["realm_create_public_stream_policy"] = approximatePolicy(ix, realmSetting(ix, r, SettingCreatePublicChannel))
	state["realm_create_private_stream_policy"] = approximatePolicy(ix, realmSetting(ix, r, SettingCreatePrivateChannel))
	state["realm_wildcard_mention_policy"] = wildcardMentionPolicy(ix, realmSetting(ix, r, SettingMentionManyUsers))
	state["realm_create_web_public_stream_policy"] = webPublicPolicy(ix, realmSetting(ix, r, SettingCreateWebPublicChannel))
	state["server_supported_permission_settings"], err = permissionSettingsState()
	return err
}

// approximatePolicy is the policy number (1 members, 2 administrators,
// 3 full members, 4 moderators) closest to a setting that allows at least
// everyone it does: a set of users or groups is members. A stream's
// stream_post_policy has the same numbers (its 1 is everyone).
func approximatePolicy(ix *groupIndex, s store.GroupSetting) int {
	if s.Group == 0 {
		return 1
	}
	switch ix.groups[s.Group].Name {
	case store.OwnersGroup, store.AdministratorsGroup, store.NobodyGroup:
		return 2
	case store.ModeratorsGroup:
		return 4
	case store.FullMembersGroup:
		return 3
	}
	return 1
}

// webPublicPolicy is create_web_public_stream_policy's number for a
// system group (2 administrators, 4 moderators, 6 nobody, 7 owners), the
// only values can_create_web_public_channel_group takes.
func webPublicPolicy(ix *groupIndex, s store.GroupSetting) int {
	switch ix.groups[s.Group].Name {
	case store.ModeratorsGroup:
		return 4
	case store.NobodyGroup:
		return 6
	case store.OwnersGroup:
		return 7
	}
	return 2
}

// RealmGroupSettingNames are PATCH /realm's group-setting parameters,
// each taken as {"new", "old"} under its name (every one since level 314).
func RealmGroupSettingNames() []string {
	out := make([]string, 0, len(realmGroupSettings))
	for _, r := range realmGroupSettings {
		out = append(out, r.Name)
	}
	return out
}
