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

// avatarPaths are where version u.AvatarVersion of u's uploaded avatar may
// be, one per image type; at most one exists. A version without a file is
// the generated default, so every change, reset included, bumps the version
// and no client keeps a stale image cached under an old URL.
func (s *Service) avatarPaths(u store.User) []string {
	var out []string
	for _, ext := range imageTypes {
		out = append(out, s.avatarPath(u, ext))
	}
	return out
}

func (s *Service) avatarPath(u store.User, ext string) string {
	return filepath.Join(s.cfg.DataDir, avatarDir, fmt.Sprintf("%d-%d%s", u.ID, u.AvatarVersion, ext))
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
	for _, path := range s.avatarPaths(u) {
		if data, err := os.ReadFile(path); err == nil {
			ctype, _ := detectImage(data)
			return ctype, data, nil
		}
	}
	return "image/svg+xml", defaultAvatar(u), nil
}

// SetAvatar stores an uploaded avatar (reset: back to the default) as a new
// version, so every avatar_url changes, and removes the previous file. The
// image is written and synced before the transaction, which only renames it.
func (s *Service) SetAvatar(actor store.User, files []UploadedFile, reset bool) error {
	var staged, ext string
	if !reset {
		if len(files) != 1 {
			return BadRequest("You must upload exactly one avatar.")
		}
		data, err := readAll(files[0], MaxAvatarSize)
		if err != nil {
			return err
		}
		ctype, ok := detectImage(data)
		if !ok {
			return BadRequest("Invalid image format")
		}
		ext = imageTypes[ctype]
		staged = filepath.Join(s.cfg.DataDir, avatarDir, fmt.Sprintf("%d-%s.upload", actor.ID, randomHex(8)))
		if err := writeDataFile(staged, data); err != nil {
			return internal("set avatar", err)
		}
		defer os.Remove(staged) // a no-op once renamed into place
	}
	var before, after store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		var err error
		if before, err = tx.User(actor.ID); err != nil {
			return nil, err
		}
		after = before
		after.AvatarVersion++
		source := "G"
		if !reset {
			source = "U"
			if err := os.Rename(staged, s.avatarPath(after, ext)); err != nil {
				return nil, err
			}
		}
		if err := tx.PutUser(after); err != nil {
			return nil, err
		}
		return s.realmUserEvent(tx, "update", map[string]any{"user_id": after.ID, "avatar_url": AvatarURL(after),
			"avatar_version": after.AvatarVersion, "avatar_source": source})
	})
	// Whichever version is not current now has no use.
	stale := before
	if err != nil {
		stale = after
	}
	for _, path := range s.avatarPaths(stale) {
		os.Remove(path)
	}
	return internal("set avatar", err)
}
