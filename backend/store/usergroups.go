package store

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
