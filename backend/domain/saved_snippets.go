package domain

import (
	"slices"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Saved snippets (level 297): texts a person keeps to insert into their
// messages, theirs alone, announced to their own queues.

// SavedSnippet is a saved snippet as the API shows it.
type SavedSnippet = store.SavedSnippet

// SavedSnippets lists the actor's snippets, oldest first.
func (s *Service) SavedSnippets(actor store.User) ([]SavedSnippet, error) {
	var out []SavedSnippet
	err := s.store.View(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		out = savedSnippetList(u)
		return err
	})
	return out, internal("saved snippets", err)
}

// savedSnippetList is a person's snippets, an empty list for none.
func savedSnippetList(u store.User) []SavedSnippet {
	return append([]SavedSnippet{}, u.SavedSnippets...)
}

// CreateSavedSnippet keeps a new snippet and returns its ID.
func (s *Service) CreateSavedSnippet(actor store.User, title, content string) (int64, error) {
	title, content = strings.TrimSpace(title), strings.TrimSpace(content)
	if err := checkSnippet(title, content); err != nil {
		return 0, err
	}
	var snippet SavedSnippet
	err := s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		u.LastSnippetID++
		snippet = SavedSnippet{ID: u.LastSnippetID, Title: title, Content: content, DateCreated: s.now().Unix()}
		u.SavedSnippets = append(u.SavedSnippets, snippet)
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return s.snippetEvent(events.Event{"op": "add", "saved_snippet": snippet}, u.ID), nil
	})
	return snippet.ID, internal("create saved snippet", err)
}

// checkSnippet refuses an empty or overlong title or content.
func checkSnippet(title, content string) error {
	switch {
	case title == "":
		return BadRequest("Title cannot be empty.")
	case content == "":
		return BadRequest("Content cannot be empty.")
	case len([]rune(title)) > 60:
		return BadRequest("Title must be at most 60 characters.")
	case len(content) > MaxMessageBytes:
		return BadRequest("Content is too long.")
	}
	return nil
}

// SavedSnippetChange is PATCH /saved_snippets/{id}: nil fields stay.
type SavedSnippetChange struct {
	Title, Content *string
}

// UpdateSavedSnippet edits one of the actor's snippets (level 368).
func (s *Service) UpdateSavedSnippet(actor store.User, id int64, ch SavedSnippetChange) error {
	if ch.Title == nil && ch.Content == nil {
		return BadRequest("Nothing to update.")
	}
	return internal("update saved snippet", s.update(func(tx *store.Tx) (func(), error) {
		u, i, err := userSnippet(tx, actor.ID, id)
		if err != nil {
			return nil, err
		}
		snippet := u.SavedSnippets[i]
		if ch.Title != nil {
			snippet.Title = strings.TrimSpace(*ch.Title)
		}
		if ch.Content != nil {
			snippet.Content = strings.TrimSpace(*ch.Content)
		}
		if err := checkSnippet(snippet.Title, snippet.Content); err != nil {
			return nil, err
		}
		u.SavedSnippets[i] = snippet
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return s.snippetEvent(events.Event{"op": "update", "saved_snippet": snippet}, u.ID), nil
	}))
}

// userSnippet reads a person and finds one of their snippets: the person
// and the snippet's index in their list.
func userSnippet(tx *store.Tx, userID, id int64) (store.User, int, error) {
	u, err := tx.User(userID)
	if err != nil {
		return u, 0, err
	}
	i := slices.IndexFunc(u.SavedSnippets, func(sn SavedSnippet) bool { return sn.ID == id })
	if i < 0 {
		return u, 0, &Error{Code: CodeBadRequest, Msg: "Saved snippet does not exist.", NotFound: true}
	}
	return u, i, nil
}

// DeleteSavedSnippet removes one of the actor's snippets.
func (s *Service) DeleteSavedSnippet(actor store.User, id int64) error {
	return internal("delete saved snippet", s.update(func(tx *store.Tx) (func(), error) {
		u, i, err := userSnippet(tx, actor.ID, id)
		if err != nil {
			return nil, err
		}
		u.SavedSnippets = slices.Delete(u.SavedSnippets, i, i+1)
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return s.snippetEvent(events.Event{"op": "remove", "saved_snippet_id": id}, u.ID), nil
	}))
}

// snippetEvent is the one constructor of saved_snippets events, which go
// to the snippets' owner alone.
func (s *Service) snippetEvent(e events.Event, userID int64) func() {
	e["type"] = "saved_snippets"
	return func() { s.events.Publish(e, []int64{userID}) }
}
