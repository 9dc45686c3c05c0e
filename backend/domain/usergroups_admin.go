package domain

import (
	"slices"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// groupAction loads the groups and the one to change, and checks who may
// change groups: every member, never guests (Zulip 9.0's default
// user_group_edit_policy); system groups follow roles and never change.
func groupAction(tx *store.Tx, actor store.User, id int64) (*groupIndex, store.UserGroup, error) {
	if isGuest(actor) {
		return nil, store.UserGroup{}, BadRequest("Insufficient permission")
	}
	ix, g, err := readGroup(tx, id)
	if err != nil {
		return nil, store.UserGroup{}, err
	}
	if g.System {
		return nil, store.UserGroup{}, BadRequest("Insufficient permission")
	}
	return ix, g, nil
}

// reservedGroupPrefixes begin names Zulip keeps for system groups and
// mention syntax.
var reservedGroupPrefixes = []string{"@", "role:", "user:", "stream:", "channel:"}

func checkGroupName(tx *store.Tx, name string, except int64) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return "", BadRequest("User group name must be 1 to 100 characters.")
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

// checkMembers verifies user IDs and returns them sorted without repeats.
func checkMembers(tx *store.Tx, ids []int64) ([]int64, error) {
	for _, id := range ids {
		if _, err := tx.User(id); err != nil {
			return nil, BadRequest("Invalid user ID: %d", id)
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
	// CanMention is who may mention the group; nil for the default.
	CanMention *GroupSettingValue
	// CanRemoveMembers is who else may remove members; nil for nobody.
	CanRemoveMembers *GroupSettingValue
}

var canMentionRule, canRemoveMembersRule = userGroupSettings[0], userGroupSettings[1]

// CreateUserGroup makes a group.
func (s *Service) CreateUserGroup(actor store.User, req NewUserGroup) (int64, error) {
	if isGuest(actor) {
		return 0, BadRequest("Insufficient permission")
	}
	var g store.UserGroup
	err := s.update(func(tx *store.Tx) (func(), error) {
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
		if req.CanMention != nil {
			setting, err := checkSetting(tx, ix, canMentionRule, *req.CanMention)
			if err != nil {
				return nil, err
			}
			g.CanMention = &setting
		}
		if req.CanRemoveMembers != nil {
			setting, err := checkSetting(tx, ix, canRemoveMembersRule, *req.CanRemoveMembers)
			if err != nil {
				return nil, err
			}
			g.CanRemoveMembers = &setting
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

// UserGroupChange is PATCH /user_groups/{id}: nil fields stay.
type UserGroupChange struct {
	Name, Description *string
	CanMention        *GroupSettingChange
	CanRemoveMembers  *GroupSettingChange
}

// UpdateUserGroup renames or redescribes a group, or changes who may
// mention it.
func (s *Service) UpdateUserGroup(actor store.User, id int64, ch UserGroupChange) error {
	if ch.Name == nil && ch.Description == nil && ch.CanMention == nil && ch.CanRemoveMembers == nil {
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
			g.Description, data["description"] = *ch.Description, *ch.Description
		}
		if ch.CanMention != nil {
			setting, err := applyChange(tx, ix, canMentionRule, mentionSetting(ix, g), *ch.CanMention)
			if err != nil {
				return nil, err
			}
			g.CanMention, data["can_mention_group"] = &setting, settingValue(setting)
		}
		if ch.CanRemoveMembers != nil {
			setting, err := applyChange(tx, ix, canRemoveMembersRule, removeMembersSetting(ix, g), *ch.CanRemoveMembers)
			if err != nil {
				return nil, err
			}
			g.CanRemoveMembers, data["can_remove_members_group"] = &setting, settingValue(setting)
		}
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "update", "group_id": g.ID, "data": data})
	}))
}

// DeleteUserGroup removes a group, which leaves the groups it was a
// subgroup of (clients drop it from them on the remove event). A group a
// setting names stays.
func (s *Service) DeleteUserGroup(actor store.User, id int64) error {
	return internal("delete user group", s.update(func(tx *store.Tx) (func(), error) {
		ix, _, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		if inUse, err := settingsNaming(tx, ix, id); err != nil || inUse {
			if err == nil {
				err = BadRequest("Cannot delete a user group that is used in a permission setting.")
			}
			return nil, err
		}
		for _, other := range ix.groups {
			if slices.Contains(other.Subgroups, id) {
				other.Subgroups = slices.DeleteFunc(other.Subgroups, func(sub int64) bool { return sub == id })
				if err := tx.PutUserGroup(other); err != nil {
					return nil, err
				}
			}
		}
		if err := tx.DeleteUserGroup(id); err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "remove", "group_id": id})
	}))
}

