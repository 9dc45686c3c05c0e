package domain

import (
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"lanchat/backend/store"
	"lanchat/markdown"
)

// UserObject is a user as the API shows it (spec 2.5 plus what Zulip
// clients read).
type UserObject struct {
	UserID        int64          `json:"user_id"`
	Email         string         `json:"email"`
	DeliveryEmail *string        `json:"delivery_email"`
	FullName      string         `json:"full_name"`
	AvatarURL     *string        `json:"avatar_url"`
	AvatarVersion int            `json:"avatar_version"`
	IsAdmin       bool           `json:"is_admin"`
	IsOwner       bool           `json:"is_owner"`
	IsGuest       bool           `json:"is_guest"`
	Role          int            `json:"role"`
	IsBot         bool           `json:"is_bot"`
	IsActive      bool           `json:"is_active"`
	Timezone      string         `json:"timezone"`
	DateJoined    string         `json:"date_joined"`
	BotType       *int           `json:"bot_type"`
	BotOwner      string         `json:"bot_owner,omitempty"`
	BotOwnerID    *int64         `json:"bot_owner_id,omitempty"`
	ProfileData   map[string]any `json:"profile_data,omitempty"`
}

// AvatarURL is where the server serves a user's avatar; it never points off
// the LAN. The version makes clients refetch after an upload.
func AvatarURL(u store.User) string {
	return fmt.Sprintf("/avatar/%d.png?version=%d", u.ID, u.AvatarVersion)
}

// userObject renders u for viewer. Avatars are always served by this server
// (generated or uploaded, never Gravatar), so avatar_url is set even when the
// client computes Gravatars: a null would send it to the internet.
func userObject(u store.User, viewer store.User, emailByID map[int64]string) UserObject {
	avatar := AvatarURL(u)
	o := UserObject{
		UserID:        u.ID,
		Email:         u.Email,
		FullName:      u.FullName,
		AvatarURL:     &avatar,
		AvatarVersion: u.AvatarVersion,
		IsAdmin:       isAdmin(u),
		IsOwner:       isOwner(u),
		IsGuest:       isGuest(u),
		Role:          u.Role,
		IsBot:         u.IsBot(),
		IsActive:      u.IsActive,
		Timezone:      u.Timezone,
		DateJoined:    time.Unix(u.DateJoined, 0).UTC().Format(time.RFC3339),
	}
	if viewer.ID == u.ID || isAdmin(viewer) {
		email := u.Email
		o.DeliveryEmail = &email
	}
	if u.IsBot() {
		botType, owner := u.BotType, u.BotOwnerID
		o.BotType = &botType
		o.BotOwnerID = &owner
		o.BotOwner = emailByID[owner]
	} else {
		o.ProfileData = map[string]any{}
	}
	return o
}

// isAdmin: administrators and owners.
func isAdmin(u store.User) bool { return u.Role <= store.RoleAdmin }

// isOwner: organization owners, who alone manage the owner role.
func isOwner(u store.User) bool { return u.Role == store.RoleOwner }

// isModerator: moderators, between administrators and members.
func isModerator(u store.User) bool { return u.Role == store.RoleModerator }

// isGuest: guests see only the streams they are subscribed to.
func isGuest(u store.User) bool { return u.Role == store.RoleGuest }

// Users lists every account, deactivated ones included, as GET /users does.
func (s *Service) Users(viewer store.User) ([]UserObject, error) {
	var users []store.User
	var values map[int64]map[int64]store.ProfileValue
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		if users, err = tx.Users(); err != nil {
			return err
		}
		values, err = tx.ProfileValues()
		return err
	})
	if err != nil {
		return nil, internal("list users", err)
	}
	emails := make(map[int64]string, len(users))
	for _, u := range users {
		emails[u.ID] = u.Email
	}
	out := make([]UserObject, 0, len(users))
	for _, u := range users {
		out = append(out, userObject(u, viewer, emails))
	}
	addProfileData(values, out)
	return out, nil
}

