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
	if c.p.has("enable_guest_user_dm_warning") {
		on := c.p.optBool("enable_guest_user_dm_warning", true)
		ch.GuestUserDMWarning = &on
	}
	if c.p.has("message_edit_history_visibility_policy") {
		policy := c.p.optStr("message_edit_history_visibility_policy", "")
		ch.EditHistoryVisibility = &policy
	}
	for _, setting := range domain.AnnouncementSettings {
		if c.p.has(setting) {
			if ch.AnnouncementStreams == nil {
				ch.AnnouncementStreams = map[string]int64{}
			}
			ch.AnnouncementStreams[setting] = c.p.optInt(setting, -1)
		}
	}
	if c.p.has("require_unique_names") {
		unique := c.p.optBool("require_unique_names", false)
		ch.RequireUniqueNames = &unique
	}
	if c.p.has("moderation_request_channel_id") {
		id := c.p.int("moderation_request_channel_id")
		ch.ModerationRequestChannelID = &id
	}
	ch.GroupSettings = groupSettingChanges(c.p, domain.RealmGroupSettingNames())
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
