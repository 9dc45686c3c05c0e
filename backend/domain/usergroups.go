package domain

import (
	"lanchat/backend/store"
)

// UserGroupObject is a group as the API shows it (spec 2.8 plus the fields
// Zulip clients read).
type UserGroupObject struct {
	ID                int64   `json:"id"`
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	Members           []int64 `json:"members"`
	DirectSubgroupIDs []int64 `json:"direct_subgroup_ids"`
	IsSystemGroup     bool    `json:"is_system_group"`
	Deactivated       bool    `json:"deactivated"`
}

func userGroupObject(g store.UserGroup) UserGroupObject {
	members := g.Members
	if members == nil {
		members = []int64{}
	}
	return UserGroupObject{ID: g.ID, Name: g.Name, Description: g.Description, Members: members, DirectSubgroupIDs: []int64{}}
}

// UserGroups lists every group.
func (s *Service) UserGroups(viewer store.User) ([]UserGroupObject, error) {
	var groups []store.UserGroup
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		groups, err = tx.UserGroups()
		return err
	})
	if err != nil {
		return nil, internal("list user groups", err)
	}
	out := make([]UserGroupObject, 0, len(groups))
	for _, g := range groups {
		out = append(out, userGroupObject(g))
	}
	return out, nil
}

// GroupMembers lists a group's member IDs.
func (s *Service) GroupMembers(id int64) ([]int64, error) {
	var members []int64
	err := s.store.View(func(tx *store.Tx) error {
		g, err := tx.UserGroup(id)
		if err != nil {
			return BadRequest("Invalid user group")
		}
		members = nonNil(g.Members)
		return nil
	})
	return members, internal("group members", err)
}