// settingsNaming tells whether any setting (the organization's, a group's
// or a stream's) holds group id.
func settingsNaming(tx *store.Tx, ix *groupIndex, id int64) (bool, error) {
	names := func(s store.GroupSetting) bool { return s.Group == id || slices.Contains(s.Subgroups, id) }
	r, err := tx.Realm()
	if err != nil {
		return false, err
	}
	for _, rule := range realmGroupSettings {
		if names(realmSetting(ix, r, rule.Name)) {
			return true, nil
		}
	}
	for _, g := range ix.groups {
		if g.ID != id && (names(mentionSetting(ix, g)) || names(removeMembersSetting(ix, g))) {
			return true, nil
		}
	}
	streams, err := tx.Streams()
	if err != nil {
		return false, err
	}
	for _, st := range streams {
		for _, setting := range st.GroupSettings {
			if names(setting) {
				return true, nil
			}
		}
	}
	return false, nil
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

// memberChangeAction is the gate for changing a group's members: those who
// may change the group, and for removals alone also can_remove_members_group.
func memberChangeAction(tx *store.Tx, actor store.User, id int64, adding bool) (store.UserGroup, error) {
	ix, g, err := readGroup(tx, id)
	if err != nil {
		return store.UserGroup{}, err
	}
	if !adding && !g.System && ix.holds(removeMembersSetting(ix, g), actor) {
		return g, nil
	}
	_, g, err = groupAction(tx, actor, id)
	return g, err
}

// UpdateGroupMembers adds and removes members in one change.
func (s *Service) UpdateGroupMembers(actor store.User, id int64, add, remove []int64) error {
	if len(add) == 0 && len(remove) == 0 {
		return BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	return internal("update group members", s.update(func(tx *store.Tx) (func(), error) {
		g, err := memberChangeAction(tx, actor, id, len(add) > 0)
		if err != nil {
			return nil, err
		}
		if add, err = checkMembers(tx, add); err != nil {
			return nil, err
		}
		if remove, err = checkMembers(tx, remove); err != nil {
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
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.memberChange(tx, g.ID, "user_ids", [2]string{"add_members", "remove_members"}, add, remove)
	}))
}

// UpdateGroupSubgroups adds and removes subgroups in one change; a group
// never comes to contain itself.
func (s *Service) UpdateGroupSubgroups(actor store.User, id int64, add, remove []int64) error {
	if len(add) == 0 && len(remove) == 0 {
		return BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	return internal("update group subgroups", s.update(func(tx *store.Tx) (func(), error) {
		ix, g, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		add, remove = sortedUnique(add), sortedUnique(remove)
		for _, sub := range append(slices.Clone(add), remove...) {
			if _, ok := ix.groups[sub]; !ok {
				return nil, BadRequest("Invalid user group ID: %d", sub)
			}
		}
		for _, sub := range add {
			if slices.Contains(g.Subgroups, sub) {
				return nil, BadRequest("User group %d is already a subgroup of this group.", sub)
			}
			if ix.reaches(sub, id) {
				return nil, BadRequest("User group %d is already a subgroup of one of the passed subgroups.", id)
			}
		}
		for _, sub := range remove {
			if !slices.Contains(g.Subgroups, sub) {
				return nil, BadRequest("User group %d is not a subgroup of this group.", sub)
			}
		}
		g.Subgroups = slices.DeleteFunc(append(g.Subgroups, add...), func(sub int64) bool { return slices.Contains(remove, sub) })
		g.Subgroups = sortedUnique(g.Subgroups)
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.memberChange(tx, g.ID, "direct_subgroup_ids", [2]string{"add_subgroups", "remove_subgroups"}, add, remove)
	}))
}
