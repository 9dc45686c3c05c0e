package domain

import (
	"encoding/json"
	"slices"

	"lanchat/backend/store"
)

// groupSettingRule is one group-based permission setting as Zulip defines
// it: its default and which groups it may be set to. register's
// server_supported_permission_settings shows them (in level 326's form).
type groupSettingRule struct {
	Name string `json:"-"`
	// AnyGroup settings take any group-setting value (a group or a set of
	// users and groups) and PATCH takes them as {"new", "old"}; the others
	// take a system group's ID under IDFieldName.
	AnyGroup           bool   `json:"-"`
	RequireSystemGroup bool   `json:"require_system_group"`
	AllowInternetGroup bool   `json:"allow_internet_group"`
	AllowNobodyGroup   bool   `json:"allow_nobody_group"`
	AllowEveryoneGroup bool   `json:"allow_everyone_group"`
	DefaultGroupName   string `json:"default_group_name"`
	// IDFieldName is the PATCH parameter of a setting that takes only a
	// group's ID (clients no longer see it since level 326).
	IDFieldName            string   `json:"-"`
	DefaultForSystemGroups *string  `json:"default_for_system_groups"`
	AllowedSystemGroups    []string `json:"allowed_system_groups"`
}

// Settings of the organization.
const (
	SettingCreateMultiuseInvite   = "create_multiuse_invite_group"
	SettingCanAccessAllUsers      = "can_access_all_users_group"
	SettingCreatePublicChannel    = "can_create_public_channel_group"
	SettingCreatePrivateChannel   = "can_create_private_channel_group"
	SettingDirectMessageInitiator = "direct_message_initiator_group"
	SettingDirectMessagePermitted = "direct_message_permission_group"
	SettingMoveBetweenTopics      = "can_move_messages_between_topics_group"
	SettingInviteUsers            = "can_invite_users_group"
	SettingMentionManyUsers       = "can_mention_many_users_group"
	SettingSummarizeTopics        = "can_summarize_topics_group"
	SettingManageBilling          = "can_manage_billing_group"
	SettingResolveTopics          = "can_resolve_topics_group"
	SettingAddSubscribers         = "can_add_subscribers_group"
	SettingCreateBots             = "can_create_bots_group"
	SettingCreateWriteOnlyBots    = "can_create_write_only_bots_group"
	SettingCreateWebPublicChannel = "can_create_web_public_channel_group"
	SettingDeleteAnyMessage       = "can_delete_any_message_group"
	SettingCreateGroups           = "can_create_groups"
	SettingDeleteOwnMessage       = "can_delete_own_message_group"
	SettingAddCustomEmoji         = "can_add_custom_emoji_group"
	SettingMoveBetweenChannels    = "can_move_messages_between_channels_group"
	SettingManageAllGroups        = "can_manage_all_groups"
)

// Settings of a user group.
const (
	GroupCanMention       = "can_mention_group"
	GroupCanManage        = "can_manage_group"
	GroupCanJoin          = "can_join_group"
	GroupCanAddMembers    = "can_add_members_group"
	GroupCanLeave         = "can_leave_group"
	GroupCanRemoveMembers = "can_remove_members_group"
)

// groupCreator is Zulip's default_group_name for a setting whose default
// is the set of the group's creator alone.
const groupCreator = "group_creator"

// Settings of a stream.
const (
	SettingRemoveSubscribers = "can_remove_subscribers_group"
	SettingCanSubscribe      = "can_subscribe_group"
	SettingAdministerChannel = "can_administer_channel_group"
	SettingSendMessage       = "can_send_message_group"
)

// streamCreatorOrNobody is Zulip's name for the default of
// can_administer_channel_group, which is no system group.
const streamCreatorOrNobody = "stream_creator_or_nobody"

var nobodyForSystemGroups = store.NobodyGroup

