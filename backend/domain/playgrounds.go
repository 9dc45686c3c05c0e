package domain

import (
	"errors"
	"regexp"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
	"lanchat/markdown"
)

// PlaygroundObject is a code playground as register's realm_playgrounds
// and the realm_playgrounds event show it.
type PlaygroundObject struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

// playgroundObjects is the organization's playgrounds for the wire.
func playgroundObjects(tx *store.Tx) ([]PlaygroundObject, error) {
	stored, err := tx.Playgrounds()
	out := make([]PlaygroundObject, len(stored))
	for i, p := range stored {
		out[i] = PlaygroundObject{ID: p.ID, Name: p.Name, PygmentsLanguage: p.PygmentsLanguage, URLTemplate: p.URLTemplate}
	}
	return out, err
}

// pygmentsLanguage is the shape Zulip accepts for a playground's language.
var pygmentsLanguage = regexp.MustCompile(`^[ a-zA-Z0-9_+./#-]+$`)

// Limits on a playground's texts: the language's is Zulip's
// (RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH); Zulip sets none on the
// name, shown in a code block's "View in …" link, so Lanchat takes a
// person's or a group's name limit, and on the URL template a linkifier's
// (MaxURLTemplateLength).
const (
	MaxPygmentsLanguageLength = 40
	MaxPlaygroundNameLength   = 100
)

// NewPlayground is POST /realm/playgrounds.
type NewPlayground struct {
	Name, PygmentsLanguage, URLTemplate string
}

// AddPlayground validates and stores a code playground (administrators
// only) and tells everyone the new set.
func (s *Service) AddPlayground(actor store.User, np NewPlayground) (int64, error) {
	if !isAdmin(actor) {
		return 0, ErrNotAdmin
	}
	p := store.Playground{Name: strings.TrimSpace(np.Name), PygmentsLanguage: strings.TrimSpace(np.PygmentsLanguage),
		URLTemplate: strings.TrimSpace(np.URLTemplate)}
	if p.Name == "" {
		return 0, InvalidArgument("name", "must not be empty")
	}
	for _, text := range []struct {
		field, value string
		limit        int
	}{
		{"name", p.Name, MaxPlaygroundNameLength},
		{"pygments_language", p.PygmentsLanguage, MaxPygmentsLanguageLength},
		{"url_template", p.URLTemplate, MaxURLTemplateLength},
	} {
		if err := checkLength(text.field, text.value, text.limit); err != nil {
			return 0, err
		}
	}
	if !pygmentsLanguage.MatchString(p.PygmentsLanguage) {
		return 0, BadRequest("Invalid characters in pygments language")
	}
	if err := markdown.ValidatePlaygroundTemplate(p.URLTemplate); err != nil {
		return 0, BadRequest("%s", err.Error())
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		all, err := tx.Playgrounds()
		if err != nil {
			return nil, err
		}
		for _, other := range all {
			if strings.EqualFold(other.Name, p.Name) && other.PygmentsLanguage == p.PygmentsLanguage {
				return nil, BadRequest("Realm playground with this Realm, Pygments language and Name already exists.")
			}
		}
		if err := tx.CreatePlayground(&p); err != nil {
			return nil, err
		}
		return s.playgroundEvent(tx)
	})
	return p.ID, internal("add playground", err)
}

// RemovePlayground deletes a code playground (administrators only).
func (s *Service) RemovePlayground(actor store.User, id int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("remove playground", s.update(func(tx *store.Tx) (func(), error) {
		if err := tx.DeletePlayground(id); errors.Is(err, store.ErrNotFound) {
			return nil, BadRequest("Invalid playground")
		} else if err != nil {
			return nil, err
		}
		return s.playgroundEvent(tx)
	}))
}

// playgroundEvent tells everyone the organization's playgrounds.
func (s *Service) playgroundEvent(tx *store.Tx) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	list, err := playgroundObjects(tx)
	if err != nil {
		return nil, err
	}
	var out deliveries
	out.add(s, events.Event{"type": "realm_playgrounds", "realm_playgrounds": list}, users)
	return out.publish, nil
}