// User shows one account.
func (s *Service) User(viewer store.User, id int64) (UserObject, error) {
	var u, owner store.User
	var values []store.ProfileValue
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		if u, err = tx.User(id); err != nil {
			return err
		}
		if u.IsBot() {
			owner, _ = tx.User(u.BotOwnerID)
		}
		values, err = tx.UserProfileValues(id)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return UserObject{}, BadRequest("No such user")
	}
	if err != nil {
		return UserObject{}, internal("get user", err)
	}
	o := userObject(u, viewer, map[int64]string{owner.ID: owner.Email})
	for _, v := range values {
		if o.ProfileData == nil {
			break // a bot's: bots have no profile data
		}
		o.ProfileData[strconv.FormatInt(v.FieldID, 10)] = profileDataEntry(v, map[string]any{})
	}
	return o, nil
}

// UserIDByEmail finds an account by the email others see for it (level
// 302): everyone's real address, as Lanchat shows addresses to all.
func (s *Service) UserIDByEmail(email string) (int64, error) {
	var id int64
	err := s.store.View(func(tx *store.Tx) error {
		u, err := tx.UserByEmail(email)
		id = u.ID
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return 0, BadRequest("No such user")
	}
	return id, internal("find user", err)
}

// NewUser describes an account to create.
type NewUser struct {
	Email      string
	FullName   string
	Password   string // empty: the account can log in only with its API key
	Role       int
	BotType    int
	BotOwnerID int64
	// SkipDefaultStreams keeps the person out of the default streams (an
	// invitation that did not include them).
	SkipDefaultStreams bool
}

// Limits on names, as in Zulip.
const (
	MaxNameLength  = 100
	MaxEmailLength = 254
)

// validateEmail checks an address given as the parameter name.
func validateEmail(name, email string) error {
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || len(email) > MaxEmailLength {
		return InvalidArgument(name, fmt.Sprintf("'%s' is not a valid email address", email))
	}
	return nil
}

func validateNewUser(n *NewUser) error {
	n.Email = strings.TrimSpace(n.Email)
	n.FullName = strings.TrimSpace(n.FullName)
	if err := validateEmail("email", n.Email); err != nil {
		return err
	}
	if err := validateFullName(n.FullName); err != nil {
		return err
	}
	switch n.Role {
	case store.RoleOwner, store.RoleAdmin, store.RoleModerator, store.RoleMember, store.RoleGuest:
	default:
		return InvalidArgument("role", fmt.Sprintf("%d is not a role", n.Role))
	}
	return nil
}

func validateFullName(name string) error {
	switch {
	case name == "":
		return BadRequest("Name too short!")
	case utf8.RuneCountInString(name) > MaxNameLength:
		return BadRequest("Name too long!")
	case strings.ContainsFunc(name, markdown.BreaksMention):
		// These would break mention syntax (@**Name**), as Zulip refuses them.
		return BadRequest("Invalid characters in name!")
	}
	return nil
}

// createUser stores a validated new account inside tx. It is the one place
// accounts are born: the CLI, the API and the dev organization all call it.
func (s *Service) createUser(tx *store.Tx, n NewUser) (store.User, error) {
	if err := validateNewUser(&n); err != nil {
		return store.User{}, err
	}
	if _, err := tx.UserByEmail(n.Email); err == nil {
		return store.User{}, BadRequest("Email '%s' already in use", n.Email)
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.User{}, err
	}
	if n.BotType == 0 {
		if err := checkUniqueName(tx, n.FullName, 0); err != nil {
			return store.User{}, err
		}
	}
	u := store.User{
		Email:      n.Email,
		FullName:   n.FullName,
		Role:       n.Role,
		IsActive:   true,
		BotType:    n.BotType,
		BotOwnerID: n.BotOwnerID,
		APIKey:     newAPIKey(),
		DateJoined: s.now().Unix(),
		Timezone:   "",
	}
	if n.Password != "" {
		h, err := hashPassword(n.Password)
		if err != nil {
			return store.User{}, err
		}
		u.PasswordHash = h
	}
	if err := tx.CreateUser(&u); err != nil {
		return store.User{}, err
	}
	if n.SkipDefaultStreams {
		return u, nil
	}
	return u, joinDefaultStreams(tx, u)
}

// CreateUserAsHost creates an account on the host's authority (no actor, no
// permission check: the host owns the store), for `lanchatd user add` and
// the desktop host panel; CreateUser is the checked path an administrator
// takes, and calls it once the check passes. Everyone online sees the new
// person arrive (realm_user add) in the streams they joined.
func (s *Service) CreateUserAsHost(n NewUser) (store.User, error) {
	var u store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		var err error
		if u, err = s.createUser(tx, n); err != nil {
			return nil, err
		}
		out, err := s.announceNewUser(tx, u)
		return out.publish, err
	})
	if err != nil {
		return store.User{}, internal("add user", err)
	}
	s.announceSignup(u)
	return u, nil
}

