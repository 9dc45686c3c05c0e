package store

import "fmt"

// UserGroup is a named set of users that can be mentioned together.
type UserGroup struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Members     []int64 `json:"members"`
}

// UserGroup loads one group by ID.
func (tx *Tx) UserGroup(id int64) (UserGroup, error) {
	var g UserGroup
	err := tx.get(bucketUserGroups, itob(id), &g)
	return g, err
}

// UserGroups lists every group in ID order.
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

// AdministratorsGroup is Zulip's system group of the organization's
// administrators (and owners), the default group allowed to remove others
// from a stream (can_remove_subscribers_group).
const AdministratorsGroup = "role:administrators"

// systemGroupKey is the meta key holding a system group's ID.
func systemGroupKey(name string) []byte { return []byte("system_group " + name) }

// SystemGroupID is the user-group ID reserved for a system group: taken
// from the groups' own sequence (so no group created by people ever has
// it) once, by the migration to schema 7, and stable from then on. Only
// AdministratorsGroup has one; there are no group records for system
// groups yet.
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
