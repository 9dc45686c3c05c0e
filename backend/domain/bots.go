package domain

import (
	"regexp"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// BotObject is a bot as GET /bots shows it to its owner.
type BotObject struct {
	UserID    int64  `json:"user_id"`
	FullName  string `json:"full_name"`
	Email     string `json:"email"`
	Username  string `json:"username"`
	BotType   int    `json:"bot_type"`
	IsActive  bool   `json:"is_active"`
	APIKey    string `json:"api_key"`
	OwnerID   int64  `json:"owner_id"`
	AvatarURL string `json:"avatar_url"`
}

func botObject(u store.User) BotObject {
	return BotObject{UserID: u.ID, FullName: u.FullName, Email: u.Email, Username: u.Email, BotType: u.BotType,
		IsActive: u.IsActive, APIKey: u.APIKey, OwnerID: u.BotOwnerID, AvatarURL: AvatarURL(u)}
}

// PersonOf is the person an account acts for: a bot's owner, else the
// account itself. What one person may hold of the server at once (uploads
// in flight, downloads, open event sockets) is counted by it, since every
// member may create bots.
func PersonOf(u store.User) int64 {
	if u.IsBot() && u.BotOwnerID != 0 {
		return u.BotOwnerID
	}
	return u.ID
}

// Bots lists the actor's own bots (deactivated included), with their keys.
func (s *Service) Bots(actor store.User) ([]BotObject, error) {
	out := []BotObject{}
	err := s.store.View(func(tx *store.Tx) error {
		users, err := tx.Users()
		for _, u := range users {
			if u.IsBot() && u.BotOwnerID == actor.ID {
				out = append(out, botObject(u))
			}
		}
		return err
	})
	return out, internal("list bots", err)
}

var shortNamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)

// checkCanCreateBot is the organization's gate for new bots:
// can_create_bots_group, or for an incoming webhook bot also
// can_create_write_only_bots_group.
func checkCanCreateBot(tx *store.Tx, actor store.User, botType int) error {
	allowed, err := realmAllows(tx, actor, SettingCreateBots)
	if err == nil && !allowed && botType == store.BotIncomingWebhook {
		allowed, err = realmAllows(tx, actor, SettingCreateWriteOnlyBots)
	}
	if err == nil && !allowed {
		return BadRequest("Insufficient permission")
	}
	return err
}

// CreateBot makes a generic or incoming-webhook bot owned by the actor,
// with the address <short_name>-bot@<the owner's domain>.
func (s *Service) CreateBot(actor store.User, fullName, shortName string, botType int) (BotObject, error) {
	if isGuest(actor) || actor.IsBot() {
		return BotObject{}, BadRequest("Insufficient permission")
	}
	if botType != store.BotGeneric && botType != store.BotIncomingWebhook {
		return BotObject{}, BadRequest("Invalid bot type")
	}
	shortName = strings.ToLower(strings.TrimSpace(shortName))
	if !shortNamePattern.MatchString(shortName) {
		return BotObject{}, BadRequest("Bad name or username")
	}
	_, domain, _ := strings.Cut(actor.Email, "@")
	var bot store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		if err := checkCanCreateBot(tx, actor, botType); err != nil {
			return nil, err
		}
		var err error
		bot, err = s.createUser(tx, NewUser{Email: shortName + "-bot@" + domain, FullName: fullName, Role: store.RoleMember,
			BotType: botType, BotOwnerID: actor.ID})
		if err != nil {
			return nil, err
		}
		person, err := ToMap(userObject(bot, bot, map[int64]string{actor.ID: actor.Email}))
		if err != nil {
			return nil, err
		}
		delete(person, "delivery_email")
		announce, err := s.realmUserEvent(tx, "add", person)
		if err != nil {
			return nil, err
		}
		joined, err := s.systemGroupMoves(tx, bot.ID, nil, systemGroupsOfRole(bot.Role))
		if err != nil {
			return nil, err
		}
		return append(deliveries{announce}, joined...).publish, nil
	})
	return botObject(bot), internal("create bot", err)
}

