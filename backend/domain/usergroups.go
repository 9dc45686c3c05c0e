package domain

import (
	"cmp"
	"slices"

	"lanchat/backend/store"
)

// UserGroupObject is a group as the API shows it (spec 2.8 plus the fields
// Zulip clients read): system groups too, with their direct members.
type UserGroupObject struct {
	ID                 int64             `json:"id"`
	Name               string            `json:"name"`
	Description        string            `json:"description"`
	Members            []int64           `json:"members"`
	DirectSubgroupIDs  []int64           `json:"direct_subgroup_ids"`
	IsSystemGroup      bool              `json:"is_system_group"`
	CanMentionGroup    GroupSettingValue `json:"can_mention_group"`
	CanManageGroup     GroupSettingValue `json:"can_manage_group"`
	CanJoinGroup       GroupSettingValue `json:"can_join_group"`
	CanAddMembersGroup GroupSettingValue `json:"can_add_members_group"`
	CanLeaveGroup      GroupSettingValue `json:"can_leave_group"`
	// CanRemoveMembersGroup may remove members besides those who may
	// manage the group (level 324).
	CanRemoveMembersGroup GroupSettingValue `json:"can_remove_members_group"`
	// CreatorID and DateCreated are null for system groups and groups made
	// before Lanchat recorded them (level 292).
	CreatorID   *int64 `json:"creator_id"`
	DateCreated *int64 `json:"date_created"`
	Deactivated bool   `json:"deactivated"`
}

func userGroupObject(ix *groupIndex, g store.UserGroup) (UserGroupObject, error) {
	members, err := ix.directMembers(g)
	if err != nil {
		return UserGroupObject{}, err
	}
	setting := func(name string) GroupSettingValue {
		v, shownErr := ix.shown(groupSetting(ix, g, name))
		err = cmp.Or(err, shownErr)
		return v
	}
	o := UserGroupObject{ID: g.ID, Name: g.Name, Description: g.Description, Members: members,
		DirectSubgroupIDs: nonNil(g.Subgroups), IsSystemGroup: g.System,
		CanMentionGroup: setting(GroupCanMention), CanManageGroup: setting(GroupCanManage), CanJoinGroup: setting(GroupCanJoin),
		CanAddMembersGroup: setting(GroupCanAddMembers), CanLeaveGroup: setting(GroupCanLeave), CanRemoveMembersGroup: setting(GroupCanRemoveMembers), Deactivated: g.Deactivated}
	if g.CreatorID != 0 {
		o.CreatorID, o.DateCreated = &g.CreatorID, &g.DateCreated
	}
	return o, err
}

// userGroupObjects lists every group, system groups included, by ID;
// deactivated groups only when asked.
func userGroupObjects(tx *store.Tx, deactivated bool) ([]UserGroupObject, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return nil, err
	}
	out := make([]UserGroupObject, 0, len(ix.groups))
	for _, g := range ix.groups {
		if g.Deactivated && !deactivated {
			continue
		}
		o, err := userGroupObject(ix, g)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b UserGroupObject) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// UserGroups lists every group, deactivated ones when asked (levels 290,
// 294).
func (s *Service) UserGroups(viewer store.User, deactivated bool) ([]UserGroupObject, error) {
	var out []UserGroupObject
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		out, err = userGroupObjects(tx, deactivated)
		return err
	})
	return out, internal("list user groups", err)
}

// readGroup loads the group index and one group of it for a read.
func readGroup(tx *store.Tx, id int64) (*groupIndex, store.UserGroup, error) {
	ix, err := loadGroups(tx)
	if err != nil {
		return nil, store.UserGroup{}, err
	}
	g, ok := ix.groups[id]
	if !ok {
		return nil, store.UserGroup{}, BadRequest("Invalid user group")
	}
	return ix, g, nil
}

// GroupMembers lists a group's member IDs: its own, or (not directOnly)
// also its subgroups' at any depth.
func (s *Service) GroupMembers(id int64, directOnly bool) ([]int64, error) {
	var members []int64
	err := s.store.View(func(tx *store.Tx) error {
		ix, g, err := readGroup(tx, id)
		if err != nil {
			return err
		}
		if directOnly {
			members, err = ix.directMembers(g)
		} else {
			members, err = ix.members(id)
		}
		return err
	})
	return nonNil(members), internal("group members", err)
}

// IsGroupMember tells whether a user is in a group: directly, or (not
// directOnly) through its subgroups.
func (s *Service) IsGroupMember(id, userID int64, directOnly bool) (bool, error) {
	var in bool
	err := s.store.View(func(tx *store.Tx) error {
		ix, g, err := readGroup(tx, id)
		if err != nil {
			return err
		}
		u, err := tx.User(userID)
		if err != nil {
			return BadRequest("No such user")
		}
		if directOnly {
			in = hasDirect(g, u)
		} else {
			in = ix.contains(id, u)
		}
		return nil
	})
	return in, internal("group member", err)
}

// GroupSubgroups lists a group's subgroups: its own, or (not directOnly)
// theirs too at any depth.
func (s *Service) GroupSubgroups(id int64, directOnly bool) ([]int64, error) {
	var out []int64
	err := s.store.View(func(tx *store.Tx) error {
		ix, g, err := readGroup(tx, id)
		if err != nil {
			return err
		}
		if directOnly {
			out = nonNil(g.Subgroups)
			return nil
		}
		for other := range ix.groups {
			if other != id && ix.reaches(id, other) {
				out = append(out, other)
			}
		}
		out = sortedUnique(out)
		return nil
	})
	return nonNil(out), internal("group subgroups", err)
}
