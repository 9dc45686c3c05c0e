package domain

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"lanchat/backend/archive"
	"lanchat/backend/store"
)

// ImportedMessage is a message to import with its original sender and time.
type ImportedMessage struct {
	SenderID  int64
	Timestamp int64
	OutgoingMessage
}

// ImportMessages stores many messages in one transaction, through the same
// validation, rendering and indexing as SendMessage. It serves bulk imports
// and the benchmark fixtures; senders' own copies start read. It publishes
// no live events: an import is not a conversation.
func (s *Service) ImportMessages(msgs []ImportedMessage) ([]int64, error) {
	ids := make([]int64, 0, len(msgs))
	err := s.store.Update(func(tx *store.Tx) error {
		senders := map[int64]store.User{}
		for _, im := range msgs {
			sender, ok := senders[im.SenderID]
			if !ok {
				var err error
				if sender, err = tx.User(im.SenderID); err != nil {
					return BadRequest("Invalid user ID: %d", im.SenderID)
				}
				senders[im.SenderID] = sender
			}
			content, err := normalizeContent(im.Content)
			if err != nil {
				return err
			}
			target, err := resolveTarget(tx, sender, im.OutgoingMessage)
			if err != nil {
				return err
			}
			m, _, err := s.storeMessage(tx, sender, target, store.Message{Content: content, Timestamp: im.Timestamp, Client: im.Client},
				s.render(tx, sender, content), readBySender)
			if err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		return nil
	})
	if err != nil {
		return nil, internal("import messages", err)
	}
	return ids, nil
}

// DefaultMaxImportFileSize bounds one file of an imported archive, by the
// size the archive claims, before any of it is read: 4 GiB.
const DefaultMaxImportFileSize = 4 << 30

// importBatch is how many messages one import transaction writes: large
// enough that commits (each an fsync) do not dominate, small enough that a
// transaction's dirty pages stay a few megabytes.
const importBatch = 2000

// maxSkipped bounds the skipped records a summary lists one by one.
const maxSkipped = 1000

// Importer writes an archive's records into a new organization's store:
// it is the archive.Sink every format's reader hands its records to. Each
// record passes the same validation and rendering as the API's actions,
// and the source's IDs are mapped to the store's as records arrive, so a
// reference to a record not given before is refused, naming the record.
// Messages are written in batches, one transaction each; nothing is
// published, as the server is not running. Call Finish after the reader.
type Importer struct {
	s *Service
	// MaxFileSize bounds each file's claimed size; zero means
	// DefaultMaxImportFileSize.
	MaxFileSize int64
	// FreeSpace reports the bytes left on the data folder's file system
	// (nil: not checked); a file claiming more is refused before reading.
	FreeSpace func() (int64, error)

	users    map[string]int64
	streams  map[string]store.Stream
	archived []int64 // streams deactivated once their messages are in
	owners   map[int64]string
	pending  []archive.Message
	// flagged is set once a message brings its own per-user flags: the
	// source keeps read state, so Finish marks nothing read wholesale.
	flagged bool
	lastID  int64
	// blocks are each conversation's read-run blocks holding imported
	// messages, for Finish to mark read.
	blocks           map[int64][]int64
	summary          archive.Summary
	skipped, changed int
	// topics are the imported topics the API's rule refused, fixed once.
	topics map[string]string
}

// NewImporter starts an import into the service's store, which should be
// new and empty.
func (s *Service) NewImporter() *Importer {
	return &Importer{s: s, users: map[string]int64{}, streams: map[string]store.Stream{}, owners: map[int64]string{},
		blocks: map[int64][]int64{}, topics: map[string]string{}}
}

// Skip notes a record left out of the import.
func (im *Importer) Skip(record, reason string) {
	im.skipped++
	if len(im.summary.Skipped) < maxSkipped {
		im.summary.Skipped = append(im.summary.Skipped, archive.Skipped{Record: record, Reason: reason})
	}
}

// change notes a record imported with a value the API's rules refused,
// fixed: why is the rule's refusal.
func (im *Importer) change(record, what string, from, to string, why error) {
	im.changed++
	if len(im.summary.Changed) < maxSkipped {
		im.summary.Changed = append(im.summary.Changed, archive.Changed{Record: record,
			Change: fmt.Sprintf("%s %s became %q: %s", what, shown(from), to, refusal(why))})
	}
}

// fitted is an archive's text cut to the API's limit for field, the cut
// noted: the text is kept in part rather than refused.
func (im *Importer) fitted(record, field, text string, limit int) string {
	err := checkLength(field, text, limit)
	if err == nil {
		return text
	}
	cut := truncateRunes(text, limit)
	im.change(record, "the "+field, text, cut, err)
	return cut
}

// shown quotes a source's value for the summary, cut to a line's length.
func shown(v string) string {
	if utf8.RuneCountInString(v) > 60 {
		return fmt.Sprintf("%q…", truncateRunes(v, 60))
	}
	return fmt.Sprintf("%q", v)
}

// refusal is a rule's refusal in its own words.
func refusal(err error) string {
	var de *Error
	if errors.As(err, &de) {
		return de.Msg
	}
	return err.Error()
}

// ImportedRealmName is the name an import gives an organization an
// archive names name: the API's rule (ValidateRealmName), a longer name
// cut to fit, Lanchat's default when there is none.
func ImportedRealmName(name string) string {
	fixed, _ := importedRealmName(name)
	return fixed
}

// importedRealmName is ImportedRealmName with the rule's refusal of a name
// it cut; nil when it was kept, or there was none to keep.
func importedRealmName(name string) (string, error) {
	valid, err := ValidateRealmName(name)
	switch {
	case err == nil:
		return valid, nil
	case strings.TrimSpace(name) == "":
		return DefaultRealmName, nil
	}
	return strings.TrimSpace(truncateRunes(strings.TrimSpace(name), MaxRealmNameLength)), err
}

// Realm names the organization.
func (im *Importer) Realm(r archive.Realm) error {
	name, refused := importedRealmName(r.Name)
	if refused != nil {
		im.change("the organization", "its name", r.Name, name, refused)
	}
	created := r.DateCreated
	if created == 0 {
		created = im.s.now().Unix()
	}
	im.summary.RealmName = name
	return im.s.store.Update(func(tx *store.Tx) error {
		if err := ensureRealm(tx, name, created); err != nil {
			return err
		}
		realm, err := tx.Realm()
		if err != nil {
			return err
		}
		realm.Name, realm.Description, realm.DateCreated = name, im.fitted("the organization", "description", r.Description, MaxRealmDescriptionLength), created
		switch r.EmojiAddPolicy {
		case "members", "admins":
			realm.EmojiAddPolicy = r.EmojiAddPolicy
		}
		return tx.PutRealm(realm)
	})
}

// User creates an account with no password: an administrator or the host
// issues one. Deactivated people keep their history but cannot log in.
func (im *Importer) User(u archive.User) error {
	record := "user " + u.Ref
	if _, ok := im.users[u.Ref]; ok {
		return archive.Errorf(record, "appears twice")
	}
	role := u.Role
	if role == 0 {
		role = store.RoleMember
	}
	name := strings.TrimSpace(u.FullName)
	if err := validateFullName(name); err != nil {
		// As readers wrote the person's mentions.
		name = archive.CleanName(u.FullName, localPart(u.Email))
		im.change(record, "the name", u.FullName, name, err)
	}
	timezone := u.Timezone
	if _, err := parsePreference(Preference{Name: "timezone", Raw: timezone}); timezone != "" && err != nil {
		timezone = ""
		im.change(record, "the time zone", u.Timezone, timezone, err)
	}
	var created store.User
	err := im.s.store.Update(func(tx *store.Tx) error {
		var err error
		created, err = im.s.createUser(tx, NewUser{Email: u.Email, FullName: name, Role: role, BotType: u.BotType})
		if err != nil {
			return err
		}
		created.IsActive, created.Timezone, created.AlertWords = u.Active, timezone, im.alertWords(record, u.AlertWords)
		if u.DateJoined != 0 {
			created.DateJoined = u.DateJoined
		}
		if u.Avatar != nil {
			im.avatar(record, &created, u.Avatar)
		}
		return tx.PutUser(created)
	})
	if err != nil {
		return recordError(record, err)
	}
	im.users[u.Ref] = created.ID
	if len(created.AlertWords) > 0 {
		im.s.alertWords.set(created.ID, created.AlertWords)
	}
	if u.BotOwnerRef != "" {
		im.owners[created.ID] = u.BotOwnerRef
	}
	im.summary.Users++
	return nil
}

// avatar installs a user's picture as their first uploaded version; a
// picture that is not an image is skipped.
func (im *Importer) avatar(record string, u *store.User, open archive.Opener) {
	data, err := readOpener(open, MaxAvatarSize)
	if err != nil {
		im.Skip("avatar of "+record, err.Error())
		return
	}
	ctype, ok := detectImage(data)
	if !ok {
		im.Skip("avatar of "+record, "not a PNG, GIF, JPEG or WebP image")
		return
	}
	u.AvatarVersion = 1
	if err := writeDataFile(im.s.avatarPath(*u, imageTypes[ctype]), data); err != nil {
		im.Skip("avatar of "+record, err.Error())
		u.AvatarVersion = 0
	}
}

// Stream creates a stream with its members, subscribed before any message
// arrives so their history covers every imported message.
func (im *Importer) Stream(st archive.Stream) error {
	record := "stream " + st.Ref
	if _, ok := im.streams[st.Ref]; ok {
		return archive.Errorf(record, "appears twice")
	}
	members, err := im.userIDs(record, st.MemberRefs)
	if err != nil {
		return err
	}
	creator, err := im.optionalUserID(record, st.CreatorRef)
	if err != nil {
		return err
	}
	name, err := validateStreamName(st.Name)
	if err != nil {
		name = importedStreamName(st.Name, st.Ref)
		im.change(record, "the name", st.Name, name, err)
	}
	description := st.Description
	if n := utf8.RuneCountInString(description); n > MaxStreamDescriptionLength {
		description = truncateRunes(description, MaxStreamDescriptionLength)
		im.change(record, "the description", st.Description, description,
			BadRequest("Channel description too long (limit: %d characters).", MaxStreamDescriptionLength))
	}
	var created store.Stream
	err = im.s.store.Update(func(tx *store.Tx) error {
		var err error
		created, err = im.s.createStream(tx, name, description, st.InviteOnly, creator)
		if err != nil {
			return err
		}
		if st.DateCreated != 0 {
			created.DateCreated = st.DateCreated
			if err := tx.PutStream(created); err != nil {
				return err
			}
		}
		for _, uid := range members {
			if _, err := subscribe(tx, uid, created); err != nil {
				return err
			}
		}
		if err := im.subscriptionSettings(tx, record, created.ID, st.Subscriptions); err != nil {
			return err
		}
		if !st.Default {
			return nil
		}
		realm, err := tx.Realm()
		if err != nil {
			return err
		}
		realm.DefaultStreamIDs = append(realm.DefaultStreamIDs, created.ID)
		return tx.PutRealm(realm)
	})
	if err != nil {
		return recordError(record, err)
	}
	im.streams[st.Ref] = created
	if st.Archived {
		im.archived = append(im.archived, created.ID)
	}
	im.summary.Streams++
	return nil
}

// subscriptionSettings gives members their own settings for a stream, and
// keeps former members' (an inactive subscription) for when they return.
func (im *Importer) subscriptionSettings(tx *store.Tx, record string, streamID int64, settings map[string]archive.Subscription) error {
	for ref, set := range settings {
		ids, err := im.userIDs(record, []string{ref})
		if err != nil {
			return err
		}
		sub, err := tx.Subscription(ids[0], streamID)
		if errors.Is(err, store.ErrNotFound) {
			sub, err = store.Subscription{UserID: ids[0], StreamID: streamID, Color: defaultColor(streamID)}, nil
		}
		if err != nil {
			return err
		}
		if set.Color != "" {
			sub.Color = set.Color
		}
		sub.IsMuted, sub.PinToTop = set.Muted, set.PinToTop
		sub.DesktopNotifications, sub.AudibleNotifications, sub.PushNotifications = set.DesktopNotifications, set.AudibleNotifications, set.PushNotifications
		sub.EmailNotifications, sub.WildcardMentionsNotify = set.EmailNotifications, set.WildcardMentionsNotify
		if err := tx.PutSubscription(sub); err != nil {
			return err
		}
	}
	return nil
}

// importedStreamName is a stream name validateStreamName refused, fixed:
// without control characters, cut to the limit, else named by its source
// ID.
func importedStreamName(name, ref string) string {
	fixed := strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' {
			return -1
		}
		return r
	}, name))
	if fixed = strings.TrimSpace(truncateRunes(fixed, MaxStreamNameLength)); fixed == "" {
		fixed = truncateRunes("channel "+ref, MaxStreamNameLength)
	}
	return fixed
}

