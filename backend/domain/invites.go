package domain

import (
	"crypto/subtle"
	"errors"
	"net/mail"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// InviteValidityMinutes is how long an invitation works when its maker
// does not say: Zulip's INVITATION_LINK_VALIDITY_DAYS, 10 days.
const InviteValidityMinutes = 10 * 24 * 60

// errGuestRequest is Zulip's refusal of a guest where only members and
// administrators may act.
var errGuestRequest = BadRequest("Not allowed for guest users")

// errBadInvitation answers a link that is unknown, revoked, used or expired
// alike, so that guessing keys learns nothing.
var errBadInvitation = BadRequest("This invitation link is invalid or has expired.")

// InviteRequest is POST /invites and POST /invites/multiuse.
type InviteRequest struct {
	// Emails is invitee_emails as sent: addresses separated by commas or
	// newlines, each optionally as "Name <address>" (email invitations only).
	Emails string
	// ExpiresInMinutes is nil for an invitation that never expires.
	ExpiresInMinutes      *int64
	InviteAs              int
	StreamIDs             []int64
	IncludeDefaultStreams bool
	NotifyReferrerOnJoin  bool
	// GroupIDs are user groups the invitee joins (level 322): each one
	// whose members the inviter may change.
	GroupIDs []int64
}

// InviteObject is an invitation as GET /invites lists it (Zulip's Invite).
type InviteObject struct {
	ID                   int64  `json:"id"`
	InvitedByUserID      int64  `json:"invited_by_user_id"`
	Invited              int64  `json:"invited"`
	ExpiryDate           *int64 `json:"expiry_date"`
	InvitedAs            int    `json:"invited_as"`
	Email                string `json:"email,omitempty"`
	NotifyReferrerOnJoin *bool  `json:"notify_referrer_on_join,omitempty"`
	LinkURL              string `json:"link_url,omitempty"`
	IsMultiuse           bool   `json:"is_multiuse"`
}

// checkInviter refuses guests and bots (Zulip's require_member_or_admin).
func checkInviter(actor store.User) error {
	switch {
	case isGuest(actor):
		return errGuestRequest
	case actor.IsBot():
		return ErrBotRequest
	}
	return nil
}

// checkInvitedRole: only owners invite owners, and only administrators
// invite administrators and moderators.
func checkInvitedRole(actor store.User, role int) error {
	if err := validateRole(role); err != nil {
		return err
	}
	if role == store.RoleOwner && !isOwner(actor) {
		return ErrNotOwner
	}
	if role <= store.RoleModerator && !isAdmin(actor) {
		return ErrNotAdmin
	}
	return nil
}

// newInvite checks what both kinds of invitation share (the role, the
// streams the inviter must see, the expiry) and builds the record.
func (s *Service) newInvite(tx *store.Tx, actor store.User, req InviteRequest) (store.Invite, error) {
	for _, id := range req.StreamIDs {
		if _, err := visibleStreamByID(tx, actor, id); err != nil {
			return store.Invite{}, BadRequest("Invalid channel ID %d. No invites were sent.", id)
		}
	}
	for _, id := range req.GroupIDs {
		if _, _, err := groupAction(tx, actor, id); err != nil {
			return store.Invite{}, err
		}
	}
	now := s.now().Unix()
	inv := store.Invite{GroupIDs: sortedUnique(req.GroupIDs), Key: randomString(24, apiKeyAlphabet), InvitedBy: actor.ID, InvitedAt: now, InvitedAs: req.InviteAs,
		StreamIDs: sortedUnique(req.StreamIDs), IncludeDefaultStreams: req.IncludeDefaultStreams}
	if req.ExpiresInMinutes != nil {
		if *req.ExpiresInMinutes < 1 {
			return store.Invite{}, InvalidArgument("invite_expires_in_minutes", "must be a positive number of minutes or null")
		}
		if *req.ExpiresInMinutes > (LastTimestamp-now)/60 {
			return store.Invite{}, InvalidArgument("invite_expires_in_minutes", "is past the year 9999")
		}
		inv.ExpiresAt = now + *req.ExpiresInMinutes*60
	}
	return inv, nil
}

// inviteEmails splits invitee_emails as Zulip does: by commas and
// newlines, taking the address out of "Name <address>".
func inviteEmails(raw string) []string {
	var out []string
	seen := map[string]bool{} // a set: a body holds some 100,000 addresses
	for _, part := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '\n' }) {
		if open, end := strings.Index(part, "<"), strings.LastIndex(part, ">"); open >= 0 && end > open {
			part = part[open+1 : end] // "Name <address>"
		}
		if part = strings.TrimSpace(part); part != "" && !seen[part] {
			seen[part] = true
			out = append(out, part)
		}
	}
	return out
}