// announceNewUser tells everyone online that u arrived (realm_user add), in
// their role's system groups and in the streams u joined.
func (s *Service) announceNewUser(tx *store.Tx, u store.User) (deliveries, error) {
	person, err := ToMap(userObject(u, u, nil))
	if err != nil {
		return nil, err
	}
	delete(person, "delivery_email")
	announce, err := s.realmUserEvent(tx, "add", person)
	if err != nil {
		return nil, err
	}
	out := deliveries{announce}
	joined, err := s.systemGroupMoves(tx, u.ID, nil, systemGroupsOfRole(u.Role))
	if err != nil {
		return nil, err
	}
	out = append(out, joined...)
	subs, err := tx.UserSubscriptions(u.ID)
	if err != nil {
		return nil, err
	}
	for _, sub := range subs {
		st, err := tx.Stream(sub.StreamID)
		if err != nil {
			return nil, err
		}
		if err := s.subscriptionEvents(tx, &out, st, false, []int64{u.ID}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SetPasswordAsHost gives an existing account a new password on the
// host's authority (the desktop host panel): imported people have none
// until it is issued. IssuePassword is the administrators' checked path.
func (s *Service) SetPasswordAsHost(email, password string) (store.User, error) {
	return s.setPassword(func(tx *store.Tx) (store.User, error) {
		u, err := tx.UserByEmail(email)
		if errors.Is(err, store.ErrNotFound) {
			return u, BadRequest("No account has the email %s", email)
		}
		return u, err
	}, password, nil)
}

// setPassword is the one place a person's password is set for them: the
// account find returns gets it, once allowed (if given) accepts it, and
// their browser sessions end. Bots have no password.
func (s *Service) setPassword(find func(*store.Tx) (store.User, error), password string, allowed func(store.User) error) (store.User, error) {
	hash, err := hashPassword(password)
	if err != nil {
		return store.User{}, err
	}
	var u store.User
	err = s.store.Update(func(tx *store.Tx) error {
		if u, err = find(tx); err != nil {
			return err
		}
		if u.BotType != 0 {
			return BadRequest("%s is a bot: bots sign in with their API key", u.Email)
		}
		if allowed != nil {
			if err := allowed(u); err != nil {
				return err
			}
		}
		u.PasswordHash = hash
		if err := tx.DeleteUserSessions(u.ID, ""); err != nil {
			return err
		}
		return tx.PutUser(u)
	})
	return u, internal("set password", err)
}

// joinDefaultStreams subscribes a new person to the organization's default
// streams; bots join streams only when asked.
func joinDefaultStreams(tx *store.Tx, u store.User) error {
	if u.IsBot() {
		return nil
	}
	realm, err := tx.Realm()
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, id := range realm.DefaultStreamIDs {
		st, err := tx.Stream(id)
		if errors.Is(err, store.ErrNotFound) {
			continue // deleted since
		}
		if err != nil {
			return err
		}
		if _, err := subscribe(tx, u.ID, st); err != nil {
			return err
		}
	}
	return nil
}

// RegenerateAPIKey gives the actor a new API key; the old one stops working
// at once. Bots are refused, as in Zulip: their owner regenerates theirs.
func (s *Service) RegenerateAPIKey(actor store.User) (string, error) {
	if actor.IsBot() {
		return "", ErrBotRequest
	}
	key := newAPIKey()
	err := s.store.Update(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		u.APIKey = key
		return tx.PutUser(u)
	})
	return key, internal("regenerate api key", err)
}
