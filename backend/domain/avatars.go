package domain

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"

	"lanchat/backend/store"
)

// MaxAvatarSize bounds uploaded avatars.
const MaxAvatarSize = 5 << 20

// avatarDir holds uploaded avatars as <user id>-<version><ext>.
const avatarDir = "avatars"

// avatarColors give generated avatars a stable colour per user.
var avatarColors = []color.RGBA{{0x2f, 0x6f, 0x62, 0xff}, {0x7b, 0x4e, 0xa3, 0xff}, {0xb5, 0x55, 0x3c, 0xff},
	{0x2e, 0x6d, 0xa4, 0xff}, {0x8a, 0x6d, 0x1f, 0xff}, {0xa3, 0x36, 0x6b, 0xff}, {0x3d, 0x7a, 0x2f, 0xff}, {0x5a, 0x5f, 0x9e, 0xff}}

// Sizes of the generated avatar, in pixels: the one in avatar_url, and the
// medium one clients ask for by adding "-medium" (Zulip's 500).
const (
	AvatarSize       = 100
	AvatarSizeMedium = 500
)

// defaultAvatar draws a user's generated avatar: a symmetric 5×5 pattern in
// the user's colour, like Zulip's default identicons, as a PNG (clients such
// as Zulip's mobile app draw no SVG). No network needed.
func defaultAvatar(u store.User, size int) []byte {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d:%s", u.ID, u.Email)
	bits := h.Sum64()
	fg := avatarColors[int(u.ID)%len(avatarColors)]
	img := image.NewPaletted(image.Rect(0, 0, size, size), color.Palette{color.RGBA{0xf0, 0xf0, 0xf0, 0xff}, fg})
	cell := size / 6
	margin := (size - 5*cell) / 2
	for row := range 5 {
		for col := range 3 { // columns 3 and 4 mirror 1 and 0
			if bits&(1<<(row*3+col)) == 0 {
				continue
			}
			for _, c := range []int{col, 4 - col} {
				r := image.Rect(margin+c*cell, margin+row*cell, margin+(c+1)*cell, margin+(row+1)*cell)
				draw.Draw(img, r, image.NewUniform(fg), image.Point{}, draw.Src)
			}
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img) // writing to memory cannot fail
	return buf.Bytes()
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
// default at the given size.
func (s *Service) Avatar(ref string, size int) (string, []byte, error) {
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
	return "image/png", defaultAvatar(u, size), nil
}

// SetAvatar stores an uploaded avatar as a new version, so every avatar_url
// changes, and removes the previous file. The image is written and synced
// before the transaction, which only renames it.
func (s *Service) SetAvatar(actor store.User, files UploadedFiles) error {
	var data []byte
	err := onlyFile(files, "avatar", func(f UploadedFile) (err error) {
		data, err = readAll(f, MaxAvatarSize)
		return err
	})
	if err != nil {
		return err
	}
	ctype, ok := detectImage(data)
	if !ok {
		return BadRequest("Invalid image format")
	}
	ext := imageTypes[ctype]
	staged := filepath.Join(s.cfg.DataDir, avatarDir, fmt.Sprintf("%d-%s.upload", actor.ID, randomHex(8)))
	if err := writeDataFile(staged, data); err != nil {
		return internal("set avatar", err)
	}
	defer os.Remove(staged) // a no-op once renamed into place
	return s.newAvatarVersion(actor, "U", func(after store.User) error { return os.Rename(staged, s.avatarPath(after, ext)) })
}

// ResetAvatar puts the actor back on the default avatar, as a new version,
// and removes the uploaded file.
func (s *Service) ResetAvatar(actor store.User) error {
	return s.newAvatarVersion(actor, "G", func(store.User) error { return nil })
}

// newAvatarVersion moves the actor to the next avatar version from source
// (Zulip's "U" uploaded, "G" default), installing its file inside the
// transaction, and removes whichever version is not current afterwards.
func (s *Service) newAvatarVersion(actor store.User, source string, install func(after store.User) error) error {
	var before, after store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		var err error
		if before, err = tx.User(actor.ID); err != nil {
			return nil, err
		}
		after = before
		after.AvatarVersion++
		if err := install(after); err != nil {
			return nil, err
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
