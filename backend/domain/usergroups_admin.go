package domain

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// groupAction loads the groups and the one to change, and checks that the
// actor may manage it (level 283, 299, 305): through the organization's
// can_manage_all_groups or the group's can_manage_group, never as a guest;
// system groups follow roles and never change.
func groupAction(tx *store.Tx, actor store.User, id int64) (*groupIndex, store.UserGroup, error) {
	ix, g, err := groupToChange(tx, id)
	if err != nil {
		return nil, store.UserGroup{}, err
	}
	if ok, err := mayManageGroup(tx, ix, actor, g); err != nil || !ok {
		return nil, store.UserGroup{}, cmpErr(err, BadRequest("Insufficient permission"))
	}
	return ix, g, nil
}

// groupToChange loads the groups and a group that is not a system group.
func groupToChange(tx *store.Tx, id int64) (*groupIndex, store.UserGroup, error) {
	ix, g, err := readGroup(tx, id)
	if err != nil {
		return nil, store.UserGroup{}, err
	}
	if g.System {
		return nil, store.UserGroup{}, BadRequest("Insufficient permission")
	}
	return ix, g, nil
}

// mayManageGroup is the gate of a group's management.
func mayManageGroup(tx *store.Tx, ix *groupIndex, actor store.User, g store.UserGroup) (bool, error) {
	if isGuest(actor) {
		return false, nil
	}
	all, err := realmAllows(tx, actor, SettingManageAllGroups)
	return all || ix.holds(groupSetting(ix, g, GroupCanManage), actor), err
}

// reservedGroupPrefixes begin names Zulip keeps for system groups and
// mention syntax.
var reservedGroupPrefixes = []string{"@", "role:", "user:", "stream:", "channel:"}

// Limits on a group's texts: the name's is Zulip's (NamedUserGroup.
// MAX_NAME_LENGTH); Zulip sets none on the description, which every client
// receives in register, so Lanchat takes a channel description's.
const (
	MaxGroupNameLength        = 100
	MaxGroupDescriptionLength = MaxStreamDescriptionLength
)

func checkGroupName(tx *store.Tx, name string, except int64) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", BadRequest("User group name can't be empty!")
	}
	if utf8.RuneCountInString(name) > MaxGroupNameLength {
		return "", BadRequest("User group name cannot exceed %d characters.", MaxGroupNameLength)
	}
	for _, prefix := range reservedGroupPrefixes {
		if strings.HasPrefix(name, prefix) {
			return "", BadRequest("User group name cannot start with '%s'.", prefix)
		}
	}
	groups, err := tx.UserGroups()
	if err != nil {
		return "", err
	}
	for _, g := range groups {
		if g.ID != except && strings.EqualFold(g.Name, name) {
			return "", BadRequest("User group '%s' already exists.", name)
		}
	}
	return name, nil
}

// checkMembers verifies user IDs and returns them sorted without repeats:
// deactivated people can join no group (level 303).
func checkMembers(tx *store.Tx, ids []int64) ([]int64, error) {
	for _, id := range ids {
		if u, err := tx.User(id); err != nil {
			return nil, BadRequest("Invalid user ID: %d", id)
		} else if !u.IsActive {
			return nil, BadRequest("User %d is deactivated", id)
		}
	}
	return sortedUnique(ids), nil
}

// groupEvent is the one constructor of user_group events, which go to
// everyone active.
func (s *Service) groupEvent(tx *store.Tx, e events.Event) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	e["type"] = "user_group"
	return func() { s.events.Publish(e, users) }, nil
}

// NewUserGroup is POST /user_groups/create.
type NewUserGroup struct {
	Name, Description string
	Members           []int64
	// Subgroups are its subgroups from the start (level 311).
	Subgroups []int64
	// Settings are group settings by name; those absent take their default.
	Settings map[string]GroupSettingValue
}

