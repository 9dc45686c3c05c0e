package api

import (
	"lanchat/backend/domain"
)

// client_gravatar is accepted and validated but changes nothing: every avatar
// is served by this server (see domain.userObject).
func listUsers(c *call) (J, error) {
	c.p.optBool("client_gravatar", false)
	c.p.optBool("include_custom_profile_fields", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	members, err := c.api.svc.Users(c.user)
	if err != nil {
		return nil, err
	}
	return J{"members": members}, nil
}

func getUser(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	u, err := c.api.svc.User(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"user": u}, nil
}

// getOwnUser answers with the user's fields at the top level, as Zulip does.
func getOwnUser(c *call) (J, error) {
	u, err := c.api.svc.User(c.user, c.user.ID)
	if err != nil {
		return nil, err
	}
	return domain.ToMap(u)
}

func listUserGroups(c *call) (J, error) {
	groups, err := c.api.svc.UserGroups(c.user)
	if err != nil {
		return nil, err
	}
	return J{"user_groups": groups}, nil
}
