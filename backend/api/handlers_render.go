package api

// renderPreview answers POST /messages/render: a draft as it would be
// rendered.
func renderPreview(c *call) (J, error) {
	content := c.p.str("content")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	html, err := c.api.svc.RenderPreview(c.user, content)
	if err != nil {
		return nil, err
	}
	return J{"rendered": html}, nil
}
