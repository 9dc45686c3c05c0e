package api_test

import (
	"cmp"
	"testing"

	"lanchat/backend/apitest"
)

// TestOpenRoutes: public probes answer a stranger without credentials as
// the table says (bots signing in with a password are refused there),
// anyone probes answer every kind of account: a member, a guest, a bot and
// an administrator, and the probes of routes for people (class humans)
// answer every kind of person.
func TestOpenRoutes(t *testing.T) {
	s, w := startWorld(t)
	for _, p := range collect(w, public) {
		res := p.send(s.Anonymous())
		if res.Status != cmp.Or(p.status, 200) || (p.code != "" && res.Body["code"] != p.code) || res.Body["result"] == nil {
			t.Errorf("%s without credentials: %d %s, want %d %s", p.name, res.Status, res.Raw, cmp.Or(p.status, 200), p.code)
		}
	}
	table := permissions()
	for _, c := range []*apitest.Client{w.bob, w.guest, w.echo, w.admin} {
		for _, p := range collect(w, anyone, humans) {
			if p.who == humans && (table[p.route].class != humans || c == w.echo) {
				continue
			}
			if res := p.send(c); res.Status != cmp.Or(p.status, 200) {
				t.Errorf("%s, %s: %d %.300s", c.Email(), p.name, res.Status, res.Raw)
			}
		}
	}
}

// TestRoleRules runs every admin, owners, owner, author, members and humans probe
// as each account its rule refuses (each must get a 400 error), checks that
// the refusals changed nothing, then runs it as the accounts the rule
// allows (each must succeed), so every refusal is about who asks.
func TestRoleRules(t *testing.T) {
	_, w := startWorld(t)
	roles := []struct {
		who     class
		refused []*apitest.Client
	}{
		// A bot is never an administrator, even an administrator's bot.
		{admin, []*apitest.Client{w.alice, w.guest, w.echo}},
		{owners, []*apitest.Client{w.alice, w.guest, w.echo, w.admin}},
		// Nor does a bot act for its owner, on itself or on its siblings.
		{owner, []*apitest.Client{w.bob, w.guest, w.echo, w.aliceBot, w.aliceBot2}},
		{author, []*apitest.Client{w.bob, w.guest, w.echo, w.aliceBot, w.admin}},
		{members, []*apitest.Client{w.guest}},
		{humans, []*apitest.Client{w.echo, w.aliceBot}},
	}
	before := snapshot(t, w)
	for _, r := range roles {
		for _, p := range collect(w, r.who) {
			for _, c := range r.refused {
				if res := p.send(c); res.Status != 400 || res.Body["result"] != "error" {
					t.Errorf("%s may %s: %d %s", c.Email(), p.name, res.Status, res.Raw)
				}
			}
		}
	}
	if after := snapshot(t, w); after != before {
		t.Errorf("refused requests changed the organization:\nbefore %s\nafter  %s", before, after)
	}
	// Each allowed turn acts on things left for it: the owner's on w, the
	// administrator's on w.forAdmin().
	turns := []struct {
		who class
		c   *apitest.Client
		w   world
	}{
		{admin, w.admin, w}, {owner, w.alice, w}, {owner, w.admin, w.forAdmin()},
		{author, w.alice, w}, {members, w.alice, w}, {humans, w.alice, w},
	}
	for _, turn := range turns {
		for _, p := range collect(turn.w, turn.who) {
			if res := p.send(turn.c); res.Status != 200 {
				t.Errorf("%s cannot %s: %d %s", turn.c.Email(), p.name, res.Status, res.Raw)
			}
		}
	}
}

// snapshot is what an administrator and alice can read of the
// organization, to tell that refused requests changed none of it.
func snapshot(t *testing.T, w world) string {
	t.Helper()
	var out []byte
	for _, r := range []struct {
		c    *apitest.Client
		path string
		form apitest.Form
	}{
		{w.admin, "/api/v1/server_settings", nil},
		{w.admin, "/api/v1/users", nil},
		{w.admin, "/api/v1/streams", apitest.Form{"include_all_active": true}},
		{w.admin, "/api/v1/users/me/subscriptions", apitest.Form{"include_subscribers": true}},
		{w.admin, "/api/v1/realm/filters", nil},
		{w.admin, "/api/v1/user_groups", nil},
		{w.admin, "/api/v1/realm/emoji", nil},
		{w.admin, "/api/v1/messages", narrowed(`[]`)},
		{w.admin, "/api/v1/bots", nil},
		{w.alice, "/api/v1/bots", nil},
		{w.alice, "/api/v1/messages", narrowed(`[]`)},
	} {
		out = append(append(out, r.c.Get(r.path, r.form).OK().Raw...), '\n')
	}
	return string(out)
}

// TestIncomingWebhookBotsOnlySend: an incoming-webhook bot's key is
// refused as Zulip refuses it (401 UNAUTHORIZED, "This API is not available
// to incoming webhook bots.") by every probe of every route that needs an
// account, except on the routes of incomingWebhookBots, and the refusals
// change nothing. There it works: it sends a message, as itself.
func TestIncomingWebhookBotsOnlySend(t *testing.T) {
	_, w := startWorld(t)
	table := permissions()
	before := snapshot(t, w)
	refused := map[string]int{}
	for _, p := range allProbes(w) {
		if table[p.route].class == public || incomingWebhookBots[p.route] {
			continue
		}
		res := p.send(w.webhookBot)
		if res.Status != 401 || res.Body["code"] != "UNAUTHORIZED" || res.Msg() != "This API is not available to incoming webhook bots." {
			t.Errorf("the webhook bot may %s: %d %.300s", p.name, res.Status, res.Raw)
		}
		refused[p.route]++
	}
	if after := snapshot(t, w); after != before {
		t.Errorf("the webhook bot's refused requests changed the organization:\nbefore %s\nafter  %s", before, after)
	}
	send(t, w.webhookBot, streamMsg("general", "deploys", "shipped"))
	if m := lastMessage(t, w.admin, `[["stream","general"]]`); m["sender_email"] != w.webhookBot.Email() || m["content"] != "shipped" {
		t.Errorf("the webhook bot's message: %v", m)
	}
	t.Logf("refused on %d routes", len(refused))
}

// TestBotsActAsThemselves: what a bot sends, through the API or a webhook
// URL, is the bot's, never its owner's.
func TestBotsActAsThemselves(t *testing.T) {
	s, w := startWorld(t)
	for _, p := range collect(w, webhook) {
		p.send(s.Anonymous()).OK()
		if m := lastMessage(t, w.admin, `[["stream","general"]]`); m["sender_email"] != "webhook-bot@example.com" {
			t.Errorf("%s: sent as %v", p.name, m["sender_email"])
		}
	}
	send(t, w.aliceBot, streamMsg("general", "bots", "beep"))
	if m := lastMessage(t, w.admin, `[["stream","general"]]`); m["sender_email"] != w.aliceBot.Email() {
		t.Errorf("alice's bot sent as %v", m["sender_email"])
	}
}