// alertWords keeps a user's alert words as the API keeps its own: each by
// its rule (checkAlertWord), none twice (ignoring case), at most
// MaxAlertWords; words it refuses are left out, and said so.
func (im *Importer) alertWords(record string, words []string) []string {
	var out []string
	for _, w := range words {
		w, err := checkAlertWord(w)
		if err != nil {
			im.Skip(fmt.Sprintf("alert word %s of %s", shown(w), record), refusal(err))
			continue
		}
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, w) }) && len(out) < MaxAlertWords {
			out = append(out, w)
		}
	}
	return out
}

// UserGroup creates a user group.
func (im *Importer) UserGroup(g archive.UserGroup) error {
	record := "user group " + g.Name
	members, err := im.userIDs(record, g.MemberRefs)
	if err != nil {
		return err
	}
	var refused *Error
	err = im.s.store.Update(func(tx *store.Tx) error {
		name, err := checkGroupName(tx, g.Name, 0)
		if errors.As(err, &refused) {
			return nil
		}
		if err != nil {
			return err
		}
		return tx.CreateUserGroup(&store.UserGroup{Name: name, Description: im.fitted(record, "description", g.Description, MaxGroupDescriptionLength),
			Members: sortedUnique(members)})
	})
	if err != nil {
		return recordError(record, err)
	}
	if refused != nil {
		// Its name the API refuses (empty, too long, or another group's).
		im.Skip(record, refused.Msg)
		return nil
	}
	im.summary.UserGroups++
	return nil
}