// realmGroupSettings, streamGroupSettings and userGroupSettings are every
// group setting of each object Lanchat has at feature level 277.
var (
	realmGroupSettings = []groupSettingRule{
		// Both take {"new", "old"} and (the first) sets since level 314.
		{Name: SettingCreateMultiuseInvite, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "create_multiuse_invite_group_id", AllowedSystemGroups: []string{}},
		// Only role:everyone: Lanchat does not limit whom guests can see,
		// which role:members would ask for (as on Zulip Cloud's free plan).
		{Name: SettingCanAccessAllUsers, AnyGroup: true, RequireSystemGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_access_all_users_group_id", AllowedSystemGroups: []string{store.EveryoneGroup}},
		{Name: SettingCreatePublicChannel, AnyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_create_public_channel_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingCreatePrivateChannel, AnyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_create_private_channel_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingDirectMessageInitiator, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "direct_message_initiator_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingDirectMessagePermitted, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "direct_message_permission_group_id", AllowedSystemGroups: []string{}},
		// Administrators by default, not Zulip's everyone: Lanchat's rule
		// lets only a message's sender and administrators move its topic.
		{Name: SettingMoveBetweenTopics, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_move_messages_between_topics_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingInviteUsers, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_invite_users_group_id", AllowedSystemGroups: []string{}},
		// Levels 350, 352, 363 and 367 (Zulip 10.0). Wildcard mentions in
		// large channels default to everyone, Lanchat's policy before 352.
		{Name: SettingMentionManyUsers, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_mention_many_users_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingSummarizeTopics, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_summarize_topics_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingManageBilling, AnyGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_manage_billing_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingResolveTopics, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_resolve_topics_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingAddSubscribers, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_add_subscribers_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingCreateBots, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_create_bots_group_id", AllowedSystemGroups: []string{}},
		// Incoming webhook bots, which only send, besides can_create_bots_group.
		{Name: SettingCreateWriteOnlyBots, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_create_write_only_bots_group_id", AllowedSystemGroups: []string{}},
		// Level 280; it has no effect, as Lanchat has no web-public channels.
		{Name: SettingCreateWebPublicChannel, AnyGroup: true, RequireSystemGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.OwnersGroup, IDFieldName: "can_create_web_public_channel_group_id",
			AllowedSystemGroups: []string{store.ModeratorsGroup, store.AdministratorsGroup, store.OwnersGroup, store.NobodyGroup}},
		// Level 281.
		{Name: SettingDeleteAnyMessage, AnyGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_delete_any_message_group_id", AllowedSystemGroups: []string{}},
		// Level 291; administrators, as under the delete_own_message_policy
		// Lanchat had.
		{Name: SettingDeleteOwnMessage, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_delete_own_message_group_id", AllowedSystemGroups: []string{}},
		// Level 307.
		{Name: SettingAddCustomEmoji, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_add_custom_emoji_group_id", AllowedSystemGroups: []string{}},
		// Level 310; administrators, as Lanchat had it.
		{Name: SettingMoveBetweenChannels, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_move_messages_between_channels_group_id", AllowedSystemGroups: []string{}},
		// Level 299. Who may manage every group is members, as under the
		// user_group_edit_policy Lanchat had (Zulip's migration's value).
		{Name: SettingCreateGroups, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_create_groups_id", AllowedSystemGroups: []string{}},
		{Name: SettingManageAllGroups, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.MembersGroup, IDFieldName: "can_manage_all_groups_id", AllowedSystemGroups: []string{}},
	}
	streamGroupSettings = []groupSettingRule{
		// Any group-setting value since level 320.
		{Name: SettingRemoveSubscribers, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.AdministratorsGroup, IDFieldName: "can_remove_subscribers_group_id", AllowedSystemGroups: []string{}},
		// Level 357: who may subscribe themselves, private streams too.
		{Name: SettingCanSubscribe, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.NobodyGroup, IDFieldName: "can_subscribe_group_id", AllowedSystemGroups: []string{}},
		// A new stream's creator, as Zulip's; nobody for a stream without
		// one (administrators administer every stream).
		{Name: SettingAdministerChannel, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: streamCreatorOrNobody, IDFieldName: "can_administer_channel_group_id", AllowedSystemGroups: []string{}},
		{Name: SettingSendMessage, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_send_message_group_id", AllowedSystemGroups: []string{}},
		// Besides the organization's can_add_subscribers_group.
		{Name: SettingAddSubscribers, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.NobodyGroup, IDFieldName: "can_add_subscribers_group_id", AllowedSystemGroups: []string{}},
	}
	userGroupSettings = []groupSettingRule{
		{Name: "can_mention_group", AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_mention_group_id",
			DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
		// Levels 283, 301, 305, 308.
		{Name: GroupCanManage, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: groupCreator, IDFieldName: "can_manage_group_id",
			DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
		{Name: GroupCanJoin, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.NobodyGroup, IDFieldName: "can_join_group_id",
			DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
		{Name: GroupCanAddMembers, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: groupCreator, IDFieldName: "can_add_members_group_id",
			DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
		{Name: GroupCanLeave, AnyGroup: true, AllowNobodyGroup: true, AllowEveryoneGroup: true,
			DefaultGroupName: store.EveryoneGroup, IDFieldName: "can_leave_group_id",
			DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
		{Name: GroupCanRemoveMembers, AnyGroup: true, AllowNobodyGroup: true,
			DefaultGroupName: store.NobodyGroup, IDFieldName: "can_remove_members_group_id", DefaultForSystemGroups: &nobodyForSystemGroups, AllowedSystemGroups: []string{}},
	}
)

// realmRule is the organization's setting by name.
func realmRule(name string) groupSettingRule {
	i := slices.IndexFunc(realmGroupSettings, func(r groupSettingRule) bool { return r.Name == name })
	return realmGroupSettings[i]
}

// permissionSettingsState is register's server_supported_permission_settings,
// without allow_owners_group and id_field_name since level 326.
func permissionSettingsState() (map[string]any, error) {
	out := map[string]any{}
	for object, rules := range map[string][]groupSettingRule{"realm": realmGroupSettings, "stream": streamGroupSettings, "group": userGroupSettings} {
		byName := map[string]map[string]any{}
		for _, r := range rules {
			m, err := ToMap(r)
			if err != nil {
				return nil, err
			}
			byName[r.Name] = m
		}
		out[object] = byName
	}
	return out, nil
}

// GroupSettingValue is a group-setting value as the API shows it: a
// group's ID, or {"direct_members", "direct_subgroups"} for a set made for
// the setting alone.
type GroupSettingValue struct {
	Group     int64
	Members   []int64
	Subgroups []int64
}

func (v GroupSettingValue) MarshalJSON() ([]byte, error) {
	if v.Group != 0 {
		return json.Marshal(v.Group)
	}
	return json.Marshal(map[string][]int64{"direct_members": nonNil(v.Members), "direct_subgroups": nonNil(v.Subgroups)})
}

// GroupSettingChange is an update of a group setting (Zulip 9.0's
// {"new", "old"}): New replaces the value if Old, when given, is the
// current one.
type GroupSettingChange struct {
	New GroupSettingValue
	Old *GroupSettingValue
}

func settingValue(s store.GroupSetting) GroupSettingValue {
	return GroupSettingValue{Group: s.Group, Members: s.Members, Subgroups: s.Subgroups}
}

// realmSetting is the organization's value of a setting, its default when
// never set.
func realmSetting(ix *groupIndex, r store.Realm, name string) store.GroupSetting {
	if s, ok := r.GroupSettings[name]; ok {
		return s
	}
	if name == SettingMentionManyUsers && r.WildcardMentionPolicy != 0 {
		// Set before level 352 as wildcard_mention_policy.
		return store.GroupSetting{Group: ix.system(wildcardPolicyGroups[r.WildcardMentionPolicy])}
	}
	// The emoji policy an organization had before (or an import brought)
	// stands until the setting is changed.
	if name == SettingAddCustomEmoji && r.EmojiAddPolicy == "admins" {
		return store.GroupSetting{Group: ix.system(store.AdministratorsGroup)}
	}
	return store.GroupSetting{Group: ix.system(realmRule(name).DefaultGroupName)}
}

// mentionSetting is who may mention a group.
func mentionSetting(ix *groupIndex, g store.UserGroup) store.GroupSetting {
	return groupSetting(ix, g, GroupCanMention)
}

// userGroupRule is a group setting's rule by name.
func userGroupRule(name string) groupSettingRule {
	i := slices.IndexFunc(userGroupSettings, func(r groupSettingRule) bool { return r.Name == name })
	return userGroupSettings[i]
}

// groupSetting is a group's value of a setting: as set, else nobody for
// system groups, else the rule's default (the creator's set is stored when
// a group is made, so a group made before it was recorded has nobody).
func groupSetting(ix *groupIndex, g store.UserGroup, name string) store.GroupSetting {
	if name == GroupCanMention && g.CanMention != nil {
		return *g.CanMention
	}
	if v, ok := g.Settings[name]; ok {
		return v
	}
	def := userGroupRule(name).DefaultGroupName
	if g.System || def == groupCreator {
		def = store.NobodyGroup
	}
	return store.GroupSetting{Group: ix.system(def)}
}

// setGroupSetting stores a group's value of a setting.
func setGroupSetting(g *store.UserGroup, name string, v store.GroupSetting) {
	if name == GroupCanMention {
		g.CanMention = &v
		return
	}
	if g.Settings == nil {
		g.Settings = map[string]store.GroupSetting{}
	}
	g.Settings[name] = v
}

// UserGroupSettingNames are the group settings POST /user_groups/create
// and PATCH /user_groups/{id} take.
func UserGroupSettingNames() []string {
	out := make([]string, len(userGroupSettings))
	for i, r := range userGroupSettings {
		out[i] = r.Name
	}
	return out
}

// checkSetting validates a new value of a setting under its rule and
// returns it in its stored form: a set of exactly one group and nobody
// else is that group, and an empty set is role:nobody, as in Zulip.
func checkSetting(tx *store.Tx, ix *groupIndex, rule groupSettingRule, v GroupSettingValue) (store.GroupSetting, error) {
	if v.Group == 0 {
		switch {
		case len(v.Members) == 0 && len(v.Subgroups) == 1:
			v = GroupSettingValue{Group: v.Subgroups[0]}
		case len(v.Members) == 0 && len(v.Subgroups) == 0:
			v = GroupSettingValue{Group: ix.system(store.NobodyGroup)}
		}
	}
	if v.Group != 0 {
		g, ok := ix.groups[v.Group]
		if !ok {
			return store.GroupSetting{}, BadRequest("Invalid user group")
		}
		if err := checkSettingGroup(rule, g); err != nil {
			return store.GroupSetting{}, err
		}
		return store.GroupSetting{Group: g.ID}, nil
	}
	if !rule.AnyGroup || rule.RequireSystemGroup {
		return store.GroupSetting{}, BadRequest("'%s' must be a system user group.", rule.Name)
	}
	members, err := checkMembers(tx, v.Members)
	if err != nil {
		return store.GroupSetting{}, err
	}
	subgroups := sortedUnique(v.Subgroups)
	for _, id := range subgroups {
		g, ok := ix.groups[id]
		if !ok {
			return store.GroupSetting{}, BadRequest("Invalid user group ID: %d", id)
		}
		if err := checkSettingGroup(rule, g); err != nil {
			return store.GroupSetting{}, err
		}
	}
	return store.GroupSetting{Members: members, Subgroups: subgroups}, nil
}

// checkSettingGroup applies a rule's limits on the groups a setting names.
func checkSettingGroup(rule groupSettingRule, g store.UserGroup) error {
	if !g.System {
		if rule.RequireSystemGroup {
			return BadRequest("'%s' must be a system user group.", rule.Name)
		}
		return nil
	}
	// role:owners is allowed everywhere since level 326.
	allowed := map[string]bool{store.InternetGroup: rule.AllowInternetGroup,
		store.NobodyGroup: rule.AllowNobodyGroup, store.EveryoneGroup: rule.AllowEveryoneGroup}
	if ok, limited := allowed[g.Name]; (limited && !ok) || (len(rule.AllowedSystemGroups) > 0 && !slices.Contains(rule.AllowedSystemGroups, g.Name)) {
		return BadRequest("'%s' setting cannot be set to '%s' group.", rule.Name, g.Name)
	}
	return nil
}

// sameSetting compares two values as sets.
func sameSetting(a, b store.GroupSetting) bool {
	return a.Group == b.Group && slices.Equal(sortedUnique(a.Members), sortedUnique(b.Members)) &&
		slices.Equal(sortedUnique(a.Subgroups), sortedUnique(b.Subgroups))
}

// applyChange checks an update against the current value (Zulip's
// race-resistant "old") and returns the new stored value.
func applyChange(tx *store.Tx, ix *groupIndex, rule groupSettingRule, current store.GroupSetting, ch GroupSettingChange) (store.GroupSetting, error) {
	if ch.Old != nil {
		old, err := checkSetting(tx, ix, rule, *ch.Old)
		if err != nil || !sameSetting(old, current) {
			return store.GroupSetting{}, errorf(CodeExpectationMismatch, "'old' value does not match the expected value.")
		}
	}
	return checkSetting(tx, ix, rule, ch.New)
}
