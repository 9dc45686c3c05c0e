package domain

import (
	"log/slog"
	"math"
	"net/url"
	"strings"

	"lanchat/backend/store"
	"lanchat/markdown"
)

// rendered is a message's HTML and what rendering learned about it.
type rendered = markdown.Result

// render turns a message's raw text into HTML as sender sees the realm
// (stream links only to streams the sender may see). It is the one renderer
// for messages, edits, stream descriptions and previews.
func (s *Service) render(tx *store.Tx, sender store.User, content string) rendered {
	return s.md.Render(content, &realmLookup{tx: tx, viewer: sender}, s.linkifiers.Load())
}

// topicLinks finds links in a topic, with the same rules as in messages.
func (s *Service) topicLinks(topic string) []TopicLink {
	return s.md.TopicLinks(topic, s.linkifiers.Load())
}

// reloadLinkifiers compiles the stored linkifiers for rendering; called at
// start and after every change to them.
func (s *Service) reloadLinkifiers(tx *store.Tx) error {
	list, err := tx.Linkifiers()
	if err != nil {
		return err
	}
	md := make([]markdown.Linkifier, 0, len(list))
	for _, l := range list {
		md = append(md, markdown.Linkifier{ID: l.ID, Pattern: l.Pattern, URLTemplate: l.URLTemplate})
	}
	compiled, err := markdown.CompileLinkifiers(md)
	if err != nil {
		// Stored linkifiers were validated when added; a bad one is skipped
		// rather than breaking every message.
		slog.Error("compile linkifiers", "err", err)
		return nil
	}
	s.linkifiers.Store(compiled)
	return nil
}

// realmLookup answers the renderer from one transaction, loading users
// only when a message mentions someone.
type realmLookup struct {
	tx     *store.Tx
	viewer store.User
	users  []store.User
	loaded bool
}

func (l *realmLookup) all() []store.User {
	if !l.loaded {
		l.users, _ = l.tx.Users()
		l.loaded = true
	}
	return l.users
}

func toMarkdownUser(u store.User) markdown.User {
	return markdown.User{ID: u.ID, FullName: u.FullName, Active: u.IsActive}
}

// UserByName finds a user by full name, ignoring case; a name two users
// share resolves to nobody (mention them with @**Name|id**).
func (l *realmLookup) UserByName(name string) (markdown.User, bool) {
	var found *store.User
	for i, u := range l.all() {
		if strings.EqualFold(u.FullName, name) {
			if found != nil {
				return markdown.User{}, false
			}
			found = &l.users[i]
		}
	}
	if found == nil {
		return markdown.User{}, false
	}
	return toMarkdownUser(*found), true
}

func (l *realmLookup) UserByID(id int64) (markdown.User, bool) {
	u, err := l.tx.User(id)
	if err != nil {
		return markdown.User{}, false
	}
	return toMarkdownUser(u), true
}

func (l *realmLookup) GroupByName(name string) (markdown.Group, bool) {
	groups, err := l.tx.UserGroups()
	if err != nil {
		return markdown.Group{}, false
	}
	for _, g := range groups {
		if strings.EqualFold(g.Name, name) {
			return markdown.Group{ID: g.ID, Name: g.Name}, true
		}
	}
	return markdown.Group{}, false
}

// StreamByName finds only streams the sender may see, so a link never
// reveals a private stream.
func (l *realmLookup) StreamByName(name string) (markdown.Stream, bool) {
	st, err := l.tx.StreamByName(name)
	if err != nil || !canSeeStream(l.tx, l.viewer, st) {
		return markdown.Stream{}, false
	}
	return markdown.Stream{ID: st.ID, Name: st.Name}, true
}

// LatestInTopic is a topic's newest message, for topic links that follow
// the topic when it moves.
func (l *realmLookup) LatestInTopic(streamID int64, topic string) (int64, bool) {
	var latest int64
	l.tx.Scan(store.TopicRange(streamID, topic), math.MaxInt64, true, func(id int64) bool {
		latest = id
		return false
	})
	return latest, latest != 0
}

// CustomEmoji finds an active custom emoji by name.
func (l *realmLookup) CustomEmoji(name string) (markdown.CustomEmoji, bool) {
	return customEmoji(l.tx, name)
}

// ImageDimensions is the size an uploaded image was found to have.
func (l *realmLookup) ImageDimensions(uploadPath string) (markdown.ImageSize, bool) {
	path, ok := strings.CutPrefix(uploadPath, "/user_uploads/")
	if unescaped, err := url.PathUnescape(path); err == nil {
		path = unescaped
	}
	u, err := l.tx.Upload(path)
	if !ok || err != nil || u.Width == 0 || u.Height == 0 {
		return markdown.ImageSize{}, false
	}
	return markdown.ImageSize{Width: u.Width, Height: u.Height}, true
}

// RenderPreview renders content as the actor would send it, storing nothing.
func (s *Service) RenderPreview(actor store.User, content string) (string, error) {
	if strings.TrimSpace(content) == "" {
		return "", BadRequest("Message must not be empty")
	}
	var html string
	err := s.store.View(func(tx *store.Tx) error {
		html = s.render(tx, actor, content).HTML
		return nil
	})
	return html, internal("render preview", err)
}
