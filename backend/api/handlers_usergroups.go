package api

import "lanchat/backend/domain"

func createUserGroup(c *call) (J, error) {
	req := domain.NewUserGroup{Name: c.p.str("name"), Description: c.p.optStr("description", "")}
	c.p.json("members", &req.Members)
	var canMention groupSettingParam
	if c.p.optJSON("can_mention_group", &canMention) {
		v := domain.GroupSettingValue(canMention)
		req.CanMention = &v
	}
	var canRemoveMembers groupSettingParam
	if c.p.optJSON("can_remove_members_group", &canRemoveMembers) {
		v := domain.GroupSettingValue(canRemoveMembers)
		req.CanRemoveMembers = &v
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.CreateUserGroup(c.user, req)
	if err != nil {
		return nil, err
	}
	if !domain.Announces(317) {
		return J{}, nil
	}
	return J{"group_id": id}, nil
}

func updateUserGroup(c *call) (J, error) {
	id := c.p.pathInt("group_id")
	var ch domain.UserGroupChange
	if c.p.has("name") {
		v := c.p.optStr("name", "")
		ch.Name = &v
	}
	if c.p.has("description") {
		v := c.p.optStr("description", "")
		ch.Description = &v
	}
	var canMention groupSettingChangeParam
	if c.p.optJSON("can_mention_group", &canMention) {
		v := domain.GroupSettingChange(canMention)
		ch.CanMention = &v
	}
	var canRemoveMembers groupSettingChangeParam
	if c.p.optJSON("can_remove_members_group", &canRemoveMembers) {
		v := domain.GroupSettingChange(canRemoveMembers)
		ch.CanRemoveMembers = &v
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateUserGroup(c.user, id, ch)
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
	groups, err := c.api.svc.UserGroups(c.user)
	if err != nil {
		return nil, err
	}
	return J{"user_groups": groups}, nil
}
