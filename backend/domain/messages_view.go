package domain

import (
	"slices"

	"lanchat/backend/store"
	"lanchat/markdown"
)

// MessageObject is a message as the API shows it (spec 2.1 plus the fields
// Zulip clients read). Spec 2.1's sender_short_name, subject_links and the
// recipients' short_name stay beside Zulip's fields, which no longer have
// them: the short names are empty (the spec reserves sender_short_name for
// future use), subject_links repeats topic_links.
type MessageObject struct {
	ID               int64              `json:"id"`
	SenderID         int64              `json:"sender_id"`
	SenderEmail      string             `json:"sender_email"`
	SenderFullName   string             `json:"sender_full_name"`
	SenderRealmStr   string             `json:"sender_realm_str"`
	SenderShortName  string             `json:"sender_short_name"`
	AvatarURL        *string            `json:"avatar_url"`
	Client           string             `json:"client"`
	Content          string             `json:"content"`
	ContentType      string             `json:"content_type"`
	Type             string             `json:"type"`
	DisplayRecipient any                `json:"display_recipient"`
	StreamID         *int64             `json:"stream_id,omitempty"`
	RecipientID      int64              `json:"recipient_id"`
	Subject          string             `json:"subject"`
	TopicLinks       []TopicLink        `json:"topic_links"`
	SubjectLinks     []TopicLink        `json:"subject_links"`
	Timestamp        int64              `json:"timestamp"`
	IsMeMessage      bool               `json:"is_me_message"`
	Reactions        []ReactionObject   `json:"reactions"`
	Submessages      []SubmessageObject `json:"submessages"`
	// Flags are always present in history (even empty) and absent from
	// event messages, whose flags travel beside the message.
	Flags              *[]string    `json:"flags,omitempty"`
	LastEditTimestamp  int64        `json:"last_edit_timestamp,omitempty"`
	LastMovedTimestamp int64        `json:"last_moved_timestamp,omitempty"`
	EditHistory        []EditObject `json:"edit_history,omitempty"`
	MatchContent       *string      `json:"match_content,omitempty"`
	MatchSubject       *string      `json:"match_subject,omitempty"`
}

// TopicLink is a link found in a topic by a linkifier or as a bare URL.
type TopicLink = markdown.TopicLink

// RecipientObject is one participant of a private message.
type RecipientObject struct {
	ID            int64  `json:"id"`
	Email         string `json:"email"`
	FullName      string `json:"full_name"`
	ShortName     string `json:"short_name"`
	IsMirrorDummy bool   `json:"is_mirror_dummy"`
}

// ReactionObject is a reaction with the legacy user object old clients read.
type ReactionObject struct {
	EmojiName    string `json:"emoji_name"`
	EmojiCode    string `json:"emoji_code"`
	ReactionType string `json:"reaction_type"`
	// UserID is who reacted; the user object beside it is gone since
	// level 328.
	UserID int64 `json:"user_id"`
}

// SubmessageObject is data a widget (a poll, a todo list) attached to a
// message.
type SubmessageObject struct {
	ID        int64  `json:"id"`
	MessageID int64  `json:"message_id"`
	SenderID  int64  `json:"sender_id"`
	MsgType   string `json:"msg_type"`
	Content   string `json:"content"`
}

// EditObject is one entry of a message's edit_history, newest first.
type EditObject struct {
	Timestamp           int64   `json:"timestamp"`
	UserID              int64   `json:"user_id"`
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	PrevTopic           *string `json:"prev_topic,omitempty"`
	PrevSubject         *string `json:"prev_subject,omitempty"`
	PrevStream          *int64  `json:"prev_stream,omitempty"`
	Topic               *string `json:"topic,omitempty"`
	Stream              *int64  `json:"stream,omitempty"`
}

// viewOptions say how a client wants messages shown.
type viewOptions struct {
	applyMarkdown bool
}

// messageViewer renders messages for one request, caching the users and
// streams it reads.
type messageViewer struct {
	tx      *store.Tx
	opts    viewOptions
	users   map[int64]store.User
	streams streamCache
	topics  func(topic string) []TopicLink
}

func newMessageViewer(tx *store.Tx, opts viewOptions, topicLinks func(string) []TopicLink) *messageViewer {
	return &messageViewer{tx: tx, opts: opts, users: map[int64]store.User{}, streams: streamCache{}, topics: topicLinks}
}

func (v *messageViewer) user(id int64) store.User {
	if u, ok := v.users[id]; ok {
		return u
	}
	u, err := v.tx.User(id)
	if err != nil {
		u = store.User{ID: id, FullName: "Unknown user"}
	}
	v.users[id] = u
	return u
}

// viewWithFlags is the message object with the viewer's flags on it, as
// a history answer gives it.
func (v *messageViewer) viewWithFlags(m store.Message, flags store.Flags) MessageObject {
	o := v.view(m)
	names := flags.Names()
	o.Flags = &names
	return o
}

