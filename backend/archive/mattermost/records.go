package mattermost

// The lines of Mattermost's bulk export (import.jsonl), as `mmctl export
// create` writes them and Mattermost's bulk import reads them: one object
// per line, its kind in "type" and its record under the key of that name.
// Fields this reader has no use for are left out and ignored.

type line struct {
	Type          string         `json:"type"`
	Version       *int           `json:"version"`
	Team          *team          `json:"team"`
	Channel       *channel       `json:"channel"`
	User          *user          `json:"user"`
	Bot           *bot           `json:"bot"`
	Post          *post          `json:"post"`
	DirectChannel *directChannel `json:"direct_channel"`
	DirectPost    *post          `json:"direct_post"`
	Emoji         *emoji         `json:"emoji"`
}

type team struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Description string `json:"description"`
}

type channel struct {
	Team        string `json:"team"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	// Type is "O" (open: public) or "P" (private).
	Type      string `json:"type"`
	Header    string `json:"header"`
	Purpose   string `json:"purpose"`
	DeletedAt int64  `json:"deleted_at"`
}

type user struct {
	Username     string       `json:"username"`
	Email        string       `json:"email"`
	Nickname     string       `json:"nickname"`
	FirstName    string       `json:"first_name"`
	LastName     string       `json:"last_name"`
	Roles        string       `json:"roles"` // space-separated: "system_admin system_user"
	DeleteAt     int64        `json:"delete_at"`
	ProfileImage string       `json:"profile_image"`
	Teams        []membership `json:"teams"`
}

// membership is a user's place in a team, and in its channels.
type membership struct {
	Name     string `json:"name"`
	Roles    string `json:"roles"` // "team_admin team_user", "team_guest"
	Channels []struct {
		Name string `json:"name"`
	} `json:"channels"`
}

type bot struct {
	Username     string `json:"username"`
	Owner        string `json:"owner"`
	DisplayName  string `json:"display_name"`
	DeleteAt     int64  `json:"delete_at"`
	ProfileImage string `json:"profile_image"`
}

type emoji struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

type directChannel struct {
	Members []string `json:"members"`
}

// post is a channel post (Team and Channel), a direct one (ChannelMembers)
// or, without either, a reply inside its root's Replies.
type post struct {
	Team           string   `json:"team"`
	Channel        string   `json:"channel"`
	ChannelMembers []string `json:"channel_members"`
	User           string   `json:"user"`
	// Type is "" for what people wrote, "system_…" for what the server
	// wrote (joins, leaves, header changes).
	Type    string `json:"type"`
	Message string `json:"message"`
	Props   struct {
		// Attachments are integrations' rich messages, often the only
		// text a bot's post has.
		Attachments []richAttachment `json:"attachments"`
	} `json:"props"`
	CreateAt    int64        `json:"create_at"` // Unix milliseconds
	EditAt      int64        `json:"edit_at"`
	FlaggedBy   []string     `json:"flagged_by"`
	Reactions   []reaction   `json:"reactions"`
	Replies     []post       `json:"replies"`
	Attachments []attachment `json:"attachments"`
	// direct is set for a direct_post line.
	direct bool
}

type reaction struct {
	User      string `json:"user"`
	EmojiName string `json:"emoji_name"`
}

type attachment struct {
	// Path is under the export's data/ folder.
	Path string `json:"path"`
}

// richAttachment is Mattermost's (and Slack's) message attachment.
type richAttachment struct {
	Fallback  string `json:"fallback"`
	Pretext   string `json:"pretext"`
	Title     string `json:"title"`
	TitleLink string `json:"title_link"`
	Text      string `json:"text"`
	Fields    []struct {
		Title string `json:"title"`
		Value any    `json:"value"`
	} `json:"fields"`
}
