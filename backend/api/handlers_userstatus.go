package api

import "lanchat/backend/domain"

func setOwnStatus(c *call) (J, error) {
	var ch domain.StatusChange
	if text, ok := c.p.raw("status_text"); ok {
		ch.Text = &text
	}
	ch.Away = c.p.boolGiven("away", false)
	if name, ok := c.p.raw("emoji_name"); ok {
		ch.EmojiName = &name
	}
	ch.EmojiCode, ch.EmojiType = c.p.optStr("emoji_code", ""), c.p.optStr("reaction_type", "")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetStatus(c.user, ch)
}

func userStatus(c *call) (J, error) {
	id := c.p.pathInt("user_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	st, err := c.api.svc.UserStatus(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"status": st}, nil
}
