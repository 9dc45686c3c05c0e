// Package markdown renders Lanchat's chat dialect (Zulip's flavour of
// markdown) to the HTML Zulip clients expect, on goldmark and its extension
// points: custom block and inline parsers, AST transformers and node
// renderers. Raw HTML is never passed through and only safe links are made.
package markdown

// User, Group, Stream and CustomEmoji are what the renderer needs to know
// about the organization's people and things.
type (
	User struct {
		ID       int64
		FullName string
		Active   bool
	}
	Group struct {
		ID   int64
		Name string
	}
	Stream struct {
		ID   int64
		Name string
	}
	CustomEmoji struct {
		ID        string
		Name      string
		SourceURL string
	}
)

// Lookup answers the renderer's questions about the organization; the
// backend implements it.
type Lookup interface {
	UserByName(fullName string) (User, bool) // case-insensitive full name; if several match, not found
	UserByID(id int64) (User, bool)
	GroupByName(name string) (Group, bool)
	StreamByName(name string) (Stream, bool)                  // only streams the sender may see; others are not found
	LatestInTopic(streamID int64, topic string) (int64, bool) // the topic's newest message, if it has one
	CustomEmoji(name string) (CustomEmoji, bool)              // active custom emoji by name
	// ImageDimensions is an uploaded image's size, read when it was
	// uploaded, by its /user_uploads/ path; not found when unknown.
	ImageDimensions(uploadPath string) (ImageSize, bool)
}

// ImageSize is an image's width and height in pixels.
type ImageSize struct{ Width, Height int }

// TopicLink is a link found in a topic.
type TopicLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Result is a rendered message and what rendering learned about it.
type Result struct {
	HTML              string
	MentionedUserIDs  []int64 // non-silent direct user mentions (outside quotes), sorted unique
	MentionedGroupIDs []int64 // non-silent group mentions, sorted unique
	StreamWildcard    bool    // @**all** / everyone / stream / channel, non-silent
	TopicWildcard     bool    // @**topic**, non-silent
	IsMeMessage       bool
	HasLink           bool
	HasImage          bool
	HasAttachment     bool // a link to /user_uploads/...
}