// CreateUserGroup makes a group, for those the organization's
// can_create_groups lets (level 299). Settings whose default is the
// creator are stored as the creator's set.
func (s *Service) CreateUserGroup(actor store.User, req NewUserGroup) (int64, error) {
	g := store.UserGroup{CreatorID: actor.ID, DateCreated: s.now().Unix()}
	err := s.update(func(tx *store.Tx) (func(), error) {
		if ok, err := realmAllows(tx, actor, SettingCreateGroups); err != nil || !ok || isGuest(actor) {
			return nil, cmpErr(err, BadRequest("Insufficient permission"))
		}
		var err error
		if g.Name, err = checkGroupName(tx, req.Name, 0); err != nil {
			return nil, err
		}
		if g.Members, err = checkMembers(tx, req.Members); err != nil {
			return nil, err
		}
		ix, err := loadGroups(tx)
		if err != nil {
			return nil, err
		}
		if g.Subgroups, err = checkSubgroups(ix, req.Subgroups); err != nil {
			return nil, err
		}
		for _, rule := range userGroupSettings {
			v, given := req.Settings[rule.Name]
			if !given && rule.DefaultGroupName != groupCreator {
				continue
			}
			if !given {
				v = GroupSettingValue{Members: []int64{actor.ID}}
			}
			setting, err := checkSetting(tx, ix, rule, v)
			if err != nil {
				return nil, err
			}
			setGroupSetting(&g, rule.Name, setting)
		}
		if err := checkLength("description", req.Description, MaxGroupDescriptionLength); err != nil {
			return nil, err
		}
		g.Description = req.Description
		if err := tx.CreateUserGroup(&g); err != nil {
			return nil, err
		}
		o, err := userGroupObject(ix, g)
		if err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "add", "group": o})
	})
	return g.ID, internal("create user group", err)
}

// checkSubgroups verifies group IDs and returns them sorted without
// repeats.
func checkSubgroups(ix *groupIndex, ids []int64) ([]int64, error) {
	for _, sub := range ids {
		if _, ok := ix.groups[sub]; !ok {
			return nil, BadRequest("Invalid user group ID: %d", sub)
		}
	}
	return sortedUnique(ids), nil
}

// UserGroupChange is PATCH /user_groups/{id}: nil fields stay.
type UserGroupChange struct {
	Name, Description *string
	// Settings change group settings by name.
	Settings map[string]GroupSettingChange
}

// UpdateUserGroup renames or redescribes a group, or changes its
// settings.
func (s *Service) UpdateUserGroup(actor store.User, id int64, ch UserGroupChange) error {
	if ch.Name == nil && ch.Description == nil && len(ch.Settings) == 0 {
		return BadRequest("No new data supplied")
	}
	return internal("update user group", s.update(func(tx *store.Tx) (func(), error) {
		ix, g, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		data := map[string]any{}
		if ch.Name != nil {
			if g.Name, err = checkGroupName(tx, *ch.Name, g.ID); err != nil {
				return nil, err
			}
			data["name"] = g.Name
		}
		if ch.Description != nil {
			if err := checkLength("description", *ch.Description, MaxGroupDescriptionLength); err != nil {
				return nil, err
			}
			g.Description, data["description"] = *ch.Description, *ch.Description
		}
		for _, name := range slices.Sorted(maps.Keys(ch.Settings)) {
			setting, err := applyChange(tx, ix, userGroupRule(name), groupSetting(ix, g, name), ch.Settings[name])
			if err != nil {
				return nil, err
			}
			setGroupSetting(&g, name, setting)
			data[name] = settingValue(setting)
		}
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		e := events.Event{"op": "update", "group_id": g.ID, "data": data}
		if g.Deactivated {
			return s.deactivatedGroupEvent(tx, e, nil)
		}
		return s.groupEvent(tx, e)
	}))
}

// DeactivateUserGroup deactivates a group (level 290) that no setting
// uses (level 298). Clients that take deactivated groups hear of it as an
// update; the others as the group's removal (level 294).
func (s *Service) DeactivateUserGroup(actor store.User, id int64) error {
	return internal("deactivate user group", s.update(func(tx *store.Tx) (func(), error) {
		ix, g, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		if g.Deactivated {
			return nil, BadRequest("User group is already deactivated.")
		}
		objections, err := groupObjections(tx, ix, id)
		if err != nil {
			return nil, err
		}
		if len(objections) > 0 {
			return nil, errorf(CodeCannotDeactivateGroupInUse, "Cannot deactivate user group in use.").With("objections", objections)
		}
		g.Deactivated = true
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.deactivatedGroupEvent(tx, events.Event{"op": "update", "group_id": id, "data": map[string]any{"deactivated": true}},
			events.Event{"op": "remove", "group_id": id})
	}))
}

