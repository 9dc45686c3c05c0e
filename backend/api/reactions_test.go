package api_test

import (
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func TestReactions(t *testing.T) {
	s := apitest.Start(t)
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	id := send(t, alice, streamMsg("general", "r", "react to me"))
	qAlice := registerQueue(t, alice, apitest.Form{"event_types": []string{"reaction"}})
	path := msgPath(id, "/reactions")

	bob.Post(path, apitest.Form{"emoji_name": "+1"}).OK()
	bob.Post(path, apitest.Form{"emoji_name": "thumbsup"}).Fails(400, "REACTION_ALREADY_EXISTS") // an alias of the same emoji
	bob.Post(path, apitest.Form{"emoji_name": "heart", "emoji_code": "2764", "reaction_type": "unicode_emoji"}).OK()
	alice.Post(path, apitest.Form{"emoji_name": "zulip", "reaction_type": "zulip_extra_emoji"}).OK()
	for _, bad := range []apitest.Form{
		{"emoji_name": "not_an_emoji"},
		{"emoji_name": "x", "emoji_code": "zzzz", "reaction_type": "unicode_emoji"},
		{"emoji_name": "party", "reaction_type": "realm_emoji"},
		{"emoji_name": "x", "reaction_type": "sticker"},
	} {
		bob.Post(path, bad).Fails(400, "BAD_REQUEST")
	}
	bob.Post(path, nil).Fails(400, "REQUEST_VARIABLE_MISSING")
	bob.Post(msgPath(999999, "/reactions"), apitest.Form{"emoji_name": "+1"}).Fails(400, "BAD_REQUEST")

	msg := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)
	reactions := msg["reactions"].([]any)
	if len(reactions) != 3 {
		t.Fatalf("reactions %v", reactions)
	}
	first := reactions[0].(map[string]any)
	if first["emoji_code"] != "1f44d" || first["reaction_type"] != "unicode_emoji" || first["user_id"] != float64(userID(bob)) || first["user"] != nil { // no user object since level 328
		t.Errorf("reaction %v", first)
	}
	if got, _ := history(t, alice, narrowed(`[["has","reaction"]]`)); !slices.Contains(got, id) {
		t.Errorf("has:reaction %v", got)
	}

	evs := qAlice.next()
	if got := types(evs); !slices.Equal(got, []string{"reaction:add", "reaction:add", "reaction:add"}) {
		t.Errorf("events %v", got)
	}
	if evs[0]["emoji_name"] != "+1" || evs[0]["message_id"] != float64(id) {
		t.Errorf("event %v", evs[0])
	}

	bob.Delete(path, apitest.Form{"emoji_name": "+1"}).OK()
	bob.Delete(path, apitest.Form{"emoji_name": "+1"}).Fails(400, "REACTION_DOES_NOT_EXIST")
	bob.Do("DELETE", path, "application/x-www-form-urlencoded", stringsReader("emoji_code=2764&reaction_type=unicode_emoji")).OK()
	if got := types(qAlice.next()); !slices.Equal(got, []string{"reaction:remove", "reaction:remove"}) {
		t.Errorf("remove events %v", got)
	}
	// A private stream's message cannot be reacted to by outsiders.
	secret := send(t, alice, streamMsg("secret", "r", "hush"))
	guest.Post(msgPath(secret, "/reactions"), apitest.Form{"emoji_name": "+1"}).Fails(400, "BAD_REQUEST")
	bob.Post(msgPath(secret, "/reactions"), apitest.Form{"emoji_name": "+1"}).Fails(400, "BAD_REQUEST")
}

// TestReactionNameMustNameItsCode: with emoji_code given, emoji_name must
// be that emoji's name or an alias (Zulip's rule), so a reaction cannot
// carry an arbitrary (or 700 KB) name to every reader.
func TestReactionNameMustNameItsCode(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	id := send(t, alice, streamMsg("general", "r", "react to me"))
	path := msgPath(id, "/reactions")
	for _, bad := range []apitest.Form{
		{"emoji_name": strings.Repeat("x", 100000), "emoji_code": "1f44d"},
		{"emoji_name": "heart", "emoji_code": "1f44d"},
		{"emoji_name": "heart", "emoji_code": "1f44d", "reaction_type": "unicode_emoji"},
	} {
		if msg := bob.Post(path, bad).Fails(400, "BAD_REQUEST").Msg(); msg != "Invalid emoji name." {
			t.Errorf("message %q", msg)
		}
	}
	bob.Post(path, apitest.Form{"emoji_name": "thumbs_up", "emoji_code": "1f44d"}).OK() // an alias
	alice.Post(path, apitest.Form{"emoji_name": "heart", "emoji_code": "2764"}).OK()
	msg := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)
	var names []string
	for _, r := range msg["reactions"].([]any) {
		names = append(names, r.(map[string]any)["emoji_name"].(string))
	}
	if !slices.Equal(names, []string{"thumbs_up", "heart"}) {
		t.Errorf("reaction names %v", names)
	}
}