// view builds the message object without flags (a message event carries
// each holder's flags beside it).
func (v *messageViewer) view(m store.Message) MessageObject {
	sender := v.user(m.SenderID)
	avatar := AvatarURL(sender)
	o := MessageObject{
		ID:             m.ID,
		SenderID:       m.SenderID,
		SenderEmail:    sender.Email,
		SenderFullName: sender.FullName,
		SenderRealmStr: "lanchat",
		AvatarURL:      &avatar,
		Client:         m.Client,
		Content:        m.Rendered,
		ContentType:    "text/html",
		RecipientID:    m.RecipientID,
		Subject:        m.Topic,
		Timestamp:      m.Timestamp,
		IsMeMessage:    m.IsMe,
		Reactions:      v.reactions(m.Reactions),
		Submessages:    submessages(m),
		EditHistory:    editHistory(m),
	}
	o.LastEditTimestamp, o.LastMovedTimestamp = editTimestamps(m)
	if !v.opts.applyMarkdown {
		o = o.withSource(m)
	}
	if m.IsPrivate() {
		o.Type = "private"
		recipients := make([]RecipientObject, 0, len(m.PrivateUserIDs))
		for _, id := range m.PrivateUserIDs {
			u := v.user(id)
			recipients = append(recipients, RecipientObject{ID: u.ID, Email: u.Email, FullName: u.FullName})
		}
		o.DisplayRecipient = recipients
		o.TopicLinks, o.SubjectLinks = []TopicLink{}, []TopicLink{}
		return o
	}
	o.Type = "stream"
	streamID := m.StreamID
	o.StreamID = &streamID
	st, _ := v.streams.get(v.tx, m.StreamID)
	o.DisplayRecipient = st.Name
	o.TopicLinks = v.topics(m.Topic)
	o.SubjectLinks = o.TopicLinks
	return o
}

// withSource is the message object showing m's markdown source instead of
// its HTML (apply_markdown=false).
func (o MessageObject) withSource(m store.Message) MessageObject {
	o.Content, o.ContentType = m.Content, "text/x-markdown"
	return o
}

func (v *messageViewer) reactions(rs []store.Reaction) []ReactionObject {
	out := make([]ReactionObject, 0, len(rs))
	for _, r := range rs {
		out = append(out, ReactionObject{EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType, UserID: r.UserID})
	}
	return out
}

// submessages converts a message's submessages for the wire: a list, even
// when empty.
func submessages(m store.Message) []SubmessageObject {
	out := make([]SubmessageObject, 0, len(m.Submessages))
	for _, s := range m.Submessages {
		out = append(out, SubmessageObject{ID: s.ID, MessageID: m.ID, SenderID: s.SenderID, MsgType: s.MsgType, Content: s.Content})
	}
	return out
}

// editTimestamps are when a message's content was last edited and when it
// was last moved to another topic or channel (level 365: marking its
// topic resolved or unresolved is neither). A message imported without its
// edits keeps the one time it came with, as an edit.
func editTimestamps(m store.Message) (edited, moved int64) {
	if len(m.Edits) == 0 {
		return m.LastEditTimestamp, 0
	}
	topic := m.Topic
	for _, e := range slices.Backward(m.Edits) {
		if e.PrevRendered != "" && edited == 0 {
			edited = e.Timestamp
		}
		_, resolving := resolveToggle(e.PrevTopic, topic)
		if moved == 0 && (e.PrevStreamID != 0 || e.PrevTopic != "" && !resolving) {
			moved = e.Timestamp
		}
		if e.PrevTopic != "" {
			topic = e.PrevTopic
		}
	}
	return edited, moved
}

// editHistory lists a message's edits newest first, as Zulip's
// edit_history does: a move names the topic and stream after it (`topic`,
// `stream`) beside those before it, walking back from the message's own.
func editHistory(m store.Message) []EditObject {
	if len(m.Edits) == 0 {
		return nil
	}
	topic, stream := m.Topic, m.StreamID
	out := make([]EditObject, 0, len(m.Edits))
	for _, e := range slices.Backward(m.Edits) {
		o := EditObject{Timestamp: e.Timestamp, UserID: e.UserID}
		if e.PrevRendered != "" {
			o.PrevContent, o.PrevRenderedContent = &e.PrevContent, &e.PrevRendered
		}
		if e.PrevTopic != "" {
			after := topic
			o.Topic, o.PrevTopic, o.PrevSubject = &after, &e.PrevTopic, &e.PrevTopic
			topic = e.PrevTopic
		}
		if e.PrevStreamID != 0 {
			after := stream
			o.Stream, o.PrevStream = &after, &e.PrevStreamID
			stream = e.PrevStreamID
		}
		out = append(out, o)
	}
	return out
}

// Message returns one message the viewer may see, with its raw content.
func (s *Service) Message(viewer store.User, id int64, applyMarkdown bool) (MessageObject, string, error) {
	var obj MessageObject
	var raw string
	err := s.store.View(func(tx *store.Tx) error {
		m, f, err := accessMessage(tx, viewer, id, streamCache{})
		if err != nil {
			return err
		}
		obj = newMessageViewer(tx, viewOptions{applyMarkdown: applyMarkdown}, s.topicLinks).viewWithFlags(m, f)
		raw = m.Content
		return nil
	})
	return obj, raw, internal("get message", err)
}
