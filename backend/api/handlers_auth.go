package api

import "lanchat/backend/domain"

func serverSettings(c *call) (J, error) {
	return c.api.svc.ServerSettings(c.api.realmURL(c.r))
}

func fetchAPIKey(c *call) (J, error) {
	username, password := c.p.str("username"), c.p.str("password")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	login, err := c.api.svc.FetchAPIKey(username, password)
	if err != nil {
		return nil, err
	}
	return J{"api_key": login.APIKey, "email": login.Email, "user_id": login.UserID}, nil
}

func devFetchAPIKey(c *call) (J, error) {
	username := c.p.str("username")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	login, err := c.api.svc.DevFetchAPIKey(username)
	if err != nil {
		return nil, err
	}
	return J{"api_key": login.APIKey, "email": login.Email, "user_id": login.UserID}, nil
}

func updateRealm(c *call) (J, error) {
	var ch domain.RealmChange
	if c.p.has("name") {
		name := c.p.optStr("name", "")
		ch.Name = &name
	}
	if c.p.has("description") {
		desc := c.p.optStr("description", "")
		ch.Description = &desc
	}
	if c.p.has("add_custom_emoji_policy") {
		policy := int(c.p.optInt("add_custom_emoji_policy", 0))
		ch.EmojiAddPolicyNo = &policy
	}
	if c.p.has("invite_to_realm_policy") {
		policy := int(c.p.optInt("invite_to_realm_policy", 0))
		ch.InvitePolicyNo = &policy
	}
	if c.p.has("jitsi_server_url") {
		u := c.p.optStr("jitsi_server_url", "")
		ch.JitsiServerURL = &u
	}
	if c.p.has("enable_guest_user_indicator") {
		on := c.p.optBool("enable_guest_user_indicator", true)
		ch.GuestUserIndicator = &on
	}
	if c.p.has("wildcard_mention_policy") {
		policy := int(c.p.optInt("wildcard_mention_policy", 0))
		ch.WildcardMentionPolicyNo = &policy
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateRealm(c.user, ch)
}
