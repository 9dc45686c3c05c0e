package api

import (
	"lanchat/backend/domain"
	"lanchat/backend/store"
)

func createUser(c *call) (J, error) {
	n := domain.NewUser{Email: c.p.str("email"), Password: c.p.str("password"), FullName: c.p.str("full_name"), Role: store.RoleMember}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.CreateUser(c.user, n)
	if err != nil {
		return nil, err
	}
	return J{"user_id": id}, nil
}

func updateUser(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	var ch domain.UserChange
	if c.p.has("full_name") {
		name := c.p.optStr("full_name", "")
		ch.FullName = &name
	}
	if c.p.has("role") {
		role := int(c.p.optInt("role", 0))
		ch.Role = &role
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateUser(c.user, id, ch)
}

func deactivateUser(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetUserActive(c.user, id, false)
}

func reactivateUser(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetUserActive(c.user, id, true)
}

func updateOwnSettings(c *call) (J, error) {
	var ch domain.SettingsChange
	if c.p.has("full_name") {
		name := c.p.optStr("full_name", "")
		ch.FullName = &name
	}
	if c.p.has("new_password") {
		pw := c.p.optStr("new_password", "")
		ch.NewPassword = &pw
		ch.OldPassword = c.p.optStr("old_password", "")
	}
	for _, name := range domain.PreferenceNames() {
		if c.p.has(name) {
			ch.Preferences = append(ch.Preferences, domain.Preference{Name: name, Raw: c.p.optStr(name, "")})
		}
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	if cookie, err := c.r.Cookie(sessionCookie); err == nil {
		ch.Session = cookie.Value
	}
	return nil, c.api.svc.UpdateOwnSettings(c.user, ch)
}

func regenerateAPIKey(c *call) (J, error) {
	key, err := c.api.svc.RegenerateAPIKey(c.user)
	if err != nil {
		return nil, err
	}
	return J{"api_key": key}, nil
}

func setOwnStatus(c *call) (J, error) {
	var ch domain.StatusChange
	if text, ok := c.p.raw("status_text"); ok {
		ch.Text = &text
	}
	if c.p.has("away") {
		away := c.p.optBool("away", false)
		ch.Away = &away
	}
	if name, ok := c.p.raw("emoji_name"); ok {
		ch.EmojiName = &name
	}
	ch.EmojiCode, ch.EmojiType = c.p.optStr("emoji_code", ""), c.p.optStr("reaction_type", "")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetStatus(c.user, ch)
}

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
