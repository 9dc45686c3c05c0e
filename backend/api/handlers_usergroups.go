package api

import "lanchat/backend/domain"

func createUserGroup(c *call) (J, error) {
	req := domain.NewUserGroup{Name: c.p.str("name"), Description: c.p.optStr("description", "")}
	c.p.json("members", &req.Members)
	c.p.optJSON("subgroups", &req.Subgroups)
	req.Settings = groupSettingValues(c.p, domain.UserGroupSettingNames())
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.CreateUserGroup(c.user, req)
	if err != nil {
		return nil, err
	}
	return J{"group_id": id}, nil
}

func updateUserGroup(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var ch domain.UserGroupChange
	ch.Name = c.p.strGiven("name")
	ch.Description = c.p.strGiven("description")
	ch.Settings = groupSettingChanges(c.p, domain.UserGroupSettingNames())
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateUserGroup(c.user, id, ch)
}

func deactivateUserGroup(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeactivateUserGroup(c.user, id)
}

func updateGroupMembers(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var ch domain.GroupMembersChange
	c.p.optJSON("add", &ch.Add)
	c.p.optJSON("delete", &ch.Remove)
	c.p.optJSON("add_subgroups", &ch.AddSubgroups)
	c.p.optJSON("delete_subgroups", &ch.RemoveSubgroups)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateGroupMembers(c.user, id, ch)
}

func updateGroupSubgroups(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var add, remove []int64
	c.p.optJSON("add", &add)
	c.p.optJSON("delete", &remove)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateGroupSubgroups(c.user, id, add, remove)
}

func groupMembers(c *call) (J, error) {
	id, directOnly := c.p.pathInt("group_id"), c.p.optBool("direct_member_only", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	members, err := c.api.svc.GroupMembers(id, directOnly)
	if err != nil {
		return nil, err
	}
	return J{"members": members}, nil
}

func groupMember(c *call) (J, error) {
	id, userID, directOnly := c.p.pathInt("group_id"), c.p.pathInt("user_id"), c.p.optBool("direct_member_only", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	in, err := c.api.svc.IsGroupMember(id, userID, directOnly)
	if err != nil {
		return nil, err
	}
	return J{"is_user_group_member": in}, nil
}

func groupSubgroups(c *call) (J, error) {
	id, directOnly := c.p.pathInt("group_id"), c.p.optBool("direct_subgroup_only", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	subgroups, err := c.api.svc.GroupSubgroups(id, directOnly)
	if err != nil {
		return nil, err
	}
	return J{"subgroups": subgroups}, nil
}

func listUserGroups(c *call) (J, error) {
	deactivated := c.p.optBool("include_deactivated_groups", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	groups, err := c.api.svc.UserGroups(c.user, deactivated)
	if err != nil {
		return nil, err
	}
	return J{"user_groups": groups}, nil
}
