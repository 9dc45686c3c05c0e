// Package archive is a team's history on its way between chat servers: the
// records an import reads from another server's export (Slack, Mattermost,
// Zulip) and an export writes for Zulip, in a shape that belongs to no one
// server. A format's reader walks its archive once, in order, handing each
// record to a Sink; the importer in package domain is the Sink that writes
// a Lanchat store. Records name each other by the source's own IDs (Ref).
package archive

import (
	"fmt"
	"io"
)

// Realm is the organization's own settings.
type Realm struct {
	Name        string
	Description string
	DateCreated int64 // Unix seconds; 0 when unknown
	// EmojiAddPolicy says who may add custom emoji ("members" or
	// "admins"); "" keeps Lanchat's default.
	EmojiAddPolicy string
}

// User is a person or a bot.
type User struct {
	Ref      string
	Email    string
	FullName string
	// Role uses Zulip's numbers (store.RoleOwner … store.RoleGuest).
	Role   int
	Active bool
	// BotType uses Zulip's numbers; 0 for people. BotOwnerRef names the
	// owner when known.
	BotType     int
	BotOwnerRef string
	Timezone    string
	DateJoined  int64
	// AlertWords flag the messages holding them for this user.
	AlertWords []string
	// Avatar opens the user's picture; nil when there is none.
	Avatar Opener
}

// Stream is a channel with its members.
type Stream struct {
	Ref         string
	Name        string
	Description string
	InviteOnly  bool
	DateCreated int64
	// CreatorRef is the user who created the stream, "" when unknown.
	CreatorRef string
	// Archived streams are imported deactivated.
	Archived bool
	// Default streams are the ones new people join.
	Default    bool
	MemberRefs []string
	// Subscriptions are users' own settings for the stream, by user Ref:
	// members', and those of former members (not in MemberRefs), whose
	// settings wait for them to come back. Members without one keep the
	// defaults.
	Subscriptions map[string]Subscription
}

// Subscription is one user's settings for a stream.
type Subscription struct {
	Color    string // "" picks one
	Muted    bool
	PinToTop bool
	// Notification overrides; nil follows the user's own defaults.
	DesktopNotifications, AudibleNotifications, PushNotifications, EmailNotifications, WildcardMentionsNotify *bool
}

// File is an uploaded file. Its content is read once, when the sink
// stores it.
type File struct {
	Ref         string
	OwnerRef    string
	Name        string
	ContentType string
	// Size is what the archive claims; the sink refuses content that
	// runs longer.
	Size    int64
	Created int64
	Open    Opener
}

// Emoji is a custom emoji.
type Emoji struct {
	Name        string
	OwnerRef    string // "" when unknown
	Deactivated bool
	Open        Opener
}

// UserGroup is a named group of users.
type UserGroup struct {
	Name        string
	Description string
	MemberRefs  []string
}

// Linkifier turns a pattern in messages into a link.
type Linkifier struct {
	Pattern     string
	URLTemplate string
}

// Message is a stream message (StreamRef and Topic) or a direct one
// (PrivateRefs: every participant, sender included).
type Message struct {
	Ref         string
	SenderRef   string
	StreamRef   string
	Topic       string
	PrivateRefs []string
	// Content is Zulip-flavoured markdown, already converted from the
	// source's dialect; the sink renders it.
	Content   string
	Timestamp int64
	// EditTimestamp is when it was last edited; 0 when never.
	EditTimestamp int64
	// Edits are its earlier versions, oldest first, where the source
	// keeps them.
	Edits     []Edit
	Reactions []Reaction
	// UserFlags are per-user flags by API name ("read", "starred", …)
	// where the source keeps them (Zulip). Nil means the source has none:
	// the message is read for everyone, as after Zulip's own imports
	// from other servers. Flags that name no one's "read" (Mattermost
	// keeps who saved a post, not who read or holds it) leave it read for
	// everyone too, and held by every recipient.
	UserFlags map[string][]string
}

// Edit is one change to a message and what it replaced; the fields of
// what it left alone are empty.
type Edit struct {
	Timestamp     int64
	UserRef       string
	PrevContent   string
	PrevRendered  string
	PrevTopic     string
	PrevStreamRef string
}

// Reaction is one user's emoji on a message.
type Reaction struct {
	UserRef      string
	EmojiName    string
	EmojiCode    string // "" lets the sink look the name up
	ReactionType string // "unicode_emoji", "realm_emoji" or "zulip_extra_emoji"
}

// Opener opens a file's content inside the archive.
type Opener func() (io.ReadCloser, error)

// Sink receives an archive's records. A reader calls it in this order:
// Realm once, then users, streams, user groups, linkifiers, emoji, files,
// and messages last, in the order they were sent. A method's error stops
// the reader, which returns it.
type Sink interface {
	Realm(Realm) error
	User(User) error
	Stream(Stream) error
	UserGroup(UserGroup) error
	Linkifier(Linkifier) error
	Emoji(Emoji) error
	// File stores a file and returns the URL path messages link it by
	// (/user_uploads/…), for the reader to rewrite their content.
	File(File) (url string, err error)
	Message(Message) error
	// Skip notes a record the reader leaves out, and why: it is part of
	// the import's summary.
	Skip(record, reason string)
}

// Error is a record the archive gets wrong: it names the record (the
// file inside the archive and the record's place or ID in it) and what is
// wrong with it.
type Error struct {
	Record string
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Record, e.Reason) }

// Errorf makes an Error for record.
func Errorf(record, format string, args ...any) error {
	return &Error{Record: record, Reason: fmt.Sprintf(format, args...)}
}
