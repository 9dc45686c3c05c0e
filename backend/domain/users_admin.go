package domain

import (
	"strings"

	"golang.org/x/crypto/bcrypt"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// realmUserEvent tells everyone about a change to one account.
func (s *Service) realmUserEvent(tx *store.Tx, op string, person map[string]any) (func(), error) {
	users, err := userIDs(tx, true)
	if err != nil {
		return nil, err
	}
	e := events.Event{"type": "realm_user", "op": op, "person": person}
	return func() { s.events.Publish(e, users) }, nil
}

// CreateUser is an administrator adding an account with a password.
func (s *Service) CreateUser(actor store.User, n NewUser) (int64, error) {
	if !isAdmin(actor) {
		return 0, ErrNotAdmin
	}
	if n.Password == "" {
		return 0, MissingArgument("password")
	}
	var u store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		var err error
		if u, err = s.createUser(tx, n); err != nil {
			return nil, err
		}
		emails := map[int64]string{actor.ID: actor.Email}
		person, err := ToMap(userObject(u, u, emails))
		if err != nil {
			return nil, err
		}
		delete(person, "delivery_email")
		return s.realmUserEvent(tx, "add", person)
	})
	return u.ID, internal("create user", err)
}

// adminCount counts active administrators and owners.
func adminCount(tx *store.Tx) (int, error) {
	users, err := tx.Users()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		if u.IsActive && !u.IsBot() && isAdmin(u) {
			n++
		}
	}
	return n, nil
}

// UserChange is PATCH /users/{id}: a new full name and/or role.
type UserChange struct {
	FullName *string
	Role     *int
}

// UpdateUser renames an account or changes its role (administrators only);
// the last administrator keeps their role.
func (s *Service) UpdateUser(actor store.User, id int64, ch UserChange) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	if ch.FullName == nil && ch.Role == nil {
		return BadRequest("No new data supplied")
	}
	return internal("update user", s.update(func(tx *store.Tx) (func(), error) {
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
			u.FullName = name
			publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "full_name": name})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
		if ch.Role != nil && *ch.Role != u.Role {
			if err := validateRole(*ch.Role); err != nil {
				return nil, err
			}
			if isAdmin(u) && *ch.Role > store.RoleAdmin {
				if n, err := adminCount(tx); err != nil || n <= 1 {
					return nil, BadRequest("The owner permission cannot be removed from the only organization owner.")
				}
			}
			u.Role = *ch.Role
			publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "role": u.Role})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return out.publish, nil
	}))
}

func validateRole(role int) error {
	switch role {
	case store.RoleOwner, store.RoleAdmin, store.RoleModerator, store.RoleMember, store.RoleGuest:
		return nil
	}
	return InvalidArgument("role", "not a role")
}

// SetUserActive deactivates or reactivates an account (administrators
// only). A deactivated account's keys, sessions and event queues stop
// working at once; the last administrator cannot be deactivated.
func (s *Service) SetUserActive(actor store.User, id int64, active bool) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return s.setActive(id, active)
}

// setActive is the one place accounts are switched on and off.
func (s *Service) setActive(id int64, active bool) error {
	err := s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(id)
		if err != nil {
			return nil, BadRequest("No such user")
		}
		if u.IsActive == active {
			if active {
				return nil, BadRequest("User is already active")
			}
			return nil, BadRequest("User is already deactivated")
		}
		if !active && isAdmin(u) && !u.IsBot() {
			if n, err := adminCount(tx); err != nil || n <= 1 {
				return nil, BadRequest("Cannot deactivate the only organization administrator.")
			}
		}
		u.IsActive = active
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		return s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "is_active": active})
	})
	if err == nil && !active {
		s.events.DeleteUser(id)
	}
	return internal("set user active", err)
}

// SettingsChange is PATCH /settings for one's own account.
type SettingsChange struct {
	FullName    *string
	OldPassword string
	NewPassword *string
}

// UpdateOwnSettings changes the actor's name or password; a new password
// needs the old one.
func (s *Service) UpdateOwnSettings(actor store.User, ch SettingsChange) error {
	if ch.FullName == nil && ch.NewPassword == nil {
		return BadRequest("No new data supplied")
	}
	var hash string
	if ch.NewPassword != nil {
		if actor.PasswordHash == "" || bcrypt.CompareHashAndPassword([]byte(actor.PasswordHash), []byte(ch.OldPassword)) != nil {
			return BadRequest("Wrong password!")
		}
		if len(*ch.NewPassword) < 6 {
			return BadRequest("The password is too weak.")
		}
		h, err := hashPassword(*ch.NewPassword)
		if err != nil {
			return err
		}
		hash = h
	}
	return internal("update settings", s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		var publish func()
		if ch.FullName != nil {
			name := strings.TrimSpace(*ch.FullName)
			if err := validateFullName(name); err != nil {
				return nil, err
			}
			u.FullName = name
			if publish, err = s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "full_name": name}); err != nil {
				return nil, err
			}
		}
		if hash != "" {
			u.PasswordHash = hash
		}
		return publish, tx.PutUser(u)
	}))
}
