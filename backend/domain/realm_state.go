package domain

import (
	"cmp"

	"lanchat/backend/store"
)

// realmState is the `realm` initial state: the organization's settings and
// the server's limits that clients read.
func (s *Service) realmState(tx *store.Tx, state map[string]any) error {
	r, err := tx.Realm()
	if err != nil {
		return err
	}
	settings := map[string]any{
		"realm_name":                   r.Name,
		"realm_description":            r.Description,
		"realm_date_created":           r.DateCreated,
		"realm_icon_url":               RealmIconPath,
		"realm_icon_source":            "D",
		"realm_logo_url":               RealmLogoPath,
		"realm_night_logo_url":         RealmLogoPath,
		"realm_message_retention_days": -1,
		"realm_allow_message_editing":  true,
		// Level 358: who sees which edits; the boolean it replaced is
		// false only for "none".
		"realm_message_edit_history_visibility_policy": editHistoryVisibility(r),
		"realm_allow_edit_history":                     editHistoryVisibility(r) != editHistoryNone,
		"realm_message_content_edit_limit_seconds":     nil,
		"realm_message_content_delete_limit_seconds":   nil,
		// Messages are moved however long ago they were sent (level 162).
		"realm_move_messages_within_stream_limit_seconds":   nil,
		"realm_move_messages_between_streams_limit_seconds": nil,
		"realm_invite_required":                             true, // no open sign-up
		"realm_create_public_stream_policy":                 1,
		"realm_create_private_stream_policy":                1,
		"realm_waiting_period_threshold":                    0,
		"realm_default_language":                            "en",
		"realm_email_changes_disabled":                      false,
		"realm_name_changes_disabled":                       false,
		"realm_avatar_changes_disabled":                     false,
		"realm_mandatory_topics":                            true,
		// Topics are never empty (mandatory), so this name, which clients
		// show for an empty topic (level 334), never replaces one.
		"realm_empty_topic_display_name":   "general chat",
		"realm_presence_disabled":          false,
		"realm_enable_read_receipts":       r.EnableReadReceipts,
		"realm_default_external_accounts":  map[string]any{},
		"realm_enable_spectator_access":    false,
		"realm_push_notifications_enabled": false,
		// No push service is reached, so no end is expected either (level 231).
		"realm_push_notifications_enabled_end_timestamp": nil,
		"realm_authentication_methods":                   authenticationMethods(s.cfg.Dev),
		"realm_default_code_block_language":              "", // level 195: none
		// No Jitsi server is configured: Zulip's default is one on the
		// internet (level 212).
		"realm_jitsi_server_url":  optionalString(r.JitsiServerURL),
		"server_jitsi_server_url": nil,
		// GIPHY is a service on the internet, so the only rating an
		// administrator could pick is Zulip's "disabled" (level 55).
		"realm_giphy_rating":   giphyDisabled,
		"giphy_rating_options": map[string]any{"disabled": map[string]any{"name": "GIPHY integration disabled", "id": giphyDisabled}},
		// Where automated announcements go (levels 241, 242).
		"realm_new_stream_announcements_stream_id":   announcementStreamID(tx, r, newStreamAnnouncements),
		"realm_signup_announcements_stream_id":       announcementStreamID(tx, r, signupAnnouncements),
		"realm_zulip_update_announcements_stream_id": announcementStreamID(tx, r, zulipUpdateAnnouncements),
		"realm_moderation_request_channel_id":        moderationRequestChannel(r), // level 331
		"realm_enable_guest_user_indicator":          !r.HideGuestUserIndicator,   // level 216
		"realm_enable_guest_user_dm_warning":         !r.HideGuestUserDMWarning,   // level 348
		// No AI model is configured, so no topic summaries (level 350).
		"server_can_summarize_topics":                      false,
		"realm_require_unique_names":                       r.RequireUniqueNames, // level 246
		"realm_upload_quota_mib":                           nil,                  // level 251: no quota
		"server_thumbnail_formats":                         []any{},              // level 273: no thumbnails are made
		"realm_inline_image_preview":                       true,
		"realm_inline_url_embed_preview":                   false,
		"realm_is_zephyr_mirror_realm":                     false,
		"realm_plan_type":                                  1,
		"realm_org_type":                                   0,
		"max_message_length":                               MaxMessageBytes,
		"max_topic_length":                                 MaxTopicLength,
		"max_stream_name_length":                           MaxStreamNameLength,
		"max_stream_description_length":                    MaxStreamDescriptionLength,
		"max_file_upload_size_mib":                         cmp.Or(s.cfg.MaxUploadSize, DefaultMaxUploadSize) >> 20,
		"max_avatar_file_size_mib":                         5,
		"max_icon_file_size_mib":                           5,
		"max_logo_file_size_mib":                           5,
		"server_presence_ping_interval_seconds":            60,
		"server_presence_offline_threshold_seconds":        140,
		"server_typing_started_wait_period_milliseconds":   10000,
		"server_typing_stopped_wait_period_milliseconds":   5000,
		"server_typing_started_expiry_period_milliseconds": 15000,
		// How long a client waits on a blocking GET /events before giving
		// up: Zulip's 90, well above the heartbeat (50 s) that answers first.
		"event_queue_longpoll_timeout_seconds": 90,
		"server_inline_image_preview":          true,
		"server_inline_url_embed_preview":      false,
		"server_avatar_changes_disabled":       false,
		"server_name_changes_disabled":         false,
		"server_web_public_streams_enabled":    false,
		"server_needs_upgrade":                 false,
		"server_generation":                    1,
		// No organization is deactivated through the API (level 332), so
		// Zulip's defaults stand.
		"server_min_deactivated_realm_deletion_days": 14,
		"server_max_deactivated_realm_deletion_days": nil,
		"password_min_length":                        6,
		"password_max_length":                        MaxPasswordBytes,
		"password_min_guesses":                       0,
		"development_environment":                    s.cfg.Dev,
	}
	// Level 4's jitsi_server_url, deprecated at 212 for the two above, is
	// realm_jitsi_server_url || server_jitsi_server_url: a string, so it is
	// left out while neither names a server.
	if r.JitsiServerURL != "" {
		settings["jitsi_server_url"] = r.JitsiServerURL
	}
	if err := realmGroupSettingsState(tx, r, settings); err != nil {
		return err
	}
	for k, v := range settings {
		state[k] = v
	}
	return nil
}

// giphyDisabled is Zulip's giphy_rating for "GIPHY integration disabled".
const giphyDisabled = 0

// authenticationMethods is realm_authentication_methods (level 243): the
// backends this server offers, each enabled and available.
func authenticationMethods(dev bool) map[string]any {
	on := map[string]bool{"enabled": true, "available": true}
	methods := map[string]any{"Email": on}
	if dev {
		methods["Dev"] = on
	}
	return methods
}
