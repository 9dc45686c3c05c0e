package domain

import (
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// realmUserEvent tells everyone about a change to one account.
func (s *Service) realmUserEvent(tx *store.Tx, op string, person map[string]any) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	e := events.Event{"type": "realm_user", "op": op, "person": person}
	return func() { s.events.Publish(e, users) }, nil
}

// realmBotEvent is a realm_bot event about bot, to those who manage it:
// the administrators and its owner.
func (s *Service) realmBotEvent(tx *store.Tx, bot store.User, op string, fields map[string]any) (func(), error) {
	users, err := tx.Users()
	if err != nil {
		return nil, err
	}
	var managers []int64
	for _, u := range users {
		if u.IsActive && (isAdmin(u) || u.ID == bot.BotOwnerID) {
			managers = append(managers, u.ID)
		}
	}
	e := events.Event{"type": "realm_bot", "op": op, "bot": fields}
	return func() { s.events.Publish(e, managers) }, nil
}

// CreateUser is an administrator adding an account with a password: the
// checked path to CreateUserAsHost.
func (s *Service) CreateUser(actor store.User, n NewUser) (int64, error) {
	if !isAdmin(actor) {
		return 0, ErrNotAdmin
	}
	if n.Password == "" {
		return 0, MissingArgument("password")
	}
	u, err := s.CreateUserAsHost(n)
	return u.ID, err
}

// keepsOne refuses, with refusal, a change that would take the
// organization's last active person with a role (the last administrator,
// owners counting, or the last owner) out of it.
func keepsOne(tx *store.Tx, u store.User, hasRole func(store.User) bool, refusal string) error {
	if !u.IsActive || u.IsBot() || !hasRole(u) {
		return nil
	}
	users, err := tx.Users()
	if err != nil {
		return err
	}
	for _, other := range users {
		if other.ID != u.ID && other.IsActive && !other.IsBot() && hasRole(other) {
			return nil
		}
	}
	return BadRequest("%s", refusal)
}

// UserChange is PATCH /users/{id}: a new full name, role or profile data.
type UserChange struct {
	FullName    *string
	Role        *int
	ProfileData []ProfileDataChange // custom profile field values, set or cleared
	// NewEmail changes the account's address (level 313): organization
	// owners only, Lanchat's holders of Zulip's can_change_user_emails
	// (which Zulip's server operator grants; on Lanchat the owner runs the
	// server).
	NewEmail *string
}

// UpdateUser renames an account, changes its role or its custom profile
// field values (administrators only); the last administrator keeps their
// role.
func (s *Service) UpdateUser(actor store.User, id int64, ch UserChange) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	if ch.FullName == nil && ch.Role == nil && ch.ProfileData == nil && ch.NewEmail == nil {
		return BadRequest("No new data supplied")
	}
	if ch.NewEmail != nil && !isOwner(actor) {
		return ErrNotOwner
	}
	// A role change runs alone: nothing publishes between its commit and
	// the end of the queues the new role may not hold (roleEvents).
	return internal("update user", s.updateAlone(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(id)
		if err != nil {
			return nil, BadRequest("No such user")
		}
		var out deliveries
		if ch.FullName != nil {
			name := strings.TrimSpace(*ch.FullName)
			if err := validateFullName(name); err != nil {
				return nil, err
			}
			if !u.IsBot() {
				if err := checkUniqueName(tx, name, u.ID); err != nil {
					return nil, err
				}
			}
			u.FullName = name
			publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "full_name": name})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
		if ch.NewEmail != nil && !strings.EqualFold(*ch.NewEmail, u.Email) {
			email := strings.TrimSpace(*ch.NewEmail)
			if err := validateEmail("new_email", email); err != nil {
				return nil, err
			}
			if _, err := tx.UserByEmail(email); err == nil {
				return nil, BadRequest("Email '%s' already in use", email)
			}
			u.Email = email
			for _, field := range []string{"new_email", "delivery_email"} {
				publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, field: email})
				if err != nil {
					return nil, err
				}
				out = append(out, publish)
			}
		}
		if ch.Role != nil && *ch.Role != u.Role {
			if err := validateRole(*ch.Role); err != nil {
				return nil, err
			}
			// As in Zulip, only owners grant or remove the owner role.
			if (*ch.Role == store.RoleOwner || isOwner(u)) && !isOwner(actor) {
				return nil, ErrNotOwner
			}
			if err := keepsOne(tx, u, isOwner, "The owner permission cannot be removed from the only organization owner."); err != nil {
				return nil, err
			}
			if *ch.Role > store.RoleAdmin {
				if err := keepsOne(tx, u, isAdmin, "The last organization administrator cannot be demoted."); err != nil {
					return nil, err
				}
			}
			announce, err := s.roleEvents(tx, u, *ch.Role)
			if err != nil {
				return nil, err
			}
			u.Role = *ch.Role
			out = append(out, announce...)
		}
		if ch.ProfileData != nil {
			changed, err := s.setProfileValues(tx, u, ch.ProfileData)
			if err != nil {
				return nil, err
			}
			out = append(out, changed...)
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return out.publish, nil
	}))
}

