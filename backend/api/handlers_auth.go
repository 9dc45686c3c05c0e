package api

func serverSettings(c *call) (J, error) {
	return c.api.svc.ServerSettings(c.api.realmURL(c.r))
}

func fetchAPIKey(c *call) (J, error) {
	username, password := c.p.str("username"), c.p.str("password")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	login, err := c.api.svc.FetchAPIKey(username, password)
	if err != nil {
		return nil, err
	}
	return J{"api_key": login.APIKey, "email": login.Email, "user_id": login.UserID}, nil
}

func devFetchAPIKey(c *call) (J, error) {
	username := c.p.str("username")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	login, err := c.api.svc.DevFetchAPIKey(username)
	if err != nil {
		return nil, err
	}
	return J{"api_key": login.APIKey, "email": login.Email, "user_id": login.UserID}, nil
}
