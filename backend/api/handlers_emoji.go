package api

import (
	"bytes"
	"net/http"
	"time"

	"lanchat/backend/domain"
)

// maxEmojiBody bounds an emoji upload request; the domain enforces the
// organization's configured file size within it.
const maxEmojiBody = 64 << 20

func listRealmEmoji(c *call) (J, error) {
	all, err := c.api.svc.RealmEmoji()
	if err != nil {
		return nil, err
	}
	return J{"emoji": all}, nil
}

func addRealmEmoji(c *call) (J, error) {
	return nil, c.api.svc.AddRealmEmoji(c.user, c.r.PathValue("emoji_name"), c.p.uploadedFiles())
}

func deactivateRealmEmoji(c *call) (J, error) {
	return nil, c.api.svc.DeactivateRealmEmoji(c.user, c.r.PathValue("emoji_name"))
}

// emojiImage serves a custom emoji image to anyone, as Zulip does, with the
// type detected at upload.
func emojiImage(c *call) (J, error) {
	ctype, data, err := c.api.svc.EmojiImage(c.r.PathValue("file"))
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	return nil, writeFile(c, domain.PersonOf(c.user), ctype, time.Time{}, bytes.NewReader(data), nil)
}
