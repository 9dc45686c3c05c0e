package api

import "lanchat/backend/domain"

// updateRealm answers PATCH /realm: the settings named change, the rest
// stay.
func updateRealm(c *call) (J, error) {
	var ch domain.RealmChange
	ch.Name = c.p.strGiven("name")
	ch.Description = c.p.strGiven("description")
	ch.EnableReadReceipts = c.p.boolGiven("enable_read_receipts", false)
	ch.JitsiServerURL = c.p.strGiven("jitsi_server_url")
	ch.GuestUserIndicator = c.p.boolGiven("enable_guest_user_indicator", true)
	ch.GuestUserDMWarning = c.p.boolGiven("enable_guest_user_dm_warning", true)
	ch.EditHistoryVisibility = c.p.strGiven("message_edit_history_visibility_policy")
	for _, setting := range domain.AnnouncementSettings {
		if c.p.has(setting) {
			if ch.AnnouncementStreams == nil {
				ch.AnnouncementStreams = map[string]int64{}
			}
			ch.AnnouncementStreams[setting] = c.p.optInt(setting, -1)
		}
	}
	ch.RequireUniqueNames = c.p.boolGiven("require_unique_names", false)
	ch.ModerationRequestChannelID = c.p.intGiven("moderation_request_channel_id")
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