// invitationFailed is Zulip's InvitationError: each refused address with
// why and whether its account is deactivated.
func invitationFailed(msg string, refused [][3]any, sent bool) *Error {
	return errorf("INVITATION_FAILED", "%s", msg).With("errors", refused).With("sent_invitations", sent).
		With("license_limit_reached", false).With("daily_limit_reached", false)
}

// InviteByEmail is POST /invites: one invitation per address not yet in
// use. Lanchat sends no mail (as a Zulip server without outgoing email):
// the invitations are recorded, listed and revoked as in Zulip, and an
// invited person joins through a reusable link, which also ends the
// invitations to their address.
func (s *Service) InviteByEmail(actor store.User, req InviteRequest) error {
	if err := checkInviter(actor); err != nil {
		return err
	}
	var skipped [][3]any
	err := s.update(func(tx *store.Tx) (func(), error) {
		if allowed, err := realmAllows(tx, actor, SettingInviteUsers); err != nil {
			return nil, err
		} else if !allowed {
			return nil, BadRequest("Insufficient permission")
		}
		if err := checkInvitedRole(actor, req.InviteAs); err != nil {
			return nil, err
		}
		emails := inviteEmails(req.Emails)
		if len(emails) == 0 {
			return nil, BadRequest("You must specify at least one email address.")
		}
		var invalid [][3]any
		var good []string
		for _, email := range emails {
			if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || len(email) > MaxEmailLength {
				invalid = append(invalid, [3]any{email, "Invalid address.", false})
				continue
			}
			switch u, err := tx.UserByEmail(email); {
			case err == nil && u.IsActive:
				skipped = append(skipped, [3]any{email, "Already has an account.", false})
			case err == nil:
				skipped = append(skipped, [3]any{email, "Account has been deactivated.", true})
			case errors.Is(err, store.ErrNotFound):
				good = append(good, email)
			default:
				return nil, err
			}
		}
		if len(invalid) > 0 {
			return nil, invitationFailed("Some emails did not validate, so we didn't send any invitations.", append(invalid, skipped...), false)
		}
		if len(good) == 0 {
			return nil, invitationFailed("We weren't able to invite anyone.", skipped, false)
		}
		for _, email := range good {
			inv, err := s.newInvite(tx, actor, req)
			if err != nil {
				return nil, err
			}
			inv.Email, inv.NotifyReferrerOnJoin = email, req.NotifyReferrerOnJoin
			if err := tx.CreateInvite(&inv); err != nil {
				return nil, err
			}
		}
		return s.invitesChanged(tx, actor.ID)
	})
	if err != nil {
		return internal("invite", err)
	}
	if len(skipped) > 0 {
		// As Zulip: the others are invited, and the answer names who was not.
		return invitationFailed("Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", skipped, true)
	}
	return nil
}

// CreateInviteLink is POST /invites/multiuse: a reusable link, answered as
// realmURL/join/KEY/ as Zulip's.
func (s *Service) CreateInviteLink(actor store.User, req InviteRequest, realmURL string) (string, error) {
	if err := checkInviter(actor); err != nil {
		return "", err
	}
	if err := checkInvitedRole(actor, req.InviteAs); err != nil {
		return "", err
	}
	var inv store.Invite
	err := s.update(func(tx *store.Tx) (func(), error) {
		// Reusable links are for create_multiuse_invite_group.
		allowed, err := realmAllows(tx, actor, SettingCreateMultiuseInvite)
		if err != nil {
			return nil, err
		}
		if !allowed {
			return nil, BadRequest("Insufficient permission")
		}
		if inv, err = s.newInvite(tx, actor, req); err != nil {
			return nil, err
		}
		inv.Multiuse = true
		if err := tx.CreateInvite(&inv); err != nil {
			return nil, err
		}
		return s.invitesChanged(tx, actor.ID)
	})
	if err != nil {
		return "", internal("create invite link", err)
	}
	return inviteLink(realmURL, inv), nil
}

func inviteLink(realmURL string, inv store.Invite) string {
	return strings.TrimSuffix(realmURL, "/") + "/join/" + inv.Key + "/"
}

