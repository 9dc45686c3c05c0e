package api_test

import (
	"fmt"
	"testing"

	"lanchat/backend/apitest"
)

func TestBots(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, admin := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com")
	res := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Deploy Bot", "short_name": "deploy", "bot_type": 2}).OK()
	botEmail, key, id := res.Str("email"), res.Str("api_key"), res.Int("user_id")
	if botEmail != "deploy-bot@example.com" || len(key) != 32 {
		t.Fatalf("create bot: %s", res.Raw)
	}
	alice.Post("/api/v1/bots", apitest.Form{"full_name": "Again", "short_name": "deploy"}).Fails(400, "BAD_REQUEST")
	alice.Post("/api/v1/bots", apitest.Form{"full_name": "X", "short_name": "x", "bot_type": 4}).Fails(400, "BAD_REQUEST")
	alice.Post("/api/v1/bots", apitest.Form{"full_name": "X", "short_name": "Bad Name!"}).Fails(400, "BAD_REQUEST")
	s.Login("guest@example.com").Post("/api/v1/bots", apitest.Form{"full_name": "G", "short_name": "g"}).Fails(400, "BAD_REQUEST")

	// The bot authenticates as itself; being an incoming-webhook bot, it
	// may send messages and nothing else, as in Zulip. It is listed with
	// its owner.
	bot := s.As(botEmail, key)
	send(t, bot, streamMsg("general", "deploys", "deployed"))
	bot.Get("/api/v1/users/me", nil).Fails(401, "UNAUTHORIZED")
	if u := alice.Get(fmt.Sprintf("/api/v1/users/%d", id), nil).OK().Body["user"].(map[string]any); u["is_bot"] != true || u["bot_type"] != float64(2) || u["bot_owner"] != "alice@example.com" {
		t.Errorf("the bot's user record %v", u)
	}
	bots := alice.Get("/api/v1/bots", nil).OK().List("bots")
	if len(bots) != 1 || bots[0].(map[string]any)["api_key"] != key {
		t.Errorf("alice's bots %v", bots)
	}
	if len(bob.Get("/api/v1/bots", nil).OK().List("bots")) != 0 {
		t.Error("bob sees alice's bot")
	}

	path := fmt.Sprintf("/api/v1/bots/%d", id)
	bob.Patch(path, apitest.Form{"full_name": "Mine"}).Fails(400, "BAD_REQUEST")
	alice.Patch(path, apitest.Form{"full_name": "Release Bot"}).OK()
	newKey := alice.Post(path+"/api_key/regenerate", nil).OK().Str("api_key")
	bot.Get("/api/v1/users/me", nil).Fails(401, "INVALID_API_KEY")
	send(t, s.As(botEmail, newKey), streamMsg("general", "deploys", "deployed again"))
	admin.Delete(path, nil).OK()
	s.As(botEmail, newKey).Get("/api/v1/users/me", nil).Fails(401, "USER_DEACTIVATED")
	alice.Patch(fmt.Sprintf("/api/v1/bots/%d", alice.Get("/api/v1/users/me", nil).OK().Int("user_id")), apitest.Form{"full_name": "x"}).Fails(400, "BAD_REQUEST")
}
