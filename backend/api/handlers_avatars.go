package api

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"lanchat/backend/domain"
)

// avatar serves a user's avatar to signed-in users.
func avatar(c *call) (J, error) {
	// "/avatar/3.png" and "/avatar/3-medium.png" name the same user's
	// avatar, the second at the medium size, as Zulip's avatar URLs do.
	ref, size := c.r.PathValue("user"), domain.AvatarSize
	if r, ok := strings.CutSuffix(ref, "-medium.png"); ok {
		ref, size = r, domain.AvatarSizeMedium
	} else {
		ref = strings.TrimSuffix(ref, ".png")
	}
	return serveAvatar(c, ref, size)
}

// mediumAvatar is Zulip's /avatar/{id or email}/medium: the medium size.
func mediumAvatar(c *call) (J, error) {
	return serveAvatar(c, c.r.PathValue("user"), domain.AvatarSizeMedium)
}

func serveAvatar(c *call, ref string, size int) (J, error) {
	ctype, data, err := c.api.svc.Avatar(ref, size)
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	// The URL carries the version, so caching is safe: a new avatar is a new URL.
	return nil, writeFile(c, domain.PersonOf(c.user), ctype, time.Time{}, bytes.NewReader(data),
		map[string]string{"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox"})
}

func uploadAvatar(c *call) (J, error) {
	if err := c.api.svc.SetAvatar(c.user, c.p.uploadedFiles()); err != nil {
		return nil, err
	}
	u, err := c.api.svc.User(c.user, c.user.ID)
	if err != nil {
		return nil, err
	}
	return J{"avatar_url": u.AvatarURL}, nil
}

func resetAvatar(c *call) (J, error) {
	return nil, c.api.svc.ResetAvatar(c.user)
}
