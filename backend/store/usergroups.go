package store

import "fmt"

// UserGroup is a named set of users that can be mentioned together, or one
// of Zulip's system groups (System), whose members follow roles.
type UserGroup struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Members     []int64 `json:"members"`
	// Subgroups are the groups whose members are members of this one too.
	Subgroups []int64 `json:"subgroups,omitempty"`
	// System groups are made by the migration to schema 8 and never change;
	// their members are derived from roles, never listed in Members.
	System bool `json:"system,omitempty"`
	// CanMention says who may mention the group; nil is the default
	// (everyone for people's groups, nobody for system groups).
	CanMention *GroupSetting `json:"can_mention,omitempty"`
	// Settings are the group's other permission settings by Zulip's name
	// (can_manage_group, can_join_group, ...); an absent one is its default.
	Settings map[string]GroupSetting `json:"settings,omitempty"`
	// CreatorID and DateCreated are 0 for groups made before they were
	// recorded, and for system groups.
	CreatorID   int64 `json:"creator_id,omitempty"`
	DateCreated int64 `json:"date_created,omitempty"`
	// Deactivated groups keep their members but can no longer be used.
	Deactivated bool `json:"deactivated,omitempty"`
}

// GroupSetting is who holds a permission: a named group (Group), or a set
// of users and groups made for the setting alone (Members, Subgroups).
type GroupSetting struct {
	Group     int64   `json:"group,omitempty"`
	Members   []int64 `json:"members,omitempty"`
	Subgroups []int64 `json:"subgroups,omitempty"`
}

// UserGroup loads one group by ID.
func (tx *Tx) UserGroup(id int64) (UserGroup, error) {
	var g UserGroup
	err := tx.get(bucketUserGroups, itob(id), &g)
	return g, err
}

// UserGroups lists every group, system groups included, in ID order.
func (tx *Tx) UserGroups() ([]UserGroup, error) {
	var out []UserGroup
	err := each(tx, bucketUserGroups, func(g UserGroup) bool { out = append(out, g); return true })
	return out, err
}

// CreateUserGroup assigns the next group ID and stores the group.
func (tx *Tx) CreateUserGroup(g *UserGroup) error {
	id, err := tx.nextID(bucketUserGroups)
	if err != nil {
		return err
	}
	g.ID = id
	return tx.PutUserGroup(*g)
}

// PutUserGroup writes an existing group.
func (tx *Tx) PutUserGroup(g UserGroup) error { return tx.put(bucketUserGroups, itob(g.ID), g) }

// DeleteUserGroup removes a group.
func (tx *Tx) DeleteUserGroup(id int64) error { return tx.bucket(bucketUserGroups).Delete(itob(id)) }

// Zulip's system groups (as of Zulip 9.0), each the previous one's
// subgroup from owners up to internet; nobody stands alone.
const (
	OwnersGroup         = "role:owners"
	AdministratorsGroup = "role:administrators"
	ModeratorsGroup     = "role:moderators"
	FullMembersGroup    = "role:fullmembers"
	MembersGroup        = "role:members"
	EveryoneGroup       = "role:everyone"
	InternetGroup       = "role:internet"
	NobodyGroup         = "role:nobody"
)

// SystemGroups lists the system groups, each nested in the next (but
// NobodyGroup), with Zulip's descriptions.
var SystemGroups = []struct{ Name, Description string }{
	{OwnersGroup, "Owners of this organization"},
	{AdministratorsGroup, "Administrators of this organization, including owners"},
	{ModeratorsGroup, "Moderators of this organization, including administrators"},
	{FullMembersGroup, "Members of this organization, not including new accounts and guests"},
	{MembersGroup, "Members of this organization, not including guests"},
	{EveryoneGroup, "Everyone in this organization, including guests"},
	{InternetGroup, "Everyone on the internet"},
	{NobodyGroup, "Nobody"},
}

// systemGroupKey is the meta key holding a system group's ID.
func systemGroupKey(name string) []byte { return []byte("system_group " + name) }

// SystemGroupID is a system group's user-group ID: taken from the groups'
// own sequence (so no group created by people ever has it) once, by the
// migration to schema 7 for role:administrators and to schema 8 for the
// others, and stable from then on.
func (tx *Tx) SystemGroupID(name string) (int64, error) {
	v := tx.bucket(bucketMeta).Get(systemGroupKey(name))
	if len(v) != 8 {
		return 0, fmt.Errorf("no ID reserved for system group %s", name)
	}
	return btoi(v), nil
}

// reserveSystemGroupID takes the next user-group ID for a system group.
func (tx *Tx) reserveSystemGroupID(name string) error {
	id, err := tx.nextID(bucketUserGroups)
	if err != nil {
		return err
	}
	return tx.bucket(bucketMeta).Put(systemGroupKey(name), itob(id))
}

// createSystemGroups stores a record for each system group, with its
// subgroup, reserving the IDs not reserved yet.
func (tx *Tx) createSystemGroups() error {
	var below int64
	for _, sg := range SystemGroups {
		if _, err := tx.SystemGroupID(sg.Name); err != nil {
			if err := tx.reserveSystemGroupID(sg.Name); err != nil {
				return err
			}
		}
		id, err := tx.SystemGroupID(sg.Name)
		if err != nil {
			return err
		}
		g := UserGroup{ID: id, Name: sg.Name, Description: sg.Description, System: true}
		if below != 0 && sg.Name != NobodyGroup {
			g.Subgroups = []int64{below}
		}
		if err := tx.PutUserGroup(g); err != nil {
			return err
		}
		below = id
	}
	return nil
}
