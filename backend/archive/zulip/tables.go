// Package zulip reads and writes a Zulip organization export, the tarball
// `./manage.py export` writes and `./manage.py import` reads: realm.json
// (the organization's tables), messages-000001.json … (messages with their
// per-user rows, 1000 a file), attachment.json, and the uploads, avatars
// and emoji folders, each with a records.json naming its files.
//
// The rows below carry the columns Zulip's zerver/lib/import_realm.py reads
// (it builds Django models from every key, so a writer names only real
// columns) and the ones Lanchat needs back. Timestamps are Unix seconds,
// floats in Zulip's own exports; foreign keys are the other row's id.
package zulip

// Recipient types (zerver.models.Recipient).
const (
	recipientPersonal = 1
	recipientStream   = 2
	recipientHuddle   = 3
)

// Custom emoji policy (Realm.POLICY_*).
const (
	policyMembers = 1
	policyAdmins  = 2
)

// Zulip's system groups (UserGroup.*_GROUP_NAME), which a Zulip export
// holds beside the organization's own groups and a Lanchat import leaves
// out: roles are the users' own field here.
const (
	groupInternet    = "role:internet"
	groupEveryone    = "role:everyone"
	groupMembers     = "role:members"
	groupFullMembers = "role:fullmembers"
	groupModerators  = "role:moderators"
	groupAdmins      = "role:administrators"
	groupOwners      = "role:owners"
	groupNobody      = "role:nobody"
)

// Avatar sources (UserProfile.AVATAR_FROM_*).
const (
	avatarGravatar = "G"
	avatarUploaded = "U"
)

type realmRow struct {
	ID                        int64   `json:"id"`
	Name                      string  `json:"name"`
	StringID                  string  `json:"string_id"`
	Description               string  `json:"description"`
	DateCreated               float64 `json:"date_created"`
	Deactivated               bool    `json:"deactivated"`
	NotificationsStream       *int64  `json:"notifications_stream"`
	SignupNotificationsStream *int64  `json:"signup_notifications_stream"`
	CreateMultiuseInviteGroup int64   `json:"create_multiuse_invite_group"`
	AddCustomEmojiPolicy      int     `json:"add_custom_emoji_policy"`
}

type userRow struct {
	ID                          int64    `json:"id"`
	Realm                       int64    `json:"realm"`
	Email                       string   `json:"email"`
	DeliveryEmail               string   `json:"delivery_email"`
	FullName                    string   `json:"full_name"`
	Role                        int      `json:"role"`
	IsActive                    bool     `json:"is_active"`
	IsBot                       bool     `json:"is_bot"`
	BotType                     *int     `json:"bot_type"`
	BotOwner                    *int64   `json:"bot_owner"`
	DateJoined                  float64  `json:"date_joined"`
	LastLogin                   *float64 `json:"last_login"`
	LastReminder                *float64 `json:"last_reminder"`
	Timezone                    string   `json:"timezone"`
	AvatarSource                string   `json:"avatar_source"`
	AvatarVersion               int      `json:"avatar_version"`
	IsMirrorDummy               bool     `json:"is_mirror_dummy"`
	TOSVersion                  *string  `json:"tos_version"`
	DefaultSendingStream        *int64   `json:"default_sending_stream"`
	DefaultEventsRegisterStream *int64   `json:"default_events_register_stream"`
	LastActiveMessageID         *int64   `json:"last_active_message_id"`
	UserPermissions             []int64  `json:"user_permissions"`
	Groups                      []int64  `json:"groups"`
}

// crossRealmRow is one of Zulip's system bots (notification bot, welcome
// bot), which live outside the organization but send into it.
type crossRealmRow struct {
	ID          int64  `json:"id"`
	Email       string `json:"email"`
	RecipientID int64  `json:"recipient_id"`
}

type streamRow struct {
	ID                         int64   `json:"id"`
	Realm                      int64   `json:"realm"`
	Name                       string  `json:"name"`
	Description                string  `json:"description"`
	InviteOnly                 bool    `json:"invite_only"`
	HistoryPublicToSubscribers bool    `json:"history_public_to_subscribers"`
	IsWebPublic                bool    `json:"is_web_public"`
	DateCreated                float64 `json:"date_created"`
	Deactivated                bool    `json:"deactivated"`
	CanRemoveSubscribersGroup  int64   `json:"can_remove_subscribers_group"`
	// Creator is Zulip 9.0's, read when an export has it. The writer leaves
	// it out: its rows are for Zulip 8.0's import, whose streams have no
	// creator column.
	Creator *int64 `json:"creator,omitempty"`
}

type recipientRow struct {
	ID     int64 `json:"id"`
	Type   int   `json:"type"`
	TypeID int64 `json:"type_id"`
}

