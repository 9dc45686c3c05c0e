package api

import "lanchat/backend/domain"

// listLinkifiers answers GET /realm/linkifiers.
func listLinkifiers(c *call) (J, error) {
	list, err := c.api.svc.Linkifiers()
	if err != nil {
		return nil, err
	}
	return J{"linkifiers": list}, nil
}

// listFilters answers the legacy GET /realm/filters: [pattern, template, id].
func listFilters(c *call) (J, error) {
	list, err := c.api.svc.Linkifiers()
	if err != nil {
		return nil, err
	}
	return J{"filters": domain.LegacyFilters(list)}, nil
}

// linkifierTemplate reads url_template, or the legacy url_format_string.
func linkifierTemplate(c *call) string {
	if c.p.has("url_template") {
		return c.p.str("url_template")
	}
	return c.p.str("url_format_string")
}

func addLinkifier(c *call) (J, error) {
	pattern, template := c.p.str("pattern"), linkifierTemplate(c)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.AddLinkifier(c.user, pattern, template)
	if err != nil {
		return nil, err
	}
	return J{"id": id}, nil
}

func updateLinkifier(c *call) (J, error) {
	id := c.p.pathInt("filter_id")
	pattern, template := c.p.str("pattern"), linkifierTemplate(c)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateLinkifier(c.user, id, pattern, template)
}

func reorderLinkifiers(c *call) (J, error) {
	var ordered []int64
	c.p.json("ordered_linkifier_ids", &ordered)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.ReorderLinkifiers(c.user, ordered)
}

func deleteLinkifier(c *call) (J, error) {
	id := c.p.pathInt("filter_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteLinkifier(c.user, id)
}
