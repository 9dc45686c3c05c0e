package api

import (
	"lanchat/backend/domain"
	"lanchat/backend/store"
)

func listBots(c *call) (J, error) {
	bots, err := c.api.svc.Bots(c.user)
	if err != nil {
		return nil, err
	}
	return J{"bots": bots}, nil
}

func createBot(c *call) (J, error) {
	fullName, shortName := c.p.str("full_name"), c.p.str("short_name")
	botType := int(c.p.optInt("bot_type", store.BotGeneric))
	if err := c.p.err(); err != nil {
		return nil, err
	}
	bot, err := c.api.svc.CreateBot(c.user, fullName, shortName, botType)
	if err != nil {
		return nil, err
	}
	return J{"user_id": bot.UserID, "api_key": bot.APIKey, "email": bot.Email, "avatar_url": bot.AvatarURL}, nil
}

func updateBot(c *call) (J, error) {
	id := c.p.pathInt("bot_id")
	var ch domain.BotChange
	ch.FullName = c.p.strGiven("full_name")
	ch.OwnerID = c.p.intGiven("bot_owner_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateBot(c.user, id, ch)
}

func deactivateBot(c *call) (J, error) {
	id := c.p.pathInt("bot_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeactivateBot(c.user, id)
}

func regenerateBotKey(c *call) (J, error) {
	id := c.p.pathInt("bot_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	key, err := c.api.svc.RegenerateBotKey(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"api_key": key}, nil
}
