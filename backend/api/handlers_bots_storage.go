package api

func getBotStorage(c *call) (J, error) {
	var keys []string
	c.p.optJSON("keys", &keys)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	storage, err := c.api.svc.BotStorage(c.user, keys)
	if err != nil {
		return nil, err
	}
	return J{"storage": storage}, nil
}

// putBotStorage decodes any JSON object so the domain can name a value
// that is not a string, as Zulip does.
func putBotStorage(c *call) (J, error) {
	var storage map[string]any
	c.p.json("storage", &storage)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.PutBotStorage(c.user, storage)
}

func removeBotStorage(c *call) (J, error) {
	var keys []string
	c.p.optJSON("keys", &keys)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemoveBotStorage(c.user, keys)
}
