package domain

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"lanchat/backend/store"
)

// MaxAvatarSize bounds uploaded avatars.
const MaxAvatarSize = 5 << 20

// avatarDir holds uploaded avatars as <user id>-<version><ext>.
const avatarDir = "avatars"

// avatarColors give generated avatars a stable colour per user.
var avatarColors = []string{"#2f6f62", "#7b4ea3", "#b5553c", "#2e6da4", "#8a6d1f", "#a3366b", "#3d7a2f", "#5a5f9e"}

// initials takes the first letter of the first two words of a name.
func initials(name string) string {
	var out []rune
	for _, w := range strings.Fields(name) {
		r := []rune(w)[0]
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToUpper(r))
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return string(out)
}

// defaultAvatar draws a user's generated avatar: no network needed.
func defaultAvatar(u store.User) []byte {
	color := avatarColors[int(u.ID)%len(avatarColors)]
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">`+
		`<rect width="100" height="100" fill="%s"/><text x="50" y="50" dy=".35em" text-anchor="middle" `+
		`font-family="sans-serif" font-size="42" fill="#fff">%s</text></svg>`, color, html.EscapeString(initials(u.FullName)))
}

// Avatar returns a user's avatar image: the uploaded one, or the generated
// default.
func (s *Service) Avatar(ref string) (string, []byte, error) {
	var u store.User
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		u, err = userByRef(tx, ref)
		return err
	})
	if err != nil {
		return "", nil, BadRequest("No such user")
	}
	if u.AvatarVersion > 0 {
		matches, _ := filepath.Glob(filepath.Join(s.cfg.DataDir, avatarDir, fmt.Sprintf("%d-%d.*", u.ID, u.AvatarVersion)))
		if len(matches) == 1 {
			data, err := os.ReadFile(matches[0])
			if err == nil {
				ctype, _ := detectImage(data)
				return ctype, data, nil
			}
		}
	}
	return "image/svg+xml", defaultAvatar(u), nil
}

// SetAvatar stores an uploaded avatar (nil files: back to the default) and
// bumps the version so every avatar_url changes.
func (s *Service) SetAvatar(actor store.User, files []UploadedFile, reset bool) error {
	var data []byte
	var ext string
	if !reset {
		if len(files) != 1 {
			return BadRequest("You must upload exactly one avatar.")
		}
		var err error
		if data, err = readAll(files[0], MaxAvatarSize); err != nil {
			return err
		}
		ctype, ok := detectImage(data)
		if !ok {
			return BadRequest("Invalid image format")
		}
		ext = imageTypes[ctype]
	}
	return internal("set avatar", s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		if reset {
			u.AvatarVersion = 0
		} else {
			u.AvatarVersion = max(u.AvatarVersion, 0) + 1
			name := fmt.Sprintf("%d-%d%s", u.ID, u.AvatarVersion, ext)
			if err := writeFileAtomically(filepath.Join(s.cfg.DataDir, avatarDir, name), data); err != nil {
				return nil, err
			}
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "avatar_url": AvatarURL(u),
			"avatar_version": u.AvatarVersion, "avatar_source": "U"})
	}))
}