// Linkifier adds a linkifier, in force for the messages imported after it;
// one Lanchat cannot compile is skipped.
func (im *Importer) Linkifier(l archive.Linkifier) error {
	template, err := checkLinkifier(l.Pattern, l.URLTemplate)
	if err != nil {
		im.Skip("linkifier "+truncateRunes(l.Pattern, 60), refusal(err))
		return nil
	}
	err = im.s.store.Update(func(tx *store.Tx) error {
		if err := tx.CreateLinkifier(&store.Linkifier{Pattern: l.Pattern, URLTemplate: template}); err != nil {
			return err
		}
		return im.s.reloadLinkifiers(tx)
	})
	if err != nil {
		return recordError("linkifier "+l.Pattern, err)
	}
	im.summary.Linkifiers++
	return nil
}

// Emoji adds a custom emoji; one whose name or image Lanchat refuses is
// skipped.
func (im *Importer) Emoji(e archive.Emoji) error {
	record := "emoji " + e.Name
	name, err := normalizeEmojiName(e.Name)
	if err != nil {
		im.Skip(record, err.Error())
		return nil
	}
	author, err := im.optionalUserID(record, e.OwnerRef)
	if err != nil {
		return err
	}
	data, err := readOpener(e.Open, DefaultMaxEmojiFileSize)
	if err != nil {
		im.Skip(record, err.Error())
		return nil
	}
	ctype, ok := detectImage(data)
	if !ok {
		im.Skip(record, "not a PNG, GIF, JPEG or WebP image")
		return nil
	}
	fileName := randomHex(16) + imageTypes[ctype]
	if err := writeDataFile(filepath.Join(im.s.cfg.DataDir, emojiDir, fileName), data); err != nil {
		return recordError(record, err)
	}
	err = im.s.store.Update(func(tx *store.Tx) error {
		if _, err := tx.ActiveRealmEmoji(name); err == nil && !e.Deactivated {
			return BadRequest("A custom emoji with this name already exists.")
		}
		return tx.CreateRealmEmoji(&store.RealmEmoji{Name: name, FileName: fileName, ContentType: ctype, AuthorID: author, Deactivated: e.Deactivated})
	})
	if err != nil {
		return recordError(record, err)
	}
	im.summary.Emoji++
	return nil
}