// deactivatedGroupEvent sends a change of a deactivated group to the
// queues that take deactivated groups, and others (when not nil) to the
// rest.
func (s *Service) deactivatedGroupEvent(tx *store.Tx, e, others events.Event) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	e["type"] = "user_group"
	takes := func(o events.QueueOptions) bool { return o.IncludeDeactivatedGroups }
	return func() {
		s.events.PublishWhere(e, users, takes)
		if others != nil {
			others["type"] = "user_group"
			s.events.PublishWhere(others, users, func(o events.QueueOptions) bool { return !takes(o) })
		}
	}, nil
}

// groupObjections are the settings that use group id, directly or in a
// set, as CANNOT_DEACTIVATE_GROUP_IN_USE lists them: the organization's,
// other groups' by group and streams' by channel.
func groupObjections(tx *store.Tx, ix *groupIndex, id int64) ([]map[string]any, error) {
	names := func(s store.GroupSetting) bool { return s.Group == id || slices.Contains(s.Subgroups, id) }
	r, err := tx.Realm()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	var realm []string
	for _, rule := range realmGroupSettings {
		if names(realmSetting(ix, r, rule.Name)) {
			realm = append(realm, rule.Name)
		}
	}
	if len(realm) > 0 {
		out = append(out, map[string]any{"type": "realm", "settings": realm})
	}
	for _, gid := range slices.Sorted(maps.Keys(ix.groups)) {
		g := ix.groups[gid]
		var used []string
		for _, rule := range userGroupSettings {
			if gid != id && !g.Deactivated && names(groupSetting(ix, g, rule.Name)) {
				used = append(used, rule.Name)
			}
		}
		if len(used) > 0 {
			out = append(out, map[string]any{"type": "user_group", "group_id": gid, "settings": used})
		}
	}
	streams, err := tx.Streams()
	if err != nil {
		return nil, err
	}
	for _, st := range streams {
		var used []string
		for _, name := range slices.Sorted(maps.Keys(st.GroupSettings)) {
			if !st.Deactivated && names(st.GroupSettings[name]) {
				used = append(used, name)
			}
		}
		if len(used) > 0 {
			out = append(out, map[string]any{"type": "channel", "channel_id": st.ID, "settings": used})
		}
	}
	return out, nil
}

