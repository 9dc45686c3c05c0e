package store

// Realm is the one organization a Lanchat server hosts.
type Realm struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	DateCreated int64  `json:"date_created"`
	// EmojiAddPolicy says who may add custom emoji: "members" or "admins".
	EmojiAddPolicy string `json:"emoji_add_policy"`
	// DefaultStreamIDs are the streams every new person joins.
	DefaultStreamIDs []int64 `json:"default_stream_ids,omitempty"`
	// EnableReadReceipts lets people see who has read a message (off
	// unless an administrator turns it on).
	EnableReadReceipts bool `json:"enable_read_receipts,omitempty"`
	// GroupSettings are the organization's group-based permissions by
	// Zulip's setting name (since schema 8; since schema 10 also who may
	// send email invitations, which schema 9 kept as Zulip's
	// invite_to_realm_policy number); an absent one is its default.
	GroupSettings map[string]GroupSetting `json:"group_settings,omitempty"`
	// WildcardMentionPolicy says who may mention everyone in a stream or
	// topic of more than 15 people, with Zulip's numbers; 0 is Zulip's
	// default (1, everyone).
	WildcardMentionPolicy int `json:"wildcard_mention_policy,omitempty"`
	// JitsiServerURL is the organization's Jitsi Meet server; "" for none.
	JitsiServerURL string `json:"jitsi_server_url,omitempty"`
	// HideGuestUserIndicator turns off "(guest)" after guests' names
	// (stored inverted so older records read as Zulip's default, shown).
	HideGuestUserIndicator bool `json:"hide_guest_user_indicator,omitempty"`
	// AnnouncementStreams are the streams automated messages go to, by
	// Zulip's setting name (new_stream_announcements_stream_id…); an
	// absent one is none.
	AnnouncementStreams map[string]int64 `json:"announcement_streams,omitempty"`
	// RequireUniqueNames refuses a person's name that another account
	// has, ignoring case.
	RequireUniqueNames bool `json:"require_unique_names,omitempty"`
	// HideGuestUserDMWarning turns off the warning shown when writing to a
	// guest (inverted like HideGuestUserIndicator).
	HideGuestUserDMWarning bool `json:"hide_guest_user_dm_warning,omitempty"`
	// EditHistoryVisibility is message_edit_history_visibility_policy:
	// "moves" or "none"; "" is Zulip's default, "all".
	EditHistoryVisibility string `json:"edit_history_visibility,omitempty"`
	// ModerationRequestChannelID is the private stream that receives
	// moderation requests; 0 for none.
	ModerationRequestChannelID int64 `json:"moderation_request_channel_id,omitempty"`
}

var keyRealm = []byte("realm")

// Realm returns the organization record, or ErrNotFound before set-up.
func (tx *Tx) Realm() (Realm, error) {
	var r Realm
	err := tx.get(bucketMeta, keyRealm, &r)
	return r, err
}

// PutRealm writes the organization record.
func (tx *Tx) PutRealm(r Realm) error { return tx.put(bucketMeta, keyRealm, r) }