// roleEvents are what follows u taking the role: first the end of the
// queues the new role may not hold (a guest's all_public_streams ones, which
// would go on hearing every public stream), then, as in Zulip (level 205),
// the realm_user update of the role to everyone and, to u, stream delete
// for the streams u no longer sees and stream create with each one's
// subscribers (peer_add) for those u now sees. tx must not yet hold the new
// role.
func (s *Service) roleEvents(tx *store.Tx, u store.User, role int) (deliveries, error) {
	var out deliveries
	changed := u
	changed.Role = role
	if isGuest(changed) {
		out = append(out, func() { s.events.DeletePublicQueues(u.ID) })
	}
	publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "role": role})
	if err != nil {
		return nil, err
	}
	out = append(out, publish)
	moves, err := s.systemGroupMoves(tx, u.ID, systemGroupsOfRole(u.Role), systemGroupsOfRole(role))
	if err != nil {
		return nil, err
	}
	out = append(out, moves...)
	streams, err := tx.Streams()
	if err != nil {
		return nil, err
	}
	var lost, gained []StreamObject
	for _, st := range streams {
		before, after := canSeeStream(tx, u, st), canSeeStream(tx, changed, st)
		switch {
		case before && !after:
			lost = append(lost, s.streamObject(tx, st))
		case after && !before:
			gained = append(gained, s.streamObject(tx, st))
		}
	}
	if len(lost) > 0 {
		out.add(s, events.Event{"type": "stream", "op": "delete", "streams": lost}, []int64{u.ID})
	}
	if len(gained) > 0 {
		out.add(s, events.Event{"type": "stream", "op": "create", "streams": gained}, []int64{u.ID})
		for _, st := range gained {
			if subscribers := tx.StreamSubscriberIDs(st.StreamID); len(subscribers) > 0 {
				out.add(s, events.Event{"type": "subscription", "op": "peer_add", "stream_ids": []int64{st.StreamID},
					"user_ids": subscribers}, []int64{u.ID})
			}
		}
	}
	return out, nil
}

func validateRole(role int) error {
	switch role {
	case store.RoleOwner, store.RoleAdmin, store.RoleModerator, store.RoleMember, store.RoleGuest:
		return nil
	}
	return InvalidArgument("role", "not a role")
}

// DeactivateUser deactivates an account (administrators only; owners only
// by owners, as in Zulip). Its keys, sessions and event queues stop working
// at once; the last administrator and the last owner cannot be deactivated.
func (s *Service) DeactivateUser(actor store.User, id int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return s.setActive(id, false, func(tx *store.Tx, u store.User) error {
		if isOwner(u) && !isOwner(actor) {
			return ErrNotOwner
		}
		return keepsOne(tx, u, isOwner, "Cannot deactivate the only organization owner")
	})
}

// ReactivateUser lets a deactivated account back in (administrators only).
func (s *Service) ReactivateUser(actor store.User, id int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return s.setActive(id, true, nil)
}

// IssuePassword is an administrator giving a person a new generated
// password to pass on (imported people have none, and there is no mail to
// reset one by); only an owner may for an administrator or an owner
// (mayReplaceCredentials).
func (s *Service) IssuePassword(actor store.User, id int64) (string, error) {
	if !isAdmin(actor) {
		return "", ErrNotAdmin
	}
	password := randomString(16, apiKeyAlphabet)
	_, err := s.setPassword(func(tx *store.Tx) (store.User, error) {
		u, err := tx.User(id)
		if err != nil {
			return u, BadRequest("No such user")
		}
		return u, nil
	}, password, func(u store.User) error { return mayReplaceCredentials(actor, u) })
	if err != nil {
		return "", err
	}
	return password, nil
}

// setActive is the one place accounts are switched on and off, in one
// transaction once allowed (if given) accepts the account. Deactivating a
// person deactivates their bots too, as Zulip does, so a departed user's
// integrations stop with them; reactivation leaves the bots off.
func (s *Service) setActive(id int64, active bool, allowed func(*store.Tx, store.User) error) error {
	err := s.updateAlone(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(id)
		if err != nil {
			return nil, BadRequest("No such user")
		}
		if allowed != nil {
			if err := allowed(tx, u); err != nil {
				return nil, err
			}
		}
		if u.IsActive == active {
			if active {
				return nil, BadRequest("User is already active")
			}
			return nil, BadRequest("User is already deactivated")
		}
		targets := []store.User{u}
		if !active {
			if err := keepsOne(tx, u, isAdmin, "Cannot deactivate the only organization administrator."); err != nil {
				return nil, err
			}
			if targets, err = withActiveBots(tx, u); err != nil {
				return nil, err
			}
		}
		var out deliveries
		for _, t := range targets {
			t.IsActive = active
			if err := tx.PutUser(t); err != nil {
				return nil, err
			}
			publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": t.ID, "is_active": active})
			if err != nil {
				return nil, err
			}
			if t.IsBot() {
				// Bot lists hear it too, as an update (level 222).
				botPublish, err := s.realmBotEvent(tx, t, "update", map[string]any{"user_id": t.ID, "is_active": active})
				if err != nil {
					return nil, err
				}
				out = append(out, botPublish)
			}
			if !active {
				out = append(out, func() { s.events.DeleteUser(t.ID) }, func() { s.silencePhones(t) })
				// As in Zulip, what they invited stops letting people in.
				revoked, err := s.revokeInvitesBy(tx, t.ID)
				if err != nil {
					return nil, err
				}
				out = append(out, revoked)
			}
			out = append(out, publish)
			groups, err := s.activationGroupEvents(tx, t, active)
			if err != nil {
				return nil, err
			}
			out = append(out, groups...)
		}
		return out.publish, nil
	})
	return internal("set user active", err)
}

// withActiveBots is u followed by the active bots u owns.
func withActiveBots(tx *store.Tx, u store.User) ([]store.User, error) {
	out := []store.User{u}
	if u.IsBot() {
		return out, nil
	}
	users, err := tx.Users()
	for _, b := range users {
		if b.IsBot() && b.IsActive && b.BotOwnerID == u.ID {
			out = append(out, b)
		}
	}
	return out, err
}
