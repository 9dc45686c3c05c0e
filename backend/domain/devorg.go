package domain

import (
	"errors"

	"lanchat/backend/store"
)

// DevPassword is every demo human's password.
const DevPassword = "lanchat-dev"

// SeedDevOrganization creates the demo organization on an empty store in
// one transaction; a store that already has an organization is left alone.
func (s *Service) SeedDevOrganization() error {
	err := s.store.Update(func(tx *store.Tx) error {
		if _, err := tx.Realm(); !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := ensureRealm(tx, "Lanchat Dev", s.now().Unix()); err != nil {
			return err
		}
		return s.seedDev(tx)
	})
	return internal("seed dev organization", err)
}

func (s *Service) seedDev(tx *store.Tx) error {
	users := map[string]store.User{}
	for _, n := range []NewUser{
		{Email: "admin@example.com", FullName: "Ada Admin", Role: store.RoleAdmin, Password: DevPassword},
		{Email: "alice@example.com", FullName: "Alice Anders", Role: store.RoleMember, Password: DevPassword},
		{Email: "bob@example.com", FullName: "Bob Brown", Role: store.RoleMember, Password: DevPassword},
		{Email: "guest@example.com", FullName: "Gus Guest", Role: store.RoleGuest, Password: DevPassword},
	} {
		u, err := s.createUser(tx, n)
		if err != nil {
			return err
		}
		users[n.Email] = u
	}
	admin := users["admin@example.com"]
	for _, n := range []NewUser{
		{Email: "echo-bot@example.com", FullName: "Echo Bot", Role: store.RoleMember, BotType: store.BotGeneric, BotOwnerID: admin.ID},
		{Email: "webhook-bot@example.com", FullName: "Webhook Bot", Role: store.RoleMember, BotType: store.BotIncomingWebhook, BotOwnerID: admin.ID},
	} {
		u, err := s.createUser(tx, n)
		if err != nil {
			return err
		}
		users[n.Email] = u
	}
	streams := []struct {
		name, description string
		inviteOnly        bool
		members           []string
	}{
		// echo-bot reads general, so a bot run against the demo answers mentions there.
		{"general", "Everyone's stream", false, []string{"admin@example.com", "alice@example.com", "bob@example.com", "guest@example.com", "echo-bot@example.com"}},
		{"random", "Anything goes", false, []string{"admin@example.com", "alice@example.com"}},
		{"secret", "Only for invited people", true, []string{"admin@example.com", "alice@example.com"}},
	}
	byName := map[string]store.Stream{}
	for _, def := range streams {
		st, err := s.createStream(tx, def.name, def.description, def.inviteOnly, 0)
		if err != nil {
			return err
		}
		byName[def.name] = st
		for _, email := range def.members {
			if _, err := subscribe(tx, users[email].ID, st); err != nil {
				return err
			}
		}
	}
	eng := store.UserGroup{Name: "engineering", Description: "The engineering team",
		Members: []int64{users["alice@example.com"].ID, users["bob@example.com"].ID}}
	if err := tx.CreateUserGroup(&eng); err != nil {
		return err
	}
	for _, msg := range []struct{ from, topic, content string }{
		{"admin@example.com", "welcome", "Welcome to **Lanchat**! This organization is for trying things out."},
		{"alice@example.com", "welcome", "Hi everyone :wave: glad to be here."},
		{"bob@example.com", "lunch", "Anyone up for lunch at noon?"},
		{"alice@example.com", "lunch", "Count me in, @**Bob Brown**."},
	} {
		sender := users[msg.from]
		target := messageTarget{stream: byName["general"], topic: msg.topic}
		if _, _, err := s.storeMessage(tx, sender, target,
			store.Message{Content: msg.content, Timestamp: s.now().Unix(), Client: "Lanchat"}, s.render(tx, sender, msg.content), readBySender); err != nil {
			return err
		}
	}
	return nil
}
