package domain

import (
	"slices"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// groupAction loads a group for a change and checks who may change groups:
// every member, never guests (Zulip's default).
func groupAction(tx *store.Tx, actor store.User, id int64) (store.UserGroup, error) {
	if isGuest(actor) {
		return store.UserGroup{}, BadRequest("Insufficient permission")
	}
	g, err := tx.UserGroup(id)
	if err != nil {
		return store.UserGroup{}, BadRequest("Invalid user group")
	}
	return g, nil
}

func checkGroupName(tx *store.Tx, name string, except int64) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return "", BadRequest("User group name must be 1 to 100 characters.")
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

func (s *Service) groupEvent(tx *store.Tx, e events.Event) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	e["type"] = "user_group"
	return func() { s.events.Publish(e, users) }, nil
}

// CreateUserGroup makes a group.
func (s *Service) CreateUserGroup(actor store.User, name, description string, members []int64) (int64, error) {
	if isGuest(actor) {
		return 0, BadRequest("Insufficient permission")
	}
	var g store.UserGroup
	err := s.update(func(tx *store.Tx) (func(), error) {
		var err error
		if g.Name, err = checkGroupName(tx, name, 0); err != nil {
			return nil, err
		}
		if g.Members, err = checkMembers(tx, members); err != nil {
			return nil, err
		}
		g.Description = description
		if err := tx.CreateUserGroup(&g); err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "add", "group": userGroupObject(g)})
	})
	return g.ID, internal("create user group", err)
}

// UpdateUserGroup renames or redescribes a group.
func (s *Service) UpdateUserGroup(actor store.User, id int64, name, description *string) error {
	if name == nil && description == nil {
		return BadRequest("No new data supplied")
	}
	return internal("update user group", s.update(func(tx *store.Tx) (func(), error) {
		g, err := groupAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		data := map[string]any{}
		if name != nil {
			if g.Name, err = checkGroupName(tx, *name, g.ID); err != nil {
				return nil, err
			}
			data["name"] = g.Name
		}
		if description != nil {
			g.Description, data["description"] = *description, *description
		}
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "update", "group_id": g.ID, "data": data})
	}))
}

// DeleteUserGroup removes a group.
func (s *Service) DeleteUserGroup(actor store.User, id int64) error {
	return internal("delete user group", s.update(func(tx *store.Tx) (func(), error) {
		if _, err := groupAction(tx, actor, id); err != nil {
			return nil, err
		}
		if err := tx.DeleteUserGroup(id); err != nil {
			return nil, err
		}
		return s.groupEvent(tx, events.Event{"op": "remove", "group_id": id})
	}))
}

// UpdateGroupMembers adds and removes members in one change.
func (s *Service) UpdateGroupMembers(actor store.User, id int64, add, remove []int64) error {
	if len(add) == 0 && len(remove) == 0 {
		return BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	return internal("update group members", s.update(func(tx *store.Tx) (func(), error) {
		g, err := groupAction(tx, actor, id)
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
		var out deliveries
		for _, change := range []struct {
			op  string
			ids []int64
		}{{"add_members", add}, {"remove_members", remove}} {
			if len(change.ids) > 0 {
				publish, err := s.groupEvent(tx, events.Event{"op": change.op, "group_id": g.ID, "user_ids": change.ids})
				if err != nil {
					return nil, err
				}
				out = append(out, publish)
			}
		}
		return out.publish, nil
	}))
}
