package domain

import (
	"html"
	"strings"

	"lanchat/backend/store"
)

// rendered is a message's HTML and what rendering learned about it.
type rendered struct {
	HTML              string
	MentionedUserIDs  []int64
	MentionedGroupIDs []int64
	StreamWildcard    bool
	TopicWildcard     bool
	IsMe              bool
	HasLink           bool
	HasImage          bool
	HasAttachment     bool
}

// render turns a message's raw text into HTML as sender sees the realm
// (stream links only to streams the sender may see). It is the one renderer
// for messages, edits and previews.
func (s *Service) render(tx *store.Tx, sender store.User, content string) rendered {
	var b strings.Builder
	for i, para := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("<p>")
		b.WriteString(strings.ReplaceAll(html.EscapeString(para), "\n", "<br>\n"))
		b.WriteString("</p>")
	}
	return rendered{HTML: b.String(), IsMe: strings.HasPrefix(content, "/me ")}
}

// topicLinks finds links in a topic, with the same rules as in messages.
func (s *Service) topicLinks(topic string) []TopicLink {
	return []TopicLink{}
}