// memberChange is an add and a remove of members or subgroups, published
// as its two events.
func (s *Service) memberChange(tx *store.Tx, id int64, field string, ops [2]string, add, remove []int64) (func(), error) {
	var out deliveries
	for i, ids := range [][]int64{add, remove} {
		if len(ids) > 0 {
			publish, err := s.groupEvent(tx, events.Event{"op": ops[i], "group_id": id, field: ids})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
	}
	return out.publish, nil
}

// UpdateGroupMembers adds and removes members, and (level 311)
// subgroups, in one change. Those who may manage the group may do any of
// it; others may add members through can_add_members_group, join
// through can_join_group (level 301) and leave through can_leave_group
// (level 308).
func (s *Service) UpdateGroupMembers(actor store.User, id int64, ch GroupMembersChange) error {
	if len(ch.Add) == 0 && len(ch.Remove) == 0 && len(ch.AddSubgroups) == 0 && len(ch.RemoveSubgroups) == 0 {
		return BadRequest("Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".")
	}
	return internal("update group members", s.update(func(tx *store.Tx) (func(), error) {
		ix, g, err := groupToChange(tx, id)
		if err != nil {
			return nil, err
		}
		if err := mayChangeMembers(tx, ix, actor, g, ch); err != nil {
			return nil, err
		}
		add, err := checkMembers(tx, ch.Add)
		if err != nil {
			return nil, err
		}
		remove, err := checkMembers(tx, ch.Remove)
		if err != nil {
			return nil, err
		}
		for _, uid := range add {
			if slices.Contains(g.Members, uid) {
				return nil, BadRequest("User %d is already a member of this group", uid)
			}
		}
		for _, uid := range remove {
			if !slices.Contains(g.Members, uid) {
				return nil, BadRequest("There is no member '%d' in this user group", uid)
			}
		}
		g.Members = slices.DeleteFunc(append(g.Members, add...), func(uid int64) bool { return slices.Contains(remove, uid) })
		g.Members = sortedUnique(g.Members)
		addSubs, removeSubs, err := changeSubgroups(ix, &g, ch.AddSubgroups, ch.RemoveSubgroups)
		if err != nil {
			return nil, err
		}
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		members, err := s.memberChange(tx, g.ID, "user_ids", [2]string{"add_members", "remove_members"}, add, remove)
		if err != nil {
			return nil, err
		}
		subgroups, err := s.memberChange(tx, g.ID, "direct_subgroup_ids", [2]string{"add_subgroups", "remove_subgroups"}, addSubs, removeSubs)
		return deliveries{members, subgroups}.publish, err
	}))
}

// GroupMembersChange is POST /user_groups/{id}/members.
type GroupMembersChange struct {
	Add, Remove, AddSubgroups, RemoveSubgroups []int64
}

// mayChangeMembers is the gate of a change of a group's members.
func mayChangeMembers(tx *store.Tx, ix *groupIndex, actor store.User, g store.UserGroup, ch GroupMembersChange) error {
	manage, err := mayManageGroup(tx, ix, actor, g)
	if err != nil || manage {
		return err
	}
	self := func(ids []int64) bool { return len(ids) == 0 || slices.Equal(sortedUnique(ids), []int64{actor.ID}) }
	holds := func(name string) bool { return ix.holds(groupSetting(ix, g, name), actor) }
	addOK := len(ch.Add) == 0 || holds(GroupCanAddMembers) || (self(ch.Add) && holds(GroupCanJoin))
	removeOK := len(ch.Remove) == 0 || (self(ch.Remove) && holds(GroupCanLeave)) || holds(GroupCanRemoveMembers)
	if !addOK || !removeOK || len(ch.AddSubgroups) > 0 || len(ch.RemoveSubgroups) > 0 {
		return BadRequest("Insufficient permission")
	}
	return nil
}

// UpdateGroupSubgroups adds and removes subgroups in one change.
func (s *Service) UpdateGroupSubgroups(actor store.User, id int64, add, remove []int64) error {
	if len(add) == 0 && len(remove) == 0 {
		return BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	return internal("update group subgroups", s.update(func(tx *store.Tx) (func(), error) {
		ix, g, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		if add, remove, err = changeSubgroups(ix, &g, add, remove); err != nil {
			return nil, err
		}
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.memberChange(tx, g.ID, "direct_subgroup_ids", [2]string{"add_subgroups", "remove_subgroups"}, add, remove)
	}))
}

// changeSubgroups adds and removes subgroups of g; a group never comes to
// contain itself. It returns the checked lists.
func changeSubgroups(ix *groupIndex, g *store.UserGroup, add, remove []int64) ([]int64, []int64, error) {
	add, remove = sortedUnique(add), sortedUnique(remove)
	for _, sub := range append(slices.Clone(add), remove...) {
		if _, ok := ix.groups[sub]; !ok {
			return nil, nil, BadRequest("Invalid user group ID: %d", sub)
		}
	}
	for _, sub := range add {
		if slices.Contains(g.Subgroups, sub) {
			return nil, nil, BadRequest("User group %d is already a subgroup of this group.", sub)
		}
		if ix.reaches(sub, g.ID) {
			return nil, nil, BadRequest("User group %d is already a subgroup of one of the passed subgroups.", g.ID)
		}
	}
	for _, sub := range remove {
		if !slices.Contains(g.Subgroups, sub) {
			return nil, nil, BadRequest("User group %d is not a subgroup of this group.", sub)
		}
	}
	g.Subgroups = slices.DeleteFunc(append(g.Subgroups, add...), func(sub int64) bool { return slices.Contains(remove, sub) })
	g.Subgroups = sortedUnique(g.Subgroups)
	return add, remove, nil
}
