package api

import "lanchat/backend/domain"

// updateRealm answers PATCH /realm: the settings named change, the rest
// stay.
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
	if c.p.has("invite_to_realm_policy") {
		policy := int(c.p.optInt("invite_to_realm_policy", 0))
		ch.InvitePolicyNo = &policy
	}
	if c.p.has("enable_read_receipts") {
		enable := c.p.optBool("enable_read_receipts", false)
		ch.EnableReadReceipts = &enable
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
	ch.GroupSettings = realmGroupSettingChanges(c.p)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateRealm(c.user, ch)
}

func exportConsents(c *call) (J, error) {
	consents, err := c.api.svc.ExportConsents(c.user)
	if err != nil {
		return nil, err
	}
	return J{"export_consents": consents}, nil
}
