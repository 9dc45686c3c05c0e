package domain

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"lanchat/assets"
	"lanchat/backend/events"
	"lanchat/backend/store"
	"lanchat/markdown"
)

// DefaultMaxEmojiFileSize is MAX_EMOJI_FILE_SIZE's default, 5 MiB.
const DefaultMaxEmojiFileSize = 5 << 20

// emojiDir holds custom emoji images inside the data directory.
const emojiDir = "emoji"

// RealmEmojiObject is a custom emoji as the API shows it (spec 2.7 plus
// Zulip's author_id and still_url).
type RealmEmojiObject struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	SourceURL   string         `json:"source_url"`
	StillURL    *string        `json:"still_url"`
	Deactivated bool           `json:"deactivated"`
	AuthorID    int64          `json:"author_id"`
	Author      map[string]any `json:"author"`
}

// EmojiImagePath is where a custom emoji's image is served.
func EmojiImagePath(e store.RealmEmoji) string {
	return "/user_avatars/1/emoji/images/" + e.FileName
}

func realmEmojiObject(tx *store.Tx, e store.RealmEmoji) RealmEmojiObject {
	author, _ := tx.User(e.AuthorID)
	return RealmEmojiObject{
		ID: strconv.FormatInt(e.ID, 10), Name: e.Name, SourceURL: EmojiImagePath(e), Deactivated: e.Deactivated,
		AuthorID: e.AuthorID, Author: map[string]any{"id": author.ID, "email": author.Email, "full_name": author.FullName},
	}
}

// customEmoji finds an active custom emoji by name for rendering and
// reactions.
func customEmoji(tx *store.Tx, name string) (markdown.CustomEmoji, bool) {
	e, err := tx.ActiveRealmEmoji(name)
	if err != nil {
		return markdown.CustomEmoji{}, false
	}
	return markdown.CustomEmoji{ID: strconv.FormatInt(e.ID, 10), Name: e.Name, SourceURL: EmojiImagePath(e)}, true
}

// realmEmojiMap is the `emoji` object of GET /realm/emoji, keyed by ID.
func realmEmojiMap(tx *store.Tx) (map[string]RealmEmojiObject, error) {
	list, err := tx.RealmEmojis()
	if err != nil {
		return nil, err
	}
	out := make(map[string]RealmEmojiObject, len(list))
	for _, e := range list {
		out[strconv.FormatInt(e.ID, 10)] = realmEmojiObject(tx, e)
	}
	return out, nil
}

// RealmEmoji lists every custom emoji.
func (s *Service) RealmEmoji() (map[string]RealmEmojiObject, error) {
	var out map[string]RealmEmojiObject
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		out, err = realmEmojiMap(tx)
		return err
	})
	return out, internal("list custom emoji", err)
}

var emojiNameChars = regexp.MustCompile(`^[a-z0-9_-]+$`)

// normalizeEmojiName applies spec 4.18: letters, digits, dashes and spaces;
// case-insensitive; underscores equal spaces. The messages are Zulip's.
func normalizeEmojiName(name string) (string, error) {
	name = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "_")
	switch {
	case name == "":
		return "", BadRequest("Emoji name is missing")
	case len(name) > 50:
		return "", BadRequest("Emoji name is too long.")
	case !emojiNameChars.MatchString(name):
		return "", BadRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.")
	case strings.HasSuffix(name, "_") || strings.HasSuffix(name, "-"):
		return "", BadRequest("Emoji names must end with either a letter or digit.")
	}
	return name, nil
}

// AddRealmEmoji stores an uploaded image as a custom emoji. Who may add
// emoji is the organization's can_add_custom_emoji_group (level 307);
// bots never may; only administrators may shadow a built-in emoji name.
func (s *Service) AddRealmEmoji(actor store.User, name string, files UploadedFiles) error {
	name, err := normalizeEmojiName(name)
	if err != nil {
		return err
	}
	var allowed bool
	err = s.store.View(func(tx *store.Tx) error {
		allowed, err = realmAllows(tx, actor, SettingAddCustomEmoji)
		return err
	})
	if err != nil {
		return internal("add emoji", err)
	}
	if !allowed || actor.IsBot() {
		return BadRequest("Insufficient permission")
	}
	if _, builtin := assets.EmojiByName(name); builtin && !isAdmin(actor) {
		return BadRequest("Only administrators can override default emoji.")
	}
	limit := s.cfg.MaxEmojiFileSize
	if limit <= 0 {
		limit = DefaultMaxEmojiFileSize
	}
	var data []byte
	err = onlyFile(files, "file", func(f UploadedFile) (err error) {
		data, err = readAll(f, limit)
		return err
	})
	if err != nil {
		return err
	}
	ctype, ok := detectImage(data)
	if !ok {
		return BadRequest("Invalid image format")
	}
	fileName := randomHex(16) + imageTypes[ctype]
	if err := writeDataFile(filepath.Join(s.cfg.DataDir, emojiDir, fileName), data); err != nil {
		return err
	}
	err = s.update(func(tx *store.Tx) (func(), error) {
		if _, err := tx.ActiveRealmEmoji(name); err == nil {
			return nil, BadRequest("A custom emoji with this name already exists.")
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		e := store.RealmEmoji{Name: name, FileName: fileName, ContentType: ctype, AuthorID: actor.ID}
		if err := tx.CreateRealmEmoji(&e); err != nil {
			return nil, err
		}
		return s.realmEmojiEvent(tx)
	})
	if err != nil {
		os.Remove(filepath.Join(s.cfg.DataDir, emojiDir, fileName))
	}
	return internal("add custom emoji", err)
}

// DeactivateRealmEmoji hides a custom emoji (its author or an
// administrator); messages that used it keep their images.
func (s *Service) DeactivateRealmEmoji(actor store.User, name string) error {
	name, err := normalizeEmojiName(name)
	if err != nil {
		return err
	}
	return internal("deactivate custom emoji", s.update(func(tx *store.Tx) (func(), error) {
		e, err := tx.ActiveRealmEmoji(name)
		if err != nil {
			return nil, NotFound("Emoji '%s' does not exist", name)
		}
		if e.AuthorID != actor.ID && !isAdmin(actor) {
			return nil, BadRequest("Must be an organization administrator or emoji author")
		}
		e.Deactivated = true
		if err := tx.PutRealmEmoji(e); err != nil {
			return nil, err
		}
		return s.realmEmojiEvent(tx)
	}))
}

// realmEmojiEvent sends everyone the complete set, deactivated included.
func (s *Service) realmEmojiEvent(tx *store.Tx) (func(), error) {
	all, err := realmEmojiMap(tx)
	if err != nil {
		return nil, err
	}
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	e := events.Event{"type": "realm_emoji", "op": "update", "realm_emoji": all}
	return func() { s.events.Publish(e, users) }, nil
}

// EmojiImage returns a stored custom emoji image by its file name; only
// names the server chose are found.
func (s *Service) EmojiImage(fileName string) (string, []byte, error) {
	var ctype string
	err := s.store.View(func(tx *store.Tx) error {
		list, err := tx.RealmEmojis()
		if err != nil {
			return err
		}
		for _, e := range list {
			if e.FileName == fileName {
				ctype = e.ContentType
				return nil
			}
		}
		return store.ErrNotFound
	})
	if err != nil {
		return "", nil, err
	}
	data, err := os.ReadFile(filepath.Join(s.cfg.DataDir, emojiDir, fileName))
	return ctype, data, err
}
