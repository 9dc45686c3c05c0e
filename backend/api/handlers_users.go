package api

import (
	"strings"

	"lanchat/backend/domain"
	"lanchat/backend/store"
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
	// GET /users/{email} shares the route (level 302).
	id, err := c.pathUserID()
	if err != nil {
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
	// PATCH /users/{email} shares the route (level 313).
	id, err := c.pathUserID()
	if err != nil {
		return nil, err
	}
	var ch domain.UserChange
	ch.NewEmail = c.p.strGiven("new_email")
	ch.FullName = c.p.strGiven("full_name")
	if c.p.has("role") {
		role := int(c.p.optInt("role", 0))
		ch.Role = &role
	}
	c.p.optJSON("profile_data", &ch.ProfileData)
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
	return nil, c.api.svc.DeactivateUser(c.user, id)
}

func reactivateUser(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.ReactivateUser(c.user, id)
}

// issuePassword is Lanchat's own: an administrator gives a person a
// generated password (imported people have none).
func issuePassword(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	password, err := c.api.svc.IssuePassword(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"password": password}, nil
}

func regenerateAPIKey(c *call) (J, error) {
	key, err := c.api.svc.RegenerateAPIKey(c.user)
	if err != nil {
		return nil, err
	}
	return J{"api_key": key}, nil
}

func muteUser(c *call) (J, error) {
	id := c.p.pathInt("muted_user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.MuteUser(c.user, id)
}

func unmuteUser(c *call) (J, error) {
	id := c.p.pathInt("muted_user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UnmuteUser(c.user, id)
}

// pathUserID is the account a /users/{user_id} path names: by ID, or by
// email address (GET, level 302; PATCH, level 313).
func (c *call) pathUserID() (int64, error) {
	if ref := c.r.PathValue("user_id"); strings.Contains(ref, "@") {
		return c.api.svc.UserIDByEmail(ref)
	}
	id := c.p.pathInt("user_id")
	return id, c.p.err()
}
