package api

import (
	"strings"

	"lanchat/backend/domain"
)

// inviteRequest reads what POST /invites and POST /invites/multiuse share.
func inviteRequest(c *call) domain.InviteRequest {
	req := domain.InviteRequest{
		InviteAs:              int(c.p.optInt("invite_as", 400)),
		IncludeDefaultStreams: c.p.optBool("include_realm_default_subscriptions", false),
	}
	c.p.optJSON("group_ids", &req.GroupIDs)
	// An explicit null asks for an invitation that never expires; absent
	// means Zulip's default validity.
	if raw, given := c.p.raw("invite_expires_in_minutes"); !given || strings.TrimSpace(raw) != "null" {
		minutes := c.p.optInt("invite_expires_in_minutes", domain.InviteValidityMinutes)
		req.ExpiresInMinutes = &minutes
	}
	return req
}

func sendInvites(c *call) (J, error) {
	req := inviteRequest(c)
	req.Emails = c.p.optStr("invitee_emails", "")
	req.NotifyReferrerOnJoin = c.p.optBool("notify_referrer_on_join", true)
	c.p.json("stream_ids", &req.StreamIDs)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.InviteByEmail(c.user, req)
}

func createInviteLink(c *call) (J, error) {
	req := inviteRequest(c)
	c.p.optJSON("stream_ids", &req.StreamIDs)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	link, err := c.api.svc.CreateInviteLink(c.user, req, c.api.realmURL(c.r))
	if err != nil {
		return nil, err
	}
	return J{"invite_link": link}, nil
}

func listInvites(c *call) (J, error) {
	list, err := c.api.svc.Invites(c.user, c.api.realmURL(c.r))
	if err != nil {
		return nil, err
	}
	return J{"invites": list}, nil
}

func revokeInvite(c *call) (J, error) {
	id := c.p.pathInt("invite_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RevokeInvite(c.user, id)
}

func revokeInviteLink(c *call) (J, error) {
	id := c.p.pathInt("invite_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RevokeInviteLink(c.user, id)
}

// invitation tells the sign-up page what the link at /join/KEY/ offers.
func invitation(c *call) (J, error) {
	key := c.p.str("key")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	inv, err := c.api.svc.InvitationByKey(key)
	if err != nil {
		return nil, err
	}
	return domain.ToMap(inv)
}

// acceptInvitation creates the account an invitation link offers and signs
// it in, as first-run setup does (the API key too, for the desktop window).
func acceptInvitation(c *call) (J, error) {
	key := c.p.str("key")
	n := domain.NewUser{FullName: c.p.str("full_name"), Email: c.p.optStr("email", ""), Password: c.p.str("password")}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	u, err := c.api.svc.AcceptInvitation(key, n)
	if err != nil {
		return nil, err
	}
	bs, err := c.api.svc.SignIn(u.Email, n.Password)
	if err != nil {
		return nil, err
	}
	setSessionCookie(c.w, c.r, bs.Token, domain.SessionLifetime)
	return J{"csrf_token": bs.CSRF, "user_id": bs.UserID, "email": bs.Email, "api_key": u.APIKey}, nil
}
