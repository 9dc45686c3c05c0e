package api

import "lanchat/backend/domain"

func listSavedSnippets(c *call) (J, error) {
	snippets, err := c.api.svc.SavedSnippets(c.user)
	if err != nil {
		return nil, err
	}
	return J{"saved_snippets": snippets}, nil
}

func createSavedSnippet(c *call) (J, error) {
	title, content := c.p.str("title"), c.p.str("content")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.CreateSavedSnippet(c.user, title, content)
	if err != nil {
		return nil, err
	}
	return J{"saved_snippet_id": id}, nil
}

func updateSavedSnippet(c *call) (J, error) {
	id := c.p.pathInt("saved_snippet_id")
	var ch domain.SavedSnippetChange
	ch.Title = c.p.strGiven("title")
	ch.Content = c.p.strGiven("content")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateSavedSnippet(c.user, id, ch)
}

func deleteSavedSnippet(c *call) (J, error) {
	id := c.p.pathInt("saved_snippet_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteSavedSnippet(c.user, id)
}
