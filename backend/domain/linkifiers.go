package domain

import (
	"lanchat/backend/events"
	"lanchat/backend/store"
	"lanchat/markdown"
)

// LinkifierObject is a linkifier as GET /realm/linkifiers and register's
// realm_linkifiers show it.
type LinkifierObject struct {
	ID          int64  `json:"id"`
	Pattern     string `json:"pattern"`
	URLTemplate string `json:"url_template"`
}

func linkifierObjects(list []store.Linkifier) []LinkifierObject {
	out := make([]LinkifierObject, len(list))
	for i, l := range list {
		out[i] = LinkifierObject{ID: l.ID, Pattern: l.Pattern, URLTemplate: l.URLTemplate}
	}
	return out
}

// LegacyFilters is Zulip's older form of the linkifiers (GET /realm/filters,
// realm_filters): [pattern, template, id] triples.
func LegacyFilters(list []LinkifierObject) [][3]any {
	legacy := make([][3]any, 0, len(list))
	for _, l := range list {
		legacy = append(legacy, [3]any{l.Pattern, l.URLTemplate, l.ID})
	}
	return legacy
}

// linkifierState is the register state of linkifiers in both of Zulip's
// forms: realm_linkifiers objects and legacy realm_filters triples.
func linkifierState(tx *store.Tx, state map[string]any) error {
	stored, err := tx.Linkifiers()
	if err != nil {
		return err
	}
	list := linkifierObjects(stored)
	state["realm_linkifiers"], state["realm_filters"] = list, LegacyFilters(list)
	return nil
}

// linkifierEvents tells everyone the new set, in both of Zulip's forms.
func (s *Service) linkifierEvents(tx *store.Tx) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	state := map[string]any{}
	if err := linkifierState(tx, state); err != nil {
		return nil, err
	}
	var out deliveries
	out.add(s, events.Event{"type": "realm_linkifiers", "realm_linkifiers": state["realm_linkifiers"]}, users)
	out.add(s, events.Event{"type": "realm_filters", "realm_filters": state["realm_filters"]}, users)
	return out.publish, nil
}

// Linkifiers lists the organization's linkifiers.
func (s *Service) Linkifiers() ([]LinkifierObject, error) {
	var list []LinkifierObject
	err := s.store.View(func(tx *store.Tx) error {
		stored, err := tx.Linkifiers()
		list = linkifierObjects(stored)
		return err
	})
	return list, internal("list linkifiers", err)
}

// Limits on a linkifier's texts. Zulip sets none; every message is
// matched against every pattern and every client receives both in
// register, so Lanchat bounds them: a pattern as an organization's
// description, a template as a URL (Django's URLValidator, Zulip's
// check_url, takes 2048 characters).
const (
	MaxLinkifierPatternLength = 1000
	MaxURLTemplateLength      = 2048
)

// checkLinkifier validates a linkifier's pattern and template and returns
// the template as stored.
func checkLinkifier(pattern, template string) (string, error) {
	if err := checkLength("pattern", pattern, MaxLinkifierPatternLength); err != nil {
		return "", err
	}
	if err := checkLength("url_template", template, MaxURLTemplateLength); err != nil {
		return "", err
	}
	normalized, err := markdown.ValidateLinkifier(pattern, template)
	if err != nil {
		return "", BadRequest("%s", err.Error())
	}
	return normalized, nil
}

// AddLinkifier validates and stores a linkifier (administrators only).
func (s *Service) AddLinkifier(actor store.User, pattern, template string) (int64, error) {
	if !isAdmin(actor) {
		return 0, ErrNotAdmin
	}
	normalized, err := checkLinkifier(pattern, template)
	if err != nil {
		return 0, err
	}
	l := store.Linkifier{Pattern: pattern, URLTemplate: normalized}
	err = s.update(func(tx *store.Tx) (func(), error) {
		if err := tx.CreateLinkifier(&l); err != nil {
			return nil, err
		}
		return s.afterLinkifierChange(tx)
	})
	return l.ID, internal("add linkifier", err)
}

// UpdateLinkifier replaces a linkifier's pattern and template.
func (s *Service) UpdateLinkifier(actor store.User, id int64, pattern, template string) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	normalized, err := checkLinkifier(pattern, template)
	if err != nil {
		return err
	}
	return internal("update linkifier", s.update(func(tx *store.Tx) (func(), error) {
		old, err := tx.Linkifier(id)
		if err != nil {
			return nil, BadRequest("Linkifier not found.")
		}
		if err := tx.PutLinkifier(store.Linkifier{ID: id, Pattern: pattern, URLTemplate: normalized, Order: old.Order}); err != nil {
			return nil, err
		}
		return s.afterLinkifierChange(tx)
	}))
}

// DeleteLinkifier removes a linkifier (spec 4.19).
func (s *Service) DeleteLinkifier(actor store.User, id int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("delete linkifier", s.update(func(tx *store.Tx) (func(), error) {
		if _, err := tx.Linkifier(id); err != nil {
			return nil, BadRequest("Linkifier not found.")
		}
		if err := tx.DeleteLinkifier(id); err != nil {
			return nil, err
		}
		return s.afterLinkifierChange(tx)
	}))
}

// ReorderLinkifiers is PATCH /realm/linkifiers (administrators only, level
// 202): ordered names every linkifier once, in the order they are to apply.
func (s *Service) ReorderLinkifiers(actor store.User, ordered []int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	if len(sortedUnique(ordered)) < len(ordered) {
		return BadRequest("The ordered list must not contain duplicated linkifiers")
	}
	return internal("reorder linkifiers", s.update(func(tx *store.Tx) (func(), error) {
		all, err := tx.Linkifiers()
		if err != nil {
			return nil, err
		}
		position := make(map[int64]int64, len(ordered))
		for i, id := range ordered {
			position[id] = int64(i)
		}
		if len(all) != len(ordered) {
			return nil, BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
		}
		for _, l := range all {
			order, listed := position[l.ID]
			if !listed {
				return nil, BadRequest("The ordered list must enumerate all existing linkifiers exactly once")
			}
			l.Order = order
			if err := tx.PutLinkifier(l); err != nil {
				return nil, err
			}
		}
		return s.afterLinkifierChange(tx)
	}))
}

// afterLinkifierChange recompiles the set for new messages and announces it.
// Messages already sent keep their rendering, as in Zulip.
func (s *Service) afterLinkifierChange(tx *store.Tx) (func(), error) {
	if err := s.reloadLinkifiers(tx); err != nil {
		return nil, err
	}
	return s.linkifierEvents(tx)
}