// invitesChanged publishes Zulip's invites_changed event (it carries
// nothing: clients fetch GET /invites again) to the administrators and the
// inviter.
func (s *Service) invitesChanged(tx *store.Tx, inviter int64) (func(), error) {
	users, err := tx.Users()
	if err != nil {
		return nil, err
	}
	var audience []int64
	for _, u := range users {
		if u.IsActive && (isAdmin(u) || u.ID == inviter) {
			audience = append(audience, u.ID)
		}
	}
	var out deliveries
	out.add(s, events.Event{"type": "invites_changed"}, audience)
	return out.publish, nil
}

// endInvite stops an invitation working: a reusable link is kept as
// revoked, an email invitation deleted.
func endInvite(tx *store.Tx, inv store.Invite) error {
	if inv.Multiuse {
		inv.Revoked = true
		return tx.PutInvite(inv)
	}
	return tx.DeleteInvite(inv.ID)
}

// expired tells whether an invitation no longer works.
func (s *Service) expired(inv store.Invite) bool {
	return inv.Revoked || (inv.ExpiresAt != 0 && s.now().Unix() >= inv.ExpiresAt)
}

// Invites is GET /invites: the unexpired invitations the actor manages:
// every one for an administrator, their own for anyone else.
func (s *Service) Invites(actor store.User, realmURL string) ([]InviteObject, error) {
	if err := checkInviter(actor); err != nil {
		return nil, err
	}
	out := []InviteObject{}
	err := s.store.View(func(tx *store.Tx) error {
		all, err := tx.Invites()
		for _, inv := range all {
			if s.expired(inv) || (!isAdmin(actor) && inv.InvitedBy != actor.ID) {
				continue
			}
			o := InviteObject{ID: inv.ID, InvitedByUserID: inv.InvitedBy, Invited: inv.InvitedAt, InvitedAs: inv.InvitedAs, IsMultiuse: inv.Multiuse}
			if inv.ExpiresAt != 0 {
				o.ExpiryDate = &inv.ExpiresAt
			}
			if inv.Multiuse {
				o.LinkURL = inviteLink(realmURL, inv)
			} else {
				notify := inv.NotifyReferrerOnJoin
				o.Email, o.NotifyReferrerOnJoin = inv.Email, &notify
			}
			out = append(out, o)
		}
		return err
	})
	return out, internal("list invites", err)
}

// manageableInvite loads an invitation of the given kind that actor may
// revoke or resend: their own, or as an administrator anyone's (an owner's
// invitation of an owner only by an owner).
func manageableInvite(tx *store.Tx, actor store.User, id int64, multiuse bool) (store.Invite, error) {
	if err := checkInviter(actor); err != nil {
		return store.Invite{}, err
	}
	inv, err := tx.Invite(id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && inv.Multiuse != multiuse) {
		return store.Invite{}, BadRequest("No such invitation")
	}
	if err != nil {
		return store.Invite{}, err
	}
	if inv.InvitedBy != actor.ID {
		if inv.InvitedAs == store.RoleOwner && !isOwner(actor) {
			return store.Invite{}, ErrNotOwner
		}
		if !isAdmin(actor) {
			return store.Invite{}, ErrNotAdmin
		}
	}
	return inv, nil
}

// RevokeInvite is DELETE /invites/{id}: an email invitation stops working.
func (s *Service) RevokeInvite(actor store.User, id int64) error {
	return s.revokeInvite(actor, id, false)
}

// RevokeInviteLink is DELETE /invites/multiuse/{id}: a reusable link stops
// working, and is kept as revoked.
func (s *Service) RevokeInviteLink(actor store.User, id int64) error {
	return s.revokeInvite(actor, id, true)
}

func (s *Service) revokeInvite(actor store.User, id int64, multiuse bool) error {
	return internal("revoke invite", s.update(func(tx *store.Tx) (func(), error) {
		inv, err := manageableInvite(tx, actor, id, multiuse)
		if err != nil {
			return nil, err
		}
		if inv.Revoked {
			return nil, BadRequest("Invitation has already been revoked")
		}
		if err := endInvite(tx, inv); err != nil {
			return nil, err
		}
		return s.invitesChanged(tx, inv.InvitedBy)
	}))
}

// revokeInvitesBy ends every invitation inviter made (a deactivated
// account's invitations let nobody in), and announces it when there were
// any.
func (s *Service) revokeInvitesBy(tx *store.Tx, inviter int64) (func(), error) {
	all, err := tx.Invites()
	if err != nil {
		return nil, err
	}
	ended := false
	for _, inv := range all {
		if inv.InvitedBy == inviter && !inv.Revoked {
			if err := endInvite(tx, inv); err != nil {
				return nil, err
			}
			ended = true
		}
	}
	if !ended {
		return func() {}, nil
	}
	return s.invitesChanged(tx, inviter)
}

