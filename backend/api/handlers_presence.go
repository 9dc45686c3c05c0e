package api

import (
	"lanchat/backend/domain"
)

func updatePresence(c *call) (J, error) {
	u := domain.PresenceUpdate{
		Status:       c.p.str("status"),
		Client:       clientName(c.r.UserAgent()),
		PingOnly:     c.p.optBool("ping_only", false),
		SlimPresence: c.p.optBool("slim_presence", false),
	}
	u.LastUpdateID = c.p.intGiven("last_update_id")
	u.HistoryLimitDays = c.p.intGiven("history_limit_days")
	c.p.optBool("new_user_input", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return c.api.svc.UpdatePresence(c.user, u)
}

func realmPresence(c *call) (J, error) {
	slim := c.p.optBool("slim_presence", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return c.api.svc.RealmPresence(slim)
}

func userPresence(c *call) (J, error) {
	p, err := c.api.svc.UserPresence(c.r.PathValue("user"))
	if err != nil {
		return nil, err
	}
	return J{"presence": p}, nil
}
