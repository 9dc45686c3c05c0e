package api

import "lanchat/backend/store"

func listAlertWords(c *call) (J, error) {
	return J{"alert_words": c.api.svc.AlertWords(c.user)}, nil
}

func addAlertWords(c *call) (J, error) {
	return changeAlertWords(c, c.api.svc.AddAlertWords)
}

func removeAlertWords(c *call) (J, error) {
	return changeAlertWords(c, c.api.svc.RemoveAlertWords)
}

// changeAlertWords reads the words and answers with the list action leaves.
func changeAlertWords(c *call, action func(store.User, []string) ([]string, error)) (J, error) {
	var words []string
	c.p.json("alert_words", &words)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	list, err := action(c.user, words)
	if err != nil {
		return nil, err
	}
	return J{"alert_words": list}, nil
}
