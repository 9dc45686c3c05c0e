package api

import (
	"net/http"
	"strconv"

	"lanchat/backend/domain"
)

// avatar serves a user's avatar to signed-in users.
func avatar(c *call) (J, error) {
	ctype, data, err := c.api.svc.Avatar(c.r.PathValue("user"))
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	h := c.w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	// The URL carries the version, so a new avatar is a new URL.
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	c.wrote = true
	c.w.Write(data)
	return nil, nil
}

func uploadAvatar(c *call) (J, error) {
	if err := c.api.svc.SetAvatar(c.user, uploadedFiles(c), false); err != nil {
		return nil, err
	}
	u, err := c.api.svc.User(c.user, c.user.ID)
	if err != nil {
		return nil, err
	}
	return J{"avatar_url": u.AvatarURL}, nil
}

func resetAvatar(c *call) (J, error) {
	return nil, c.api.svc.SetAvatar(c.user, nil, true)
}