// File stores an uploaded file as an upload of its owner, streaming it
// into the data folder. Its claimed size is checked before reading (the
// limit and the room left on disk), and content running past it is
// refused.
func (im *Importer) File(f archive.File) (string, error) {
	record := fmt.Sprintf("file %s (%s)", f.Ref, f.Name)
	limit := im.MaxFileSize
	if limit <= 0 {
		limit = DefaultMaxImportFileSize
	}
	switch {
	case f.Size < 0:
		return "", archive.Errorf(record, "claims a negative size")
	case f.Size > limit:
		return "", archive.Errorf(record, "claims %d bytes, more than the %s an imported file may have", f.Size, mib(limit))
	}
	if im.FreeSpace != nil {
		free, err := im.FreeSpace()
		if err != nil {
			return "", err
		}
		if f.Size > free {
			return "", archive.Errorf(record, "claims %d bytes, more than the %d left on the data folder's disk", f.Size, free)
		}
	}
	owner, err := im.userIDs(record, []string{f.OwnerRef})
	if err != nil {
		return "", err
	}
	if f.Open == nil {
		return "", archive.Errorf(record, "has no content")
	}
	r, err := f.Open()
	if err != nil {
		return "", archive.Errorf(record, "cannot be read: %v", err)
	}
	defer r.Close()
	name := safeFileName(f.Name)
	dir, token := randomHex(1), randomString(24, apiKeyAlphabet)
	stored := filepath.Join(dir, token)
	file := filepath.Join(im.s.cfg.DataDir, uploadDir, stored)
	size, head, err := streamDataFile(file, io.LimitReader(r, f.Size+1))
	if err != nil {
		os.Remove(file)
		return "", archive.Errorf(record, "cannot be read: %v", err)
	}
	if size > f.Size {
		os.Remove(file)
		return "", archive.Errorf(record, "runs longer than the %d bytes it claims", f.Size)
	}
	ctype := f.ContentType
	if ctype == "" {
		ctype = http.DetectContentType(head)
	}
	created := f.Created
	if created == 0 {
		created = im.s.now().Unix()
	}
	u := store.Upload{Path: fmt.Sprintf("1/%s/%s/%s", dir, token, name), Token: token, FileName: name,
		ContentType: ctype, Size: size, OwnerID: owner[0], Created: created, Stored: stored}
	u.Width, u.Height = imageSize(file, ctype)
	if err := im.s.store.Update(func(tx *store.Tx) error { return tx.CreateUpload(&u) }); err != nil {
		return "", recordError(record, err)
	}
	im.summary.Files++
	return "/user_uploads/" + u.Path, nil
}

