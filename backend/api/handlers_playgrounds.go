package api

import "lanchat/backend/domain"

// addPlayground answers POST /realm/playgrounds.
func addPlayground(c *call) (J, error) {
	p := domain.NewPlayground{Name: c.p.str("name"), PygmentsLanguage: c.p.str("pygments_language"), URLTemplate: c.p.str("url_template")}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.AddPlayground(c.user, p)
	if err != nil {
		return nil, err
	}
	return J{"id": id}, nil
}

// removePlayground answers DELETE /realm/playgrounds/{playground_id}.
func removePlayground(c *call) (J, error) {
	id := c.p.pathInt("playground_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemovePlayground(c.user, id)
}
