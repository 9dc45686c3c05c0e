package api

func listAlertWords(c *call) (J, error) {
	return J{"alert_words": c.api.svc.AlertWords(c.user)}, nil
}

func changeAlertWords(add bool) func(*call) (J, error) {
	return func(c *call) (J, error) {
		var words []string
		c.p.json("alert_words", &words)
		if err := c.p.err(); err != nil {
			return nil, err
		}
		list, err := c.api.svc.ChangeAlertWords(c.user, words, add)
		if err != nil {
			return nil, err
		}
		return J{"alert_words": list}, nil
	}
}
