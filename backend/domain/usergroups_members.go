package domain

import (
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// systemGroupRoles says whose role makes them a direct member of each
// system group, as in Zulip: every person is a direct member of their
// role's group (members of role:fullmembers too, as the waiting period is
// none), and the groups nest from owners up to internet.
var systemGroupRoles = map[string][]int{
	store.OwnersGroup:         {store.RoleOwner},
	store.AdministratorsGroup: {store.RoleAdmin},
	store.ModeratorsGroup:     {store.RoleModerator},
	store.FullMembersGroup:    {store.RoleMember},
	store.MembersGroup:        {store.RoleMember},
	store.EveryoneGroup:       {store.RoleGuest},
}

// systemGroupsOfRole names the system groups a role makes one a direct
// member of.
func systemGroupsOfRole(role int) []string {
	var names []string
	for _, sg := range store.SystemGroups {
		if slices.Contains(systemGroupRoles[sg.Name], role) {
			names = append(names, sg.Name)
		}
	}
	return names
}

// groupIndex answers who is in which group from one transaction: every
// group loaded once, users only when a system group's members are listed.
type groupIndex struct {
	tx     *store.Tx
	groups map[int64]store.UserGroup
	byName map[string]int64
	users  []store.User
	active map[int64]bool
	loaded bool
}

func loadGroups(tx *store.Tx) (*groupIndex, error) {
	all, err := tx.UserGroups()
	if err != nil {
		return nil, err
	}
	ix := &groupIndex{tx: tx, groups: make(map[int64]store.UserGroup, len(all)), byName: map[string]int64{}}
	for _, g := range all {
		ix.groups[g.ID] = g
		if g.System {
			ix.byName[g.Name] = g.ID
		}
	}
	return ix, nil
}

// system is a system group's ID by name.
func (ix *groupIndex) system(name string) int64 { return ix.byName[name] }

// directMembers are a group's own members, without its subgroups', and
// never deactivated people (level 303).
func (ix *groupIndex) directMembers(g store.UserGroup) ([]int64, error) {
	if err := ix.loadUsers(); err != nil {
		return nil, err
	}
	out := []int64{}
	if !g.System {
		for _, id := range g.Members {
			if ix.active[id] {
				out = append(out, id)
			}
		}
		return out, nil
	}
	for _, u := range ix.users {
		if u.IsActive && slices.Contains(systemGroupRoles[g.Name], u.Role) {
			out = append(out, u.ID)
		}
	}
	return out, nil
}

// loadUsers reads everyone once, for listing members.
func (ix *groupIndex) loadUsers() error {
	if ix.loaded {
		return nil
	}
	users, err := ix.tx.Users()
	if err != nil {
		return err
	}
	ix.users, ix.active, ix.loaded = users, map[int64]bool{}, true
	for _, u := range users {
		ix.active[u.ID] = u.IsActive
	}
	return nil
}

// shown is a setting's value as register and events show it: a set's
// deactivated people left out (level 303).
func (ix *groupIndex) shown(s store.GroupSetting) (GroupSettingValue, error) {
	v := settingValue(s)
	if v.Group != 0 || len(v.Members) == 0 {
		return v, nil
	}
	if err := ix.loadUsers(); err != nil {
		return v, err
	}
	v.Members = slices.DeleteFunc(slices.Clone(v.Members), func(id int64) bool { return !ix.active[id] })
	return v, nil
}

// hasDirect tells whether u is one of g's own members; deactivated people
// are in no group.
func hasDirect(g store.UserGroup, u store.User) bool {
	if !u.IsActive {
		return false
	}
	if g.System {
		return slices.Contains(systemGroupRoles[g.Name], u.Role)
	}
	return slices.Contains(g.Members, u.ID)
}

// contains tells whether u is in group id, directly or through subgroups
// at any depth.
func (ix *groupIndex) contains(id int64, u store.User) bool {
	return ix.someReachable(id, func(g store.UserGroup) bool { return hasDirect(g, u) })
}

// someReachable tells whether pred holds for group id or one of its
// subgroups at any depth.
func (ix *groupIndex) someReachable(id int64, pred func(store.UserGroup) bool) bool {
	seen := map[int64]bool{}
	var walk func(id int64) bool
	walk = func(id int64) bool {
		g, ok := ix.groups[id]
		if !ok || seen[id] {
			return false
		}
		seen[id] = true
		return pred(g) || slices.ContainsFunc(g.Subgroups, walk)
	}
	return walk(id)
}

// members lists everyone in group id, through subgroups at any depth,
// sorted.
func (ix *groupIndex) members(id int64) ([]int64, error) {
	seen := map[int64]bool{}
	var out []int64
	var walk func(id int64) error
	walk = func(id int64) error {
		g, ok := ix.groups[id]
		if !ok || seen[id] {
			return nil
		}
		seen[id] = true
		direct, err := ix.directMembers(g)
		if err != nil {
			return err
		}
		out = append(out, direct...)
		for _, sub := range g.Subgroups {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(id); err != nil {
		return nil, err
	}
	return sortedUnique(out), nil
}

// holds tells whether u holds a permission given by a setting.
func (ix *groupIndex) holds(setting store.GroupSetting, u store.User) bool {
	if setting.Group != 0 {
		return ix.contains(setting.Group, u)
	}
	return slices.Contains(setting.Members, u.ID) || slices.ContainsFunc(setting.Subgroups, func(id int64) bool { return ix.contains(id, u) })
}

// reaches tells whether group to is group from or one of its subgroups at
// any depth.
func (ix *groupIndex) reaches(from, to int64) bool {
	return ix.someReachable(from, func(g store.UserGroup) bool { return g.ID == to })
}

// systemGroupMoves announces a person leaving the system groups named in
// from and joining those in to (a role change; a new person's from is
// none), as Zulip does: remove_members, then add_members, per group.
func (s *Service) systemGroupMoves(tx *store.Tx, userID int64, from, to []string) (deliveries, error) {
	var out deliveries
	for i, names := range [][]string{
		slices.DeleteFunc(slices.Clone(from), func(n string) bool { return slices.Contains(to, n) }),
		slices.DeleteFunc(slices.Clone(to), func(n string) bool { return slices.Contains(from, n) }),
	} {
		op := [2]string{"remove_members", "add_members"}[i]
		for _, name := range names {
			id, err := tx.SystemGroupID(name)
			if err != nil {
				return nil, err
			}
			publish, err := s.groupEvent(tx, events.Event{"op": op, "group_id": id, "user_ids": []int64{userID}})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
	}
	return out, nil
}

// activationGroupEvents announce a person leaving every group they are a
// direct member of when deactivated, and coming back when reactivated
// (level 303): the system groups of their role and the groups that list
// them.
func (s *Service) activationGroupEvents(tx *store.Tx, u store.User, active bool) (deliveries, error) {
	roleGroups := systemGroupsOfRole(u.Role)
	from, to := roleGroups, []string(nil)
	op := "remove_members"
	if active {
		from, to, op = nil, roleGroups, "add_members"
	}
	out, err := s.systemGroupMoves(tx, u.ID, from, to)
	if err != nil {
		return nil, err
	}
	groups, err := tx.UserGroups()
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		if !g.System && slices.Contains(g.Members, u.ID) {
			publish, err := s.groupEvent(tx, events.Event{"op": op, "group_id": g.ID, "user_ids": []int64{u.ID}})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
	}
	return out, nil
}