type subscriptionRow struct {
	ID                     int64  `json:"id"`
	UserProfile            int64  `json:"user_profile"`
	Recipient              int64  `json:"recipient"`
	Active                 bool   `json:"active"`
	IsMuted                bool   `json:"is_muted"`
	Color                  string `json:"color"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
}

type huddleRow struct {
	ID         int64  `json:"id"`
	HuddleHash string `json:"huddle_hash"`
}

type defaultStreamRow struct {
	ID     int64 `json:"id"`
	Realm  int64 `json:"realm"`
	Stream int64 `json:"stream"`
}

type realmEmojiRow struct {
	ID          int64   `json:"id"`
	Realm       int64   `json:"realm"`
	Name        string  `json:"name"`
	Author      *int64  `json:"author"`
	FileName    *string `json:"file_name"`
	Deactivated bool    `json:"deactivated"`
	IsAnimated  bool    `json:"is_animated"`
}

type realmFilterRow struct {
	ID          int64  `json:"id"`
	Realm       int64  `json:"realm"`
	Pattern     string `json:"pattern"`
	URLTemplate string `json:"url_template"`
	// URLFormatString is the template's name before Zulip 7.
	URLFormatString string `json:"url_format_string,omitempty"`
	Order           int    `json:"order"`
}

type authMethodRow struct {
	ID    int64  `json:"id"`
	Realm int64  `json:"realm"`
	Name  string `json:"name"`
}

type clientRow struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type userGroupRow struct {
	ID              int64  `json:"id"`
	Realm           int64  `json:"realm"`
	Name            string `json:"name"`
	Description     string `json:"description"`
	IsSystemGroup   bool   `json:"is_system_group"`
	CanMentionGroup int64  `json:"can_mention_group"`
}

type groupMembershipRow struct {
	ID          int64 `json:"id"`
	UserGroup   int64 `json:"user_group"`
	UserProfile int64 `json:"user_profile"`
}

type groupGroupMembershipRow struct {
	ID         int64 `json:"id"`
	Supergroup int64 `json:"supergroup"`
	Subgroup   int64 `json:"subgroup"`
}

type alertWordRow struct {
	ID          int64  `json:"id"`
	Realm       int64  `json:"realm"`
	UserProfile int64  `json:"user_profile"`
	Word        string `json:"word"`
}

// editRow is one entry of a message's edit_history (a JSON list in a
// string column, newest first). Zulip before 5 named topics "subject".
type editRow struct {
	UserID              *int64  `json:"user_id"`
	Timestamp           float64 `json:"timestamp"`
	PrevContent         string  `json:"prev_content,omitempty"`
	PrevRenderedContent string  `json:"prev_rendered_content,omitempty"`
	PrevRenderedVersion int     `json:"prev_rendered_content_version,omitempty"`
	PrevTopic           string  `json:"prev_topic,omitempty"`
	Topic               string  `json:"topic,omitempty"`
	PrevSubject         string  `json:"prev_subject,omitempty"`
	PrevStream          int64   `json:"prev_stream,omitempty"`
	Stream              int64   `json:"stream,omitempty"`
}

type reactionRow struct {
	ID           int64  `json:"id"`
	UserProfile  int64  `json:"user_profile"`
	Message      int64  `json:"message"`
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
}

type messageRow struct {
	ID                     int64    `json:"id"`
	Realm                  int64    `json:"realm"`
	Sender                 int64    `json:"sender"`
	Recipient              int64    `json:"recipient"`
	Subject                string   `json:"subject"`
	Content                string   `json:"content"`
	RenderedContent        *string  `json:"rendered_content"`
	RenderedContentVersion *int     `json:"rendered_content_version"`
	DateSent               float64  `json:"date_sent"`
	SendingClient          int64    `json:"sending_client"`
	LastEditTime           *float64 `json:"last_edit_time"`
	EditHistory            *string  `json:"edit_history"`
	HasAttachment          bool     `json:"has_attachment"`
	HasImage               bool     `json:"has_image"`
	HasLink                bool     `json:"has_link"`
}

type userMessageRow struct {
	ID          int64 `json:"id"`
	UserProfile int64 `json:"user_profile"`
	Message     int64 `json:"message"`
	FlagsMask   int64 `json:"flags_mask"`
}

type attachmentRow struct {
	ID                int64   `json:"id"`
	Realm             int64   `json:"realm"`
	Owner             int64   `json:"owner"`
	FileName          string  `json:"file_name"`
	PathID            string  `json:"path_id"`
	CreateTime        float64 `json:"create_time"`
	Size              int64   `json:"size"`
	ContentType       *string `json:"content_type"`
	IsRealmPublic     *bool   `json:"is_realm_public"`
	IsWebPublic       *bool   `json:"is_web_public"`
	Messages          []int64 `json:"messages"`
	ScheduledMessages []int64 `json:"scheduled_messages"`
}

// fileRecord is one line of uploads/, avatars/ or emoji/records.json: the
// file at Path inside that folder.
type fileRecord struct {
	RealmID       int64   `json:"realm_id"`
	UserProfileID *int64  `json:"user_profile_id,omitempty"`
	UserEmail     string  `json:"user_profile_email,omitempty"`
	S3Path        string  `json:"s3_path"`
	Path          string  `json:"path"`
	Size          int64   `json:"size,omitempty"`
	LastModified  float64 `json:"last_modified,omitempty"`
	ContentType   *string `json:"content_type,omitempty"`
	// Avatars: a .original image Zulip's import thumbnails itself.
	ImporterShouldThumbnail bool `json:"importer_should_thumbnail,omitempty"`
	// Emoji.
	Author      *int64 `json:"author,omitempty"`
	FileName    string `json:"file_name,omitempty"`
	Name        string `json:"name,omitempty"`
	Deactivated bool   `json:"deactivated,omitempty"`
}
