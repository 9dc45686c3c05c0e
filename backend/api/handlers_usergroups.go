package api

func createUserGroup(c *call) (J, error) {
	name, description := c.p.str("name"), c.p.optStr("description", "")
	var members []int64
	c.p.json("members", &members)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.CreateUserGroup(c.user, name, description, members)
	if err != nil {
		return nil, err
	}
	return J{"group_id": id}, nil
}

func updateUserGroup(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var name, description *string
	if c.p.has("name") {
		v := c.p.optStr("name", "")
		name = &v
	}
	if c.p.has("description") {
		v := c.p.optStr("description", "")
		description = &v
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateUserGroup(c.user, id, name, description)
}

func deleteUserGroup(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteUserGroup(c.user, id)
}

func updateGroupMembers(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var add, remove []int64
	c.p.optJSON("add", &add)
	c.p.optJSON("delete", &remove)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateGroupMembers(c.user, id, add, remove)
}

func groupMembers(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	members, err := c.api.svc.GroupMembers(id)
	if err != nil {
		return nil, err
	}
	return J{"members": members}, nil
}

func listUserGroups(c *call) (J, error) {
	groups, err := c.api.svc.UserGroups(c.user)
	if err != nil {
		return nil, err
	}
	return J{"user_groups": groups}, nil
}