// Message queues a message; a full batch is written in one transaction.
func (im *Importer) Message(m archive.Message) error {
	im.pending = append(im.pending, m)
	if len(im.pending) >= importBatch {
		return im.flush()
	}
	return nil
}

// flush writes the queued messages in one transaction.
func (im *Importer) flush() error {
	if len(im.pending) == 0 {
		return nil
	}
	var written, reactions int
	err := im.s.store.Update(func(tx *store.Tx) error {
		written, reactions = 0, 0
		senders := map[int64]store.User{}
		for _, m := range im.pending {
			n, err := im.storeImported(tx, senders, m)
			if err != nil {
				return err
			}
			if n >= 0 {
				written++
				reactions += n
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	im.summary.Messages += written
	im.summary.Reactions += reactions
	im.pending = im.pending[:0]
	return im.wrote()
}

// wrote follows each bulk transaction: it reopens the store, letting go of
// the mapped file's pages the transaction read (store.Reopen). Without it an
// import's resident memory grows with the store; reopening every fifth
// transaction still let a 1,000,000-message import reach 605 MB, every one
// keeps it at 161 MB for the same time.
func (im *Importer) wrote() error { return im.s.store.Reopen() }

// storeImported writes one message inside tx and returns how many of its
// reactions were kept, or -1 when the message itself was skipped.
func (im *Importer) storeImported(tx *store.Tx, senders map[int64]store.User, m archive.Message) (int, error) {
	record := "message " + m.Ref
	ids, err := im.userIDs(record, []string{m.SenderRef})
	if err != nil {
		return 0, err
	}
	sender, ok := senders[ids[0]]
	if !ok {
		if sender, err = tx.User(ids[0]); err != nil {
			return 0, err
		}
		senders[sender.ID] = sender
	}
	content, err := normalizeContent(m.Content)
	if err != nil {
		im.Skip(record, err.Error())
		return -1, nil
	}
	target, err := im.target(record, sender, m)
	if err != nil {
		return 0, err
	}
	reactions := im.reactions(tx, record, m.Reactions)
	read := readByEveryone
	if keepsReadState(m.UserFlags) {
		im.flagged, read = true, readBySender
	}
	stored, flags, err := im.s.storeMessage(tx, sender, target,
		store.Message{Content: content, Timestamp: m.Timestamp, Client: "import", LastEditTimestamp: m.EditTimestamp, Reactions: reactions, Edits: im.edits(tx, sender, record, m.Edits)},
		im.s.render(tx, sender, content), read)
	if err != nil {
		return 0, recordError(record, err)
	}
	im.lastID = stored.ID
	if bs, b := im.blocks[stored.RecipientID], store.ReadRunBlock(stored.ID); len(bs) == 0 || bs[len(bs)-1] != b {
		im.blocks[stored.RecipientID] = append(bs, b)
	}
	return len(reactions), im.userFlags(tx, record, stored.ID, flags, m.UserFlags, read)
}

// keepsReadState says whether a message's flags say who read it (Zulip's
// do); flags without "read" (Mattermost's saved posts) leave the message
// read for everyone.
func keepsReadState(byUser map[string][]string) bool {
	for _, names := range byUser {
		if slices.Contains(names, "read") {
			return true
		}
	}
	return false
}

// edits maps a message's earlier versions to the store's IDs; an author or
// stream the archive does not have stays unnamed (0). An earlier version
// is rendered again from its markdown, as the message is: the source's
// HTML is not trusted. Its topic follows the API's rule, as the message's.
func (im *Importer) edits(tx *store.Tx, sender store.User, record string, in []archive.Edit) []store.Edit {
	var out []store.Edit
	for _, e := range in {
		edit := store.Edit{Timestamp: e.Timestamp, UserID: im.users[e.UserRef], PrevContent: e.PrevContent,
			PrevStreamID: im.streams[e.PrevStreamRef].ID}
		if e.PrevContent != "" {
			edit.PrevRendered = im.s.render(tx, sender, e.PrevContent).HTML
		}
		if e.PrevTopic != "" {
			edit.PrevTopic = im.topic(record, e.PrevTopic)
		}
		out = append(out, edit)
	}
	return out
}

// topic is an imported topic as the API keeps it (normalizeTopic); one
// the rule refuses has its control characters made spaces, or becomes
// "(no topic)", and is said so once.
func (im *Importer) topic(record, topic string) string {
	normal, err := normalizeTopic(topic)
	if err == nil {
		return normal
	}
	if fixed, ok := im.topics[topic]; ok {
		return fixed
	}
	fixed, cleanErr := normalizeTopic(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, topic))
	if cleanErr != nil {
		fixed = "(no topic)"
	}
	im.topics[topic] = fixed
	im.change(record, "the topic", topic, fixed, err)
	return fixed
}

// target is where an imported message goes: its stream and topic, or its
// participants (sender included).
func (im *Importer) target(record string, sender store.User, m archive.Message) (messageTarget, error) {
	if m.StreamRef == "" {
		ids, err := im.userIDs(record, m.PrivateRefs)
		if err != nil {
			return messageTarget{}, err
		}
		if len(ids) == 0 {
			return messageTarget{}, archive.Errorf(record, "has neither a stream nor recipients")
		}
		return messageTarget{userIDs: sortedUnique(append(ids, sender.ID))}, nil
	}
	st, ok := im.streams[m.StreamRef]
	if !ok {
		return messageTarget{}, archive.Errorf(record, "names stream %q, which the archive does not have", m.StreamRef)
	}
	return messageTarget{stream: st, topic: im.topic(record, m.Topic)}, nil
}

// reactions resolves a message's reactions; an unknown emoji, or the same
// person's same emoji twice, is skipped.
func (im *Importer) reactions(tx *store.Tx, record string, in []archive.Reaction) []store.Reaction {
	var out []store.Reaction
	for _, r := range in {
		what := fmt.Sprintf("reaction :%s: on %s", r.EmojiName, record)
		uid, ok := im.users[r.UserRef]
		if !ok {
			im.Skip(what, fmt.Sprintf("user %q is not in the archive", r.UserRef))
			continue
		}
		resolved, err := resolveEmoji(tx, ReactionRequest{EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
		if err != nil {
			im.Skip(what, err.Error())
			continue
		}
		resolved.UserID = uid
		if slices.ContainsFunc(out, func(x store.Reaction) bool { return x.UserID == uid && sameEmoji(x, resolved) }) {
			continue
		}
		out = append(out, resolved)
	}
	return out
}

// userFlags sets the per-user flags a source keeps (Zulip's, or
// Mattermost's saved posts), beside the mentions the rendering found. A
// source that keeps read state (Zulip's) lists everyone who holds the
// message: a member it does not list (who joined the stream after the
// message was sent) loses the copy their subscription gave them. Flags
// without read state (saved posts) leave every copy, read.
func (im *Importer) userFlags(tx *store.Tx, record string, msgID int64, rendered store.Recipients, byUser map[string][]string, read readState) error {
	if byUser == nil {
		return nil
	}
	holders := map[int64]bool{}
	for ref, names := range byUser {
		uid, ok := im.users[ref]
		if !ok {
			return archive.Errorf(record, "has flags of user %q, who is not in the archive", ref)
		}
		holders[uid] = true
		f, _ := rendered.Flags(uid)
		if read == readByEveryone {
			f |= store.FlagRead
		}
		for _, name := range names {
			flag, ok := flagNamed(name)
			if !ok {
				im.Skip(fmt.Sprintf("flag %q of user %s on %s", name, ref, record), "not a flag Lanchat keeps")
			}
			f |= flag
		}
		if err := tx.SetFlags(uid, msgID, f); err != nil {
			return err
		}
	}
	if read == readByEveryone {
		return nil
	}
	for uid := range rendered.Holders() {
		if !holders[uid] {
			if err := tx.DeleteFlags(uid, msgID); err != nil {
				return err
			}
		}
	}
	return nil
}

func flagNamed(name string) (store.Flags, bool) {
	for _, fn := range store.FlagNames {
		if fn.Name == name {
			return fn.Flag, true
		}
	}
	return 0, false
}

// Finish writes the last messages, marks the history read for everyone
// when the source kept no read state, deactivates archived streams and
// names bots' owners. It returns what was imported and skipped.
func (im *Importer) Finish() (archive.Summary, error) {
	if err := im.flush(); err != nil {
		return archive.Summary{}, err
	}
	err := im.s.store.Update(func(tx *store.Tx) error {
		for bot, ref := range im.owners {
			owner, ok := im.users[ref]
			if !ok {
				im.Skip(fmt.Sprintf("owner %q of bot %d", ref, bot), "not among the archive's users")
				continue
			}
			u, err := tx.User(bot)
			if err != nil {
				return err
			}
			u.BotOwnerID = owner
			if err := tx.PutUser(u); err != nil {
				return err
			}
		}
		for _, id := range im.archived {
			st, err := tx.Stream(id)
			if err != nil {
				return err
			}
			st.Deactivated = true
			if err := tx.PutStream(st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return archive.Summary{}, err
	}
	if !im.flagged && im.lastID > 0 {
		// One transaction per person keeps each write's dirty pages small:
		// a person's runs are a key per block of each of their streams.
		for _, uid := range im.users {
			if err := im.s.store.Update(func(tx *store.Tx) error {
				return tx.MarkAllRead(uid, im.lastID, func(rid int64) []int64 { return im.blocks[rid] })
			}); err != nil {
				return archive.Summary{}, err
			}
			if err := im.wrote(); err != nil {
				return archive.Summary{}, err
			}
		}
	}
	if more := im.skipped - len(im.summary.Skipped); more > 0 {
		im.summary.Skipped = append(im.summary.Skipped, archive.Skipped{Record: fmt.Sprintf("%d more records", more), Reason: "not listed one by one"})
	}
	if more := im.changed - len(im.summary.Changed); more > 0 {
		im.summary.Changed = append(im.summary.Changed, archive.Changed{Record: fmt.Sprintf("%d more records", more), Change: "not listed one by one"})
	}
	return im.summary, nil
}

// userIDs maps the archive's user references to the store's IDs.
func (im *Importer) userIDs(record string, refs []string) ([]int64, error) {
	ids := make([]int64, 0, len(refs))
	for _, ref := range refs {
		id, ok := im.users[ref]
		if !ok {
			return nil, archive.Errorf(record, "names user %q, who is not in the archive", ref)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// optionalUserID is the imported ID of the user ref names, or 0 for "".
func (im *Importer) optionalUserID(record, ref string) (int64, error) {
	if ref == "" {
		return 0, nil
	}
	ids, err := im.userIDs(record, []string{ref})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// recordError names the record a refusal was about; an archive.Error
// already does.
func recordError(record string, err error) error {
	var ae *archive.Error
	if errors.As(err, &ae) {
		return err
	}
	var de *Error
	if errors.As(err, &de) {
		return archive.Errorf(record, "%s", de.Msg)
	}
	return fmt.Errorf("%s: %w", record, err)
}

func localPart(email string) string {
	local, _, _ := strings.Cut(email, "@")
	return local
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// readOpener reads an archived file of at most limit bytes.
func readOpener(open archive.Opener, limit int64) ([]byte, error) {
	if open == nil {
		return nil, errors.New("no content")
	}
	r, err := open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAll(r, limit)
}