// manageableBot checks that u is a bot the actor owns, or the actor is an
// administrator.
func manageableBot(actor, u store.User) error {
	if !u.IsBot() {
		return BadRequest("No such bot")
	}
	if u.BotOwnerID != actor.ID && !isAdmin(actor) {
		return BadRequest("Insufficient permission")
	}
	return nil
}

// botAction loads a bot its owner or an administrator may change.
func botAction(tx *store.Tx, actor store.User, id int64) (store.User, error) {
	bot, err := tx.User(id)
	if err != nil {
		return store.User{}, BadRequest("No such bot")
	}
	return bot, manageableBot(actor, bot)
}

// BotChange is PATCH /bots/{id}: a new name and/or a new owner.
type BotChange struct {
	FullName *string
	OwnerID  *int64
}

// UpdateBot renames a bot or gives it to another owner. The bot keeps its
// subscriptions when its owner changes (level 359): whoever gives it away
// decides what it reads.
func (s *Service) UpdateBot(actor store.User, id int64, ch BotChange) error {
	return internal("update bot", s.update(func(tx *store.Tx) (func(), error) {
		bot, err := botAction(tx, actor, id)
		if err != nil {
			return nil, err
		}
		person := map[string]any{"user_id": bot.ID}
		var out deliveries
		if ch.FullName != nil {
			name := strings.TrimSpace(*ch.FullName)
			if err := validateFullName(name); err != nil {
				return nil, err
			}
			bot.FullName, person["full_name"] = name, name
		}
		if ch.OwnerID != nil && *ch.OwnerID != bot.BotOwnerID {
			owner, err := tx.User(*ch.OwnerID)
			switch {
			case err != nil:
				return nil, BadRequest("Failed to change owner, no such user")
			case !owner.IsActive:
				return nil, BadRequest("Failed to change owner, user is deactivated")
			case owner.IsBot():
				return nil, BadRequest("Failed to change owner, bots can't own other bots")
			}
			// The previous owner stops managing it, unless an administrator.
			if previous, err := tx.User(bot.BotOwnerID); err == nil && !isAdmin(previous) {
				out.add(s, events.Event{"type": "realm_bot", "op": "delete", "bot": map[string]any{"user_id": bot.ID}}, []int64{previous.ID})
			}
			bot.BotOwnerID, person["bot_owner_id"] = owner.ID, owner.ID
			changed, err := s.realmBotEvent(tx, bot, "update", map[string]any{"user_id": bot.ID, "owner_id": owner.ID})
			if err != nil {
				return nil, err
			}
			out = append(out, changed)
		}
		if len(person) == 1 {
			return nil, BadRequest("No new data supplied")
		}
		if err := tx.PutUser(bot); err != nil {
			return nil, err
		}
		publish, err := s.realmUserEvent(tx, "update", person)
		if err != nil {
			return nil, err
		}
		return append(out, publish).publish, nil
	}))
}

// DeactivateBot turns a bot off; its key stops working at once.
func (s *Service) DeactivateBot(actor store.User, id int64) error {
	return s.setActive(id, false, func(_ *store.Tx, bot store.User) error { return manageableBot(actor, bot) })
}

// RegenerateBotKey gives a bot a new API key; the old one stops working.
func (s *Service) RegenerateBotKey(actor store.User, id int64) (string, error) {
	var key string
	err := s.store.Update(func(tx *store.Tx) error {
		bot, err := botAction(tx, actor, id)
		if err != nil {
			return err
		}
		if err := mayReplaceCredentials(actor, bot); err != nil {
			return err
		}
		bot.APIKey = newAPIKey()
		key = bot.APIKey
		return tx.PutUser(bot)
	})
	return key, internal("regenerate bot key", err)
}
