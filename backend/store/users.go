package store

import "strings"

// Roles, with Zulip's numbers: lower is more privileged.
const (
	RoleOwner     = 100
	RoleAdmin     = 200
	RoleModerator = 300
	RoleMember    = 400
	RoleGuest     = 600
)

// Bot types, with Zulip's numbers.
const (
	BotGeneric         = 1
	BotIncomingWebhook = 2
	BotOutgoingWebhook = 3
	BotEmbedded        = 4
)

// User is a person or a bot account.
type User struct {
	ID           int64  `json:"id"`
	Email        string `json:"email"`
	FullName     string `json:"full_name"`
	Role         int    `json:"role"`
	IsActive     bool   `json:"is_active"`
	BotType      int    `json:"bot_type,omitempty"` // 0 for humans
	BotOwnerID   int64  `json:"bot_owner_id,omitempty"`
	APIKey       string `json:"api_key"`
	PasswordHash string `json:"password_hash,omitempty"`
	DateJoined   int64  `json:"date_joined"`
	Timezone     string `json:"timezone"`
	// AvatarVersion increases with each uploaded avatar; 0 means the
	// generated default.
	AvatarVersion int `json:"avatar_version"`
	// AlertWords flag messages containing them for this user.
	AlertWords []string `json:"alert_words,omitempty"`
	// Settings are the person's changes to the default user_settings
	// (display and notification preferences); absent in older records,
	// which therefore read as all defaults.
	Settings map[string]any `json:"settings,omitempty"`
	// Status is what the user says they are up to; nil when unset.
	Status *UserStatus `json:"status,omitempty"`
	// OnboardingStepsSeen names the one-time notices the person has
	// dismissed, which clients no longer show them.
	OnboardingStepsSeen []string `json:"onboarding_steps_seen,omitempty"`
	// PushDevices are the mobile devices registered for push
	// notifications, kept as Zulip keeps them even with no way to push.
	PushDevices []PushDevice `json:"push_devices,omitempty"`
	// SavedSnippets are the person's reusable message texts (Zulip 10.0);
	// their IDs are the person's own, never reused.
	SavedSnippets []SavedSnippet `json:"saved_snippets,omitempty"`
	LastSnippetID int64          `json:"last_snippet_id,omitempty"`
	// NtfyTopic is the secret name of the person's phone notification
	// topic (backend/ntfy); empty until they first ask for it, and in
	// records older than it.
	NtfyTopic string `json:"ntfy_topic,omitempty"`
	// MutedUsers are the people and bots this user muted, oldest first.
	MutedUsers []MutedUser `json:"muted_users,omitempty"`
}

// MutedUser is one muted person or bot and when they were muted.
type MutedUser struct {
	ID        int64 `json:"id"`
	Timestamp int64 `json:"timestamp"`
}

// PushDevice is one registered device token.
type PushDevice struct {
	Kind  int    `json:"kind"` // Zulip's: 1 APNs, 2 FCM
	Token string `json:"token"`
	AppID string `json:"app_id,omitempty"` // an APNs token's app
}

// UserStatus is a user's status: text, an emoji, or both.
type UserStatus struct {
	Text         string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
	Away         bool   `json:"away,omitempty"`
}

// IsBot tells bots from humans.
func (u User) IsBot() bool { return u.BotType != 0 }

// emailKey is the case-insensitive index key of an address.
func emailKey(email string) []byte { return []byte(strings.ToLower(strings.TrimSpace(email))) }

// User loads one account by ID.
func (tx *Tx) User(id int64) (User, error) {
	return getCached(tx, bucketUsers, id, &tx.s.users)
}

// UserByEmail loads an account by address, ignoring case.
func (tx *Tx) UserByEmail(email string) (User, error) {
	id := tx.bucket(bucketUserByEmail).Get(emailKey(email))
	if id == nil {
		return User{}, ErrNotFound
	}
	return tx.User(btoi(id))
}

// Users lists every account, active or not, in ID order.
func (tx *Tx) Users() ([]User, error) {
	var out []User
	err := each(tx, bucketUsers, func(u User) bool { out = append(out, u); return true })
	return out, err
}

// CreateUser assigns the next user ID and stores the account. The caller
// checks that the email is free.
func (tx *Tx) CreateUser(u *User) error {
	id, err := tx.nextID(bucketUsers)
	if err != nil {
		return err
	}
	u.ID = id
	return tx.PutUser(*u)
}

// PutUser writes an existing account, keeping the email index current.
func (tx *Tx) PutUser(u User) error {
	var old User
	if err := tx.get(bucketUsers, itob(u.ID), &old); err == nil && !strings.EqualFold(old.Email, u.Email) {
		if err := tx.bucket(bucketUserByEmail).Delete(emailKey(old.Email)); err != nil {
			return err
		}
	}
	if err := tx.bucket(bucketUserByEmail).Put(emailKey(u.Email), itob(u.ID)); err != nil {
		return err
	}
	tx.btx.OnCommit(func() { tx.s.accounts.Add(1) })
	return tx.put(bucketUsers, itob(u.ID), u)
}

// SavedSnippet is a text a person keeps to insert into messages.
type SavedSnippet struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	DateCreated int64  `json:"date_created"`
}
