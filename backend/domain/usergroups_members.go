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

// directMembers are a group's own members, without its subgroups'.
func (ix *groupIndex) directMembers(g store.UserGroup) ([]int64, error) {
	if !g.System {
		return nonNil(g.Members), nil
	}
	if !ix.loaded {
		users, err := ix.tx.Users()
		if err != nil {
			return nil, err
		}
		ix.users, ix.loaded = users, true
	}
	out := []int64{}
	for _, u := range ix.users {
		if slices.Contains(systemGroupRoles[g.Name], u.Role) {
			out = append(out, u.ID)
		}
	}
	return out, nil
}

// hasDirect tells whether u is one of g's own members.
func hasDirect(g store.UserGroup, u store.User) bool {
	if g.System {
		return slices.Contains(systemGroupRoles[g.Name], u.Role)
	}
	return slices.Contains(g.Members, u.ID)
}

// contains tells whether u is in group id, directly or through subgroups
// at any depth.
func (ix *groupIndex) contains(id int64, u store.User) bool {
	seen := map[int64]bool{}
	var in func(id int64) bool
	in = func(id int64) bool {
		g, ok := ix.groups[id]
		if !ok || seen[id] {
			return false
		}
		seen[id] = true
		return hasDirect(g, u) || slices.ContainsFunc(g.Subgroups, in)
	}
	return in(id)
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
	seen := map[int64]bool{}
	var walk func(id int64) bool
	walk = func(id int64) bool {
		if id == to {
			return true
		}
		if seen[id] {
			return false
		}
		seen[id] = true
		return slices.ContainsFunc(ix.groups[id].Subgroups, walk)
	}
	return walk(from)
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