// Invitation is what an invitation link tells the person opening it, for
// the sign-up page: the organization, the address an email invitation is
// for, and the role it gives.
type Invitation struct {
	RealmName string `json:"realm_name"`
	Email     string `json:"email,omitempty"`
	InvitedAs int    `json:"invited_as"`
}

// findInvitation is the working invitation whose link holds key.
func (s *Service) findInvitation(tx *store.Tx, key string) (store.Invite, error) {
	all, err := tx.Invites()
	if err != nil {
		return store.Invite{}, err
	}
	for _, inv := range all {
		if subtle.ConstantTimeCompare([]byte(inv.Key), []byte(key)) == 1 && !s.expired(inv) {
			return inv, nil
		}
	}
	return store.Invite{}, errBadInvitation
}

// InvitationByKey reads the invitation behind a link (GET /accounts/invite).
func (s *Service) InvitationByKey(key string) (Invitation, error) {
	var out Invitation
	err := s.store.View(func(tx *store.Tx) error {
		inv, err := s.findInvitation(tx, key)
		if err != nil {
			return err
		}
		realm, err := tx.Realm()
		if err != nil {
			return err
		}
		out = Invitation{RealmName: realm.Name, Email: inv.Email, InvitedAs: inv.InvitedAs}
		return nil
	})
	return out, internal("read invitation", err)
}

// AcceptInvitation creates the account an invitation link offers (the
// sign-up Zulip serves at /join/KEY/, outside its API): with the role it
// gives, in its streams and, if it says so, the default streams. An email
// invitation is for its address only and works once; a reusable link
// takes the address the person gives. Every other invitation to that
// address ends with it.
func (s *Service) AcceptInvitation(key string, n NewUser) (store.User, error) {
	if utf8.RuneCountInString(n.Password) < MinPasswordLength {
		return store.User{}, BadRequest("The password must be at least %d characters long.", MinPasswordLength)
	}
	var u store.User
	err := s.update(func(tx *store.Tx) (func(), error) {
		inv, err := s.findInvitation(tx, key)
		if err != nil {
			return nil, err
		}
		if !inv.Multiuse {
			n.Email = inv.Email
		}
		n.Role, n.BotType, n.BotOwnerID = inv.InvitedAs, 0, 0
		n.SkipDefaultStreams = !inv.IncludeDefaultStreams
		if u, err = s.createUser(tx, n); err != nil {
			return nil, err
		}
		for _, id := range inv.StreamIDs {
			st, err := tx.Stream(id)
			if errors.Is(err, store.ErrNotFound) || (err == nil && st.Deactivated) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if _, err := subscribe(tx, u.ID, st); err != nil {
				return nil, err
			}
		}
		joined, err := s.joinInvitedGroups(tx, u, inv.GroupIDs)
		if err != nil {
			return nil, err
		}
		all, err := tx.Invites()
		if err != nil {
			return nil, err
		}
		changed := false
		for _, other := range all {
			if !other.Multiuse && strings.EqualFold(other.Email, u.Email) {
				if err := endInvite(tx, other); err != nil {
					return nil, err
				}
				changed = true
			}
		}
		out, err := s.announceNewUser(tx, u)
		if err != nil {
			return nil, err
		}
		out = append(out, joined...)
		if changed {
			publish, err := s.invitesChanged(tx, inv.InvitedBy)
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		}
		return out.publish, nil
	})
	if err == nil {
		s.announceSignup(u)
	}
	return u, internal("accept invitation", err)
}

// joinInvitedGroups adds a new account to the groups its invitation names
// that still exist, returning the add_members events.
func (s *Service) joinInvitedGroups(tx *store.Tx, u store.User, ids []int64) (deliveries, error) {
	var out deliveries
	for _, id := range ids {
		g, err := tx.UserGroup(id)
		if errors.Is(err, store.ErrNotFound) || (err == nil && g.System) {
			continue
		}
		if err != nil {
			return nil, err
		}
		g.Members = sortedUnique(append(g.Members, u.ID))
		if err := tx.PutUserGroup(g); err != nil {
			return nil, err
		}
		publish, err := s.memberChange(tx, id, "user_ids", [2]string{"add_members", "remove_members"}, []int64{u.ID}, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, publish)
	}
	return out, nil
}
