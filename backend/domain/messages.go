package domain

import (
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Limits of spec section 8 and the digest.
const (
	MaxMessageBytes  = 10000
	MaxTopicLength   = 60 // characters
	truncatedMessage = "\n[message truncated]"
	truncatedTopic   = "..."
)

// OutgoingMessage is a message to send.
type OutgoingMessage struct {
	Type    string   // "stream" or "private" ("channel" and "direct" too)
	Stream  string   // stream name, or its decimal ID, for stream messages
	Topic   string   // for stream messages
	To      []string // emails or decimal user IDs, for private messages
	Content string   // markdown
	Client  string   // the sending program's name
	// ReadBySender overrides whether the sender's own copy starts read.
	ReadBySender *bool
	// QueueID and LocalID let the sender's event queue echo local_id back;
	// together they also name the send, so that the same send repeated
	// within sentLocalIDMemory is stored once and answered with the same ID.
	QueueID, LocalID string
	// Notice marks what Zulip's Notification Bot would say, which Lanchat
	// posts in the name of the person it is about: their automatic topic
	// policies do not apply to it.
	Notice bool
}

// MaxClientNameLength is Zulip's limit on a client's name (Client.
// MAX_NAME_LENGTH). The name comes from the User-Agent, which the sender
// writes: longer ones are cut, as Zulip's get_client cuts them, rather than
// stored with every message and as a presence key.
const MaxClientNameLength = 30

func clientName(name string) string { return truncateRunes(name, MaxClientNameLength) }

// MaxLocalIDLength bounds a send's queue_id and local_id, which together
// key the record of the send: clients' are short (Lanchat's queue IDs are
// 26 characters, Zulip's web client's local IDs a number), and a key past
// bbolt's 32 KiB failed the send with a 500. Zulip stores neither, so it
// sets no limit.
const MaxLocalIDLength = 100

// sentLocalIDMemory is how long a send's queue and local ID are remembered
// (seconds): longer than any outbox waits for a server to come back.
const sentLocalIDMemory = 7 * 24 * 3600

// normalizeContent trims the message as Zulip does and enforces the size
// limit by truncating (Zulip's behaviour), at a character boundary.
func normalizeContent(content string) (string, error) {
	content = strings.TrimLeft(strings.TrimRightFunc(content, isSpace), "\n")
	if content == "" {
		return "", BadRequest("Message must not be empty")
	}
	if strings.ContainsRune(content, 0) {
		return "", BadRequest("Message must not contain null bytes")
	}
	if len(content) > MaxMessageBytes {
		cut := MaxMessageBytes - len(truncatedMessage)
		for cut > 0 && !utf8.RuneStart(content[cut]) {
			cut--
		}
		content = content[:cut] + truncatedMessage
	}
	return content, nil
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// normalizeTopic trims a topic and truncates it to the limit as Zulip does.
func normalizeTopic(topic string) (string, error) {
	topic = strings.TrimSpace(topic)
	if topic == "" {
		return "", BadRequest("Topic can't be empty!")
	}
	if strings.ContainsFunc(topic, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "", BadRequest("Invalid character in topic, at position %d!",
			strings.IndexFunc(topic, func(r rune) bool { return r < ' ' || r == 0x7f })+1)
	}
	if utf8.RuneCountInString(topic) > MaxTopicLength {
		runes := []rune(topic)
		topic = string(runes[:MaxTopicLength-len(truncatedTopic)]) + truncatedTopic
	}
	return topic, nil
}

// noTopicAsEmpty reads "(no topic)" as the empty topic, as Zulip does
// when sending and scheduling (level 370); topics are mandatory here, so it
// is refused like any empty topic.
func noTopicAsEmpty(topic string) string {
	if strings.TrimSpace(topic) == "(no topic)" {
		return ""
	}
	return topic
}

// SendMessage is Send for callers that need only the new message's ID.
func (s *Service) SendMessage(actor store.User, out OutgoingMessage) (int64, error) {
	sent, err := s.Send(actor, out)
	return sent.ID, err
}

// SentMessage is what a send did.
type SentMessage struct {
	ID int64
	// AutomaticVisibilityPolicy is the visibility policy the sender's
	// settings gave the topic by this send, 0 when unchanged (level 218).
	AutomaticVisibilityPolicy int
}

// Send validates, renders and stores a message and gives each recipient
// their flags; in a stream, the sender's automatic visibility policies and
// those of the people it mentions apply to its topic, in the same write.
// Concurrent sends share one commit (store.Batch).
func (s *Service) Send(actor store.User, out OutgoingMessage) (SentMessage, error) {
	out.Client = clientName(out.Client)
	if err := checkLength("queue_id", out.QueueID, MaxLocalIDLength); err != nil {
		return SentMessage{}, err
	}
	if err := checkLength("local_id", out.LocalID, MaxLocalIDLength); err != nil {
		return SentMessage{}, err
	}
	content, err := normalizeContent(out.Content)
	if err != nil {
		return SentMessage{}, err
	}
	var target messageTarget
	var r rendered
	err = s.store.View(func(tx *store.Tx) error {
		var err error
		if target, err = resolveTarget(tx, actor, out); err != nil {
			return err
		}
		r = s.render(tx, actor, content)
		if err := checkWildcardMentions(tx, actor, target, r); err != nil {
			return err
		}
		return checkGroupMentions(tx, actor, r)
	})
	if err != nil {
		return SentMessage{}, internal("send message", err)
	}
	read := readBySender
	if out.ReadBySender != nil && !*out.ReadBySender {
		read = readByNone
	}
	now := s.now().Unix()
	var me events.MessageEvent
	var to events.Audience
	var attempts []int64 // the IDs marked in flight, one per run of the transaction
	var repeated int64   // the message an earlier send with the same local ID became
	var automatic int    // the sender's topic's new visibility policy
	dedupe := out.QueueID != "" && out.LocalID != ""
	err = s.batch(func(tx *store.Tx) (func(), error) {
		// Batch may run this more than once: it must only write through tx.
		repeated, automatic = 0, 0
		if dedupe {
			if earlier, err := tx.SentLocalID(actor.ID, out.QueueID, out.LocalID); err == nil {
				repeated = earlier.MessageID
				return nil, nil
			}
		}
		st, err := target.recheck(tx, actor.ID)
		if err != nil {
			return nil, err
		}
		m := store.Message{Content: content, Timestamp: now, Client: out.Client}
		if def := widgetDefinition(content); def != "" {
			// As Zulip, the widget's definition is the sender's first submessage.
			id, err := tx.NextSubmessageID()
			if err != nil {
				return nil, err
			}
			m.Submessages = []store.Submessage{{ID: id, SenderID: actor.ID, MsgType: widgetMsgType, Content: def}}
		}
		started := target.stream.ID != 0 && !tx.HasTopic(target.stream.ID, target.topic)
		m, flags, err := s.storeMessage(tx, actor, target, m, r, read)
		if err != nil {
			return nil, err
		}
		var topicChanges deliveries
		if !m.IsPrivate() && !out.Notice {
			acts := []int{autoOnParticipation, autoOnSend}
			if started {
				acts = append(acts, autoOnInitiation)
			}
			if automatic, err = automaticVisibility(tx, actor, st, m.Topic, acts...); err != nil {
				return nil, err
			}
			if err := s.setAutomaticVisibility(tx, &topicChanges, actor, st, m.Topic, automatic); err != nil {
				return nil, err
			}
			if err := s.followMentionedTopics(tx, &topicChanges, st, m.Topic, r.MentionedUserIDs, flags); err != nil {
				return nil, err
			}
		}
		if dedupe {
			rec := store.SentLocalID{MessageID: m.ID, SentAt: now}
			if err := tx.PutSentLocalID(actor.ID, out.QueueID, out.LocalID, rec, now-sentLocalIDMemory); err != nil {
				return nil, err
			}
		}
		s.order.begin(m.ID)
		attempts = append(attempts, m.ID)
		me = events.MessageEvent{Message: m, Recipients: flags, Public: !m.IsPrivate() && !st.InviteOnly,
			SenderQueueID: out.QueueID, LocalID: out.LocalID}
		// Under the publish lock only the audience is fixed; the event is
		// built and each queue's narrow matched after the lock is released
		// (and outside the one-at-a-time batch transaction), so neither a
		// registration nor other writes wait behind a long fan-out.
		return func() {
			topicChanges.publish()
			to = s.events.MessageAudience(me)
		}, nil
	})
	// Only the committed run's ID stays in flight, until it is published.
	for i, id := range attempts {
		if err != nil || repeated != 0 || i < len(attempts)-1 {
			s.order.end(id)
		}
	}
	if err != nil {
		return SentMessage{}, internal("send message", err)
	}
	if repeated != 0 {
		return SentMessage{ID: repeated}, nil
	}
	s.messageForms(&me)
	s.publishInOrder(to, me)
	return SentMessage{ID: me.Message.ID, AutomaticVisibilityPolicy: automatic}, nil
}

// publishPatience is how long a send waits for its message's delivery
// before answering: long enough that a client reading its queue after the
// answer finds the event, short enough that a fan-out stuck on an earlier
// message (its turn comes first) delays deliveries, not senders.
const publishPatience = time.Second

// publishInOrder publishes a committed message once every message before
// it has been, and waits for that at most publishPatience.
func (s *Service) publishInOrder(to events.Audience, me events.MessageEvent) {
	published := make(chan struct{})
	go func() {
		defer close(published)
		defer s.order.end(me.Message.ID)
		s.order.await(me.Message.ID)
		s.events.PublishMessage(to, me)
		s.notifyPhones(me)
	}()
	patience := time.NewTimer(publishPatience)
	defer patience.Stop()
	select {
	case <-published:
	case <-patience.C:
	}
}

// messageForms fills in a stored message's event in both content forms.
func (s *Service) messageForms(me *events.MessageEvent) {
	s.store.View(func(tx *store.Tx) error {
		setMessageForms(newMessageViewer(tx, viewOptions{applyMarkdown: true}, s.topicLinks), me)
		return nil
	})
}

// setMessageForms fills in a message event's two content forms with v (a
// viewer that applies markdown).
func setMessageForms(v *messageViewer, me *events.MessageEvent) {
	rendered := v.view(me.Message)
	me.Rendered, me.Raw = rendered, rendered.withSource(me.Message)
}

// readState is who has read a message as it is stored.
type readState int

const (
	// readByNone: sent with read_by_sender=false.
	readByNone readState = iota
	// readBySender: a message as usually sent.
	readBySender
	// readByEveryone: imported history. Holders with flags of their own
	// get read in them; the others' read runs are written once the whole
	// history is in (Importer.Finish).
	readByEveryone
)

// storeMessage writes a validated, rendered message and every recipient's
// flags inside tx. m brings the content, time and client (and, for an
// import, the edit time and reactions); the rest comes from the sender,
// target and rendering. Recipients are read at commit time so a
// subscription made just before counts.
func (s *Service) storeMessage(tx *store.Tx, sender store.User, target messageTarget, m store.Message, r rendered, read readState) (store.Message, store.Recipients, error) {
	recipients, err := target.recipientIDs(tx)
	if err != nil {
		return store.Message{}, store.Recipients{}, err
	}
	m.SenderID, m.StreamID, m.Topic, m.PrivateUserIDs = sender.ID, target.stream.ID, target.topic, target.userIDs
	m.Rendered, m.IsMe, m.HasLink, m.HasImage, m.HasAttachment = r.HTML, r.IsMeMessage, r.HasLink, r.HasImage, r.HasAttachment
	if m.RecipientID, err = tx.RecipientID(target.stream.ID, target.userIDs); err != nil {
		return store.Message{}, store.Recipients{}, err
	}
	flags := recipientFlags(tx, sender, recipients, r, read)
	for uid := range s.alertWords.alerted(m.Content, recipients) {
		if f, _ := flags.Flags(uid); uid != sender.ID {
			flags.Set(uid, f|store.FlagHasAlertWord)
		}
	}
	return m, flags, tx.CreateMessage(&m, flags)
}

// messageTarget is where a message goes.
type messageTarget struct {
	stream  store.Stream // zero for private messages
	topic   string
	userIDs []int64 // private: participants incl. the sender, sorted
}

// recipientIDs are the users who receive a copy.
func (t messageTarget) recipientIDs(tx *store.Tx) ([]int64, error) {
	if t.stream.ID == 0 {
		return t.userIDs, nil
	}
	if _, err := tx.Stream(t.stream.ID); err != nil {
		return nil, StreamDoesNotExist(t.stream.Name)
	}
	return tx.StreamSubscriberIDs(t.stream.ID), nil
}

// recheck repeats, inside the send's write, the check resolveTarget made in
// an earlier read: the sender may have been deactivated or demoted, or the
// stream deleted or made private, in between. It returns the stream as this
// write sees it (none for a private message), so the send decodes it once.
func (t messageTarget) recheck(tx *store.Tx, senderID int64) (store.Stream, error) {
	sender, err := tx.User(senderID)
	if err != nil || !sender.IsActive {
		return store.Stream{}, ErrInactive
	}
	if t.stream.ID == 0 {
		return store.Stream{}, nil
	}
	st, err := tx.Stream(t.stream.ID)
	if err != nil || !canSeeStream(tx, sender, st) {
		return store.Stream{}, StreamDoesNotExist(t.stream.Name)
	}
	return st, nil
}

func resolveTarget(tx *store.Tx, actor store.User, out OutgoingMessage) (messageTarget, error) {
	switch out.Type {
	case "stream", "channel":
		if strings.TrimSpace(out.Stream) == "" {
			return messageTarget{}, MissingArgument("to")
		}
		st, err := visibleStream(tx, actor, strings.TrimSpace(out.Stream))
		if err != nil {
			return messageTarget{}, err
		}
		if err := checkCanPostToStream(tx, actor, st); err != nil {
			return messageTarget{}, err
		}
		topic, err := normalizeTopic(noTopicAsEmpty(out.Topic))
		if err != nil {
			return messageTarget{}, err
		}
		return messageTarget{stream: st, topic: topic}, nil
	case "private", "direct":
		ids, err := resolveUsers(tx, out.To)
		if err != nil {
			return messageTarget{}, err
		}
		if len(ids) == 0 {
			return messageTarget{}, BadRequest("Message must have recipients")
		}
		participants := sortedUnique(append(ids, actor.ID))
		if err := checkCanSendDirect(tx, actor, participants); err != nil {
			return messageTarget{}, err
		}
		return messageTarget{userIDs: participants}, nil
	case "":
		return messageTarget{}, MissingArgument("type")
	}
	return messageTarget{}, BadRequest("Invalid message type")
}

// resolveUsers maps emails or decimal IDs to active users' IDs.
func resolveUsers(tx *store.Tx, refs []string) ([]int64, error) {
	ids := make([]int64, 0, len(refs))
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		if ref == "" {
			continue
		}
		u, err := userByRef(tx, ref)
		if errors.Is(err, store.ErrNotFound) {
			return nil, BadRequest("Invalid email '%s'", ref)
		}
		if err != nil {
			return nil, err
		}
		if !u.IsActive {
			return nil, BadRequest("'%s' is no longer using Lanchat.", u.Email)
		}
		ids = append(ids, u.ID)
	}
	return ids, nil
}

// userByRef finds a user by email or decimal ID.
func userByRef(tx *store.Tx, ref string) (store.User, error) {
	if id, ok := parseID(ref); ok {
		return tx.User(id)
	}
	return tx.UserByEmail(ref)
}

// recipientFlags gives each recipient their initial flags: mentions from the
// rendering, and read as the readState says.
func recipientFlags(tx *store.Tx, sender store.User, recipients []int64, r rendered, read readState) store.Recipients {
	var common store.Flags
	if r.StreamWildcard {
		common |= store.FlagStreamWildcardMentioned | store.FlagWildcardMentioned
	}
	if r.TopicWildcard {
		common |= store.FlagTopicWildcardMentioned | store.FlagWildcardMentioned
	}
	flags := store.NewRecipients(recipients, common)
	mention := func(id int64) {
		if f, ok := flags.Flags(id); ok {
			flags.Set(id, f|store.FlagMentioned)
		}
	}
	for _, id := range r.MentionedUserIDs {
		mention(id)
	}
	if len(r.MentionedGroupIDs) > 0 {
		// A group mention mentions everyone in it, subgroups' members too.
		if ix, err := loadGroups(tx); err == nil {
			for _, gid := range r.MentionedGroupIDs {
				members, _ := ix.members(gid)
				for _, id := range members {
					mention(id)
				}
			}
		}
	}
	// The sender keeps a copy even of a stream they are not subscribed to,
	// and is never notified of their own message.
	own, _ := flags.Flags(sender.ID)
	own &^= store.AnyMention
	if read != readByNone {
		own |= store.FlagRead
	}
	flags.Set(sender.ID, own)
	if read == readByEveryone {
		// Only rows are written here; a recipient without one is read
		// through the runs the import writes at its end.
		flags.ReadWhereFlagged()
	}
	return flags
}

// messageAudience is who hears of a change to a message: whoever holds it,
// and the actor, who may see it without holding it (a public stream's
// history).
func messageAudience(tx *store.Tx, m store.Message, actor store.User) ([]int64, error) {
	holders, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	audience := tx.MessageUserIDs(m.ID, holders)
	if !slices.Contains(audience, actor.ID) {
		audience = append(audience, actor.ID)
	}
	return audience, nil
}
