package zulip

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"lanchat/backend/archive"
)

// Read hands a Zulip organization export to sink: the one Write makes or
// a Zulip server's own, unpacked (archive.OpenDir) or as its tarball
// (archive.OpenTarGz), with realm.json at the top or inside the one folder
// Zulip's tarball holds. Tables Lanchat does not model are ignored; what it
// cannot take (messages from Zulip's system bots, files missing from the
// archive) is skipped with the reason. realm.json and attachment.json are
// read whole, as Zulip's import reads them; messages a file at a time.
func Read(a *archive.Archive, sink archive.Sink) error {
	root, err := exportRoot(a.FS)
	if err != nil {
		return err
	}
	r := &reader{fsys: root, sink: sink}
	return r.run()
}

// Name is the organization's name in an export, for the host to see
// before importing it: realm.json is read, nothing else.
func Name(a *archive.Archive) (string, error) {
	root, err := exportRoot(a.FS)
	if err != nil {
		return "", err
	}
	f, err := root.Open("realm.json")
	if err != nil {
		return "", archive.Errorf("realm.json", "cannot be opened: %v", err)
	}
	defer f.Close()
	var d struct {
		Realm []struct {
			Name string `json:"name"`
		} `json:"zerver_realm"`
	}
	if err := archive.NewDecoder(f, maxExportFile).Decode(&d, "realm.json"); err != nil {
		return "", exportFileError("realm.json", err)
	}
	if len(d.Realm) != 1 {
		return "", archive.Errorf("realm.json zerver_realm", "holds %d organizations, not one", len(d.Realm))
	}
	return d.Realm[0].Name, nil
}

// exportRoot is the folder holding realm.json.
func exportRoot(fsys fs.FS) (fs.FS, error) {
	if _, err := fs.Stat(fsys, "realm.json"); err == nil {
		return fsys, nil
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, e.Name()+"/realm.json"); err == nil {
			return fs.Sub(fsys, e.Name())
		}
	}
	return nil, archive.Errorf("realm.json", "not found: this is not a Zulip organization export")
}

type reader struct {
	fsys fs.FS
	sink archive.Sink
	d    realmData

	users      map[int64]bool
	crossRealm map[int64]string // system bot ID → email
	// botRecipients are the system bots' personal recipients, which
	// messages people sent them name.
	botRecipients map[int64]string
	recipients    map[int64]recipientRow // by ID
	// members of each huddle's recipient, from the subscriptions.
	huddleMembers map[int64][]string
	reactions     map[int64][]archive.Reaction // by message ID
	links         map[string]string            // path_id → new URL path
}

func (r *reader) run() error {
	if err := r.decode("realm.json", &r.d); err != nil {
		return err
	}
	if len(r.d.Realm) != 1 {
		return archive.Errorf("realm.json zerver_realm", "holds %d organizations, not one", len(r.d.Realm))
	}
	realm := r.d.Realm[0]
	ar := archive.Realm{Name: realm.Name, Description: realm.Description, DateCreated: int64(realm.DateCreated)}
	switch realm.AddCustomEmojiPolicy {
	case policyMembers:
		ar.EmojiAddPolicy = "members"
	case policyAdmins:
		ar.EmojiAddPolicy = "admins"
	}
	if err := r.sink.Realm(ar); err != nil {
		return err
	}
	steps := []func() error{r.readUsers, r.readRecipients, r.readStreams, r.readGroups, r.readLinkifiers, r.readEmoji, r.readReactions, r.readFiles, r.readMessages}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) decode(name string, v any) error {
	f, err := r.fsys.Open(name)
	if err != nil {
		return archive.Errorf(name, "cannot be opened: %v", err)
	}
	defer f.Close()
	if err := archive.NewDecoder(f, maxExportFile).Decode(v, name); err != nil {
		return exportFileError(name, err)
	}
	return nil
}

// maxExportFile bounds each JSON file of an export, which is decoded
// whole: realm.json holds the organization's people, streams and
// subscriptions, each messages file a thousand messages; a large LAN
// team's are a few megabytes.
const maxExportFile = 128 << 20

// exportFileError words a file's decoding error: a refusal as it is, other
// errors as not a valid export file.
func exportFileError(name string, err error) error {
	var refused *archive.Error
	if errors.As(err, &refused) {
		return err
	}
	return archive.Errorf(name, "is not a valid export file: %v", err)
}

func ref(id int64) string { return strconv.FormatInt(id, 10) }

func (r *reader) user(id int64, record string) (string, error) {
	if !r.users[id] {
		return "", archive.Errorf(record, "names user %d, who is not in zerver_userprofile", id)
	}
	return ref(id), nil
}

func (r *reader) readUsers() error {
	var avatars []fileRecord
	if err := r.decodeOptional("avatars/records.json", &avatars); err != nil {
		return err
	}
	avatarOf := map[int64]string{}
	for _, rec := range avatars {
		if rec.UserProfileID == nil || strings.HasSuffix(rec.Path, "-medium.png") {
			continue
		}
		// The .original is the picture as uploaded; Zulip keeps sizes beside it.
		if _, ok := avatarOf[*rec.UserProfileID]; !ok || strings.HasSuffix(rec.Path, ".original") {
			avatarOf[*rec.UserProfileID] = "avatars/" + rec.Path
		}
	}
	users := slices.Concat(r.d.Users, r.d.MirrorDummies)
	slices.SortFunc(users, func(a, b userRow) int { return cmpID(a.ID, b.ID) })
	r.users = map[int64]bool{}
	for _, u := range users {
		if r.users[u.ID] {
			return archive.Errorf(fmt.Sprintf("realm.json zerver_userprofile id %d", u.ID), "appears twice")
		}
		r.users[u.ID] = true
	}
	alertWords := map[int64][]string{}
	for _, w := range r.d.AlertWords {
		if _, err := r.user(w.UserProfile, fmt.Sprintf("realm.json zerver_alertword id %d", w.ID)); err != nil {
			return err
		}
		alertWords[w.UserProfile] = append(alertWords[w.UserProfile], w.Word)
	}
	for _, u := range users {
		record := fmt.Sprintf("realm.json zerver_userprofile id %d", u.ID)
		au := archive.User{
			Ref: ref(u.ID), Email: u.DeliveryEmail, FullName: u.FullName, Role: u.Role,
			Active: u.IsActive && !u.IsMirrorDummy, Timezone: u.Timezone, DateJoined: int64(u.DateJoined),
			AlertWords: alertWords[u.ID],
		}
		if au.Email == "" {
			au.Email = u.Email
		}
		if au.Role == 0 {
			au.Role = 400 // exports from before roles: a member
		}
		if u.IsBot && u.BotType != nil {
			au.BotType = *u.BotType
			if u.BotOwner != nil {
				owner, err := r.user(*u.BotOwner, record+" bot_owner")
				if err != nil {
					return err
				}
				au.BotOwnerRef = owner
			}
		}
		if file, ok := avatarOf[u.ID]; ok && u.AvatarSource == avatarUploaded {
			au.Avatar = r.opener(file)
		}
		if err := r.sink.User(au); err != nil {
			return err
		}
	}
	r.crossRealm, r.botRecipients = map[int64]string{}, map[int64]string{}
	for _, b := range r.d.CrossRealm {
		r.crossRealm[b.ID] = b.Email
		r.botRecipients[b.RecipientID] = b.Email
	}
	return nil
}

func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// decodeOptional decodes a file the export may leave out.
func (r *reader) decodeOptional(name string, v any) error {
	if _, err := fs.Stat(r.fsys, name); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return r.decode(name, v)
}

func (r *reader) opener(name string) archive.Opener {
	return func() (io.ReadCloser, error) { return r.fsys.Open(name) }
}

func (r *reader) readRecipients() error {
	r.recipients = map[int64]recipientRow{}
	for _, rc := range r.d.Recipients {
		r.recipients[rc.ID] = rc
	}
	r.huddleMembers = map[int64][]string{}
	for _, s := range r.d.Subscriptions {
		rc, ok := r.recipients[s.Recipient]
		if !ok {
			return archive.Errorf(fmt.Sprintf("realm.json zerver_subscription id %d", s.ID), "names recipient %d, which is not in zerver_recipient", s.Recipient)
		}
		if rc.Type != recipientHuddle {
			continue
		}
		u, err := r.user(s.UserProfile, fmt.Sprintf("realm.json zerver_subscription id %d", s.ID))
		if err != nil {
			return err
		}
		r.huddleMembers[rc.ID] = append(r.huddleMembers[rc.ID], u)
	}
	return nil
}

func (r *reader) readStreams() error {
	streams := map[int64]bool{}
	for _, s := range r.d.Streams {
		streams[s.ID] = true
	}
	members := map[int64][]string{}
	settings := map[int64]map[string]archive.Subscription{}
	for _, s := range r.d.Subscriptions {
		rc := r.recipients[s.Recipient]
		if rc.Type != recipientStream {
			continue
		}
		record := fmt.Sprintf("realm.json zerver_subscription id %d", s.ID)
		if !streams[rc.TypeID] {
			return archive.Errorf(record, "names stream %d, which is not in zerver_stream", rc.TypeID)
		}
		u, err := r.user(s.UserProfile, record)
		if err != nil {
			return err
		}
		if s.Active {
			members[rc.TypeID] = append(members[rc.TypeID], u)
		}
		if settings[rc.TypeID] == nil {
			settings[rc.TypeID] = map[string]archive.Subscription{}
		}
		settings[rc.TypeID][u] = archive.Subscription{
			Color: s.Color, Muted: s.IsMuted, PinToTop: s.PinToTop,
			DesktopNotifications: s.DesktopNotifications, AudibleNotifications: s.AudibleNotifications,
			PushNotifications: s.PushNotifications, EmailNotifications: s.EmailNotifications,
			WildcardMentionsNotify: s.WildcardMentionsNotify,
		}
	}
	defaults := map[int64]bool{}
	for _, ds := range r.d.DefaultStreams {
		if !streams[ds.Stream] {
			return archive.Errorf(fmt.Sprintf("realm.json zerver_defaultstream id %d", ds.ID), "names stream %d, which is not in zerver_stream", ds.Stream)
		}
		defaults[ds.Stream] = true
	}
	for _, s := range r.d.Streams {
		var creator string
		if s.Creator != nil {
			var err error
			if creator, err = r.user(*s.Creator, fmt.Sprintf("realm.json zerver_stream id %d", s.ID)); err != nil {
				return err
			}
		}
		err := r.sink.Stream(archive.Stream{
			Ref: ref(s.ID), Name: s.Name, Description: s.Description, InviteOnly: s.InviteOnly,
			DateCreated: int64(s.DateCreated), CreatorRef: creator, Archived: s.Deactivated, Default: defaults[s.ID],
			MemberRefs: members[s.ID], Subscriptions: settings[s.ID],
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// readGroups hands on the organization's own groups; Zulip's system
// groups (role:…) are its roles, which the users carry.
func (r *reader) readGroups() error {
	own := map[int64]bool{}
	for _, g := range r.d.UserGroups {
		if !g.IsSystemGroup && !strings.HasPrefix(g.Name, "role:") && !strings.HasPrefix(g.Name, "@role:") {
			own[g.ID] = true
		}
	}
	members := map[int64][]string{}
	for _, m := range r.d.GroupMemberships {
		if !own[m.UserGroup] {
			continue
		}
		u, err := r.user(m.UserProfile, fmt.Sprintf("realm.json zerver_usergroupmembership id %d", m.ID))
		if err != nil {
			return err
		}
		members[m.UserGroup] = append(members[m.UserGroup], u)
	}
	for _, gg := range r.d.GroupGroupMemberships {
		if own[gg.Supergroup] {
			r.sink.Skip(fmt.Sprintf("realm.json zerver_groupgroupmembership id %d", gg.ID), "Lanchat's user groups hold users, not other groups")
		}
	}
	for _, g := range r.d.UserGroups {
		if !own[g.ID] {
			continue
		}
		if err := r.sink.UserGroup(archive.UserGroup{Name: g.Name, Description: g.Description, MemberRefs: members[g.ID]}); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) readLinkifiers() error {
	filters := slices.Clone(r.d.RealmFilters)
	slices.SortStableFunc(filters, func(a, b realmFilterRow) int { return a.Order - b.Order })
	for _, l := range filters {
		template := l.URLTemplate
		if template == "" {
			template = l.URLFormatString
		}
		if err := r.sink.Linkifier(archive.Linkifier{Pattern: l.Pattern, URLTemplate: template}); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) readEmoji() error {
	var records []fileRecord
	if err := r.decodeOptional("emoji/records.json", &records); err != nil {
		return err
	}
	files := map[string]string{}
	for _, rec := range records {
		files[path.Base(rec.Path)] = "emoji/" + rec.Path
	}
	for _, e := range r.d.RealmEmoji {
		record := fmt.Sprintf("realm.json zerver_realmemoji id %d", e.ID)
		file := ""
		if e.FileName != nil {
			file = files[*e.FileName]
		}
		if file == "" {
			r.sink.Skip(record, "its image is not in the archive")
			continue
		}
		em := archive.Emoji{Name: e.Name, Deactivated: e.Deactivated, Open: r.opener(file)}
		if e.Author != nil {
			owner, err := r.user(*e.Author, record)
			if err != nil {
				return err
			}
			em.OwnerRef = owner
		}
		if err := r.sink.Emoji(em); err != nil {
			return err
		}
	}
	return nil
}

// readReactions groups the reactions by message, for the messages to
// carry. A custom emoji's code is its old ID, so the sink looks it up by
// name instead.
func (r *reader) readReactions() error {
	r.reactions = map[int64][]archive.Reaction{}
	for _, re := range r.d.Reactions {
		u, err := r.user(re.UserProfile, fmt.Sprintf("realm.json zerver_reaction id %d", re.ID))
		if err != nil {
			return err
		}
		code := re.EmojiCode
		if re.ReactionType == "realm_emoji" {
			code = ""
		}
		r.reactions[re.Message] = append(r.reactions[re.Message], archive.Reaction{
			UserRef: u, EmojiName: re.EmojiName, EmojiCode: code, ReactionType: re.ReactionType,
		})
	}
	r.d.Reactions = nil
	return nil
}

func (r *reader) readFiles() error {
	var attachments struct {
		Rows []attachmentRow `json:"zerver_attachment"`
	}
	if err := r.decodeOptional("attachment.json", &attachments); err != nil {
		return err
	}
	var records []fileRecord
	if err := r.decodeOptional("uploads/records.json", &records); err != nil {
		return err
	}
	files := map[string]fileRecord{}
	for _, rec := range records {
		files[rec.S3Path] = rec
	}
	r.links = map[string]string{}
	for _, a := range attachments.Rows {
		record := fmt.Sprintf("attachment.json zerver_attachment id %d", a.ID)
		rec, ok := files[a.PathID]
		if !ok {
			r.sink.Skip(record, "its file is not in the archive")
			continue
		}
		owner, err := r.user(a.Owner, record)
		if err != nil {
			return err
		}
		f := archive.File{
			Ref: ref(a.ID), OwnerRef: owner, Name: a.FileName, Size: a.Size, Created: int64(a.CreateTime),
			Open: r.opener("uploads/" + rec.Path),
		}
		if a.ContentType != nil {
			f.ContentType = *a.ContentType
		}
		url, err := r.sink.File(f)
		if err != nil {
			return err
		}
		r.links[a.PathID] = url
	}
	return nil
}

func (r *reader) readMessages() error {
	for n := 1; ; n++ {
		name := fmt.Sprintf("messages-%06d.json", n)
		if _, err := fs.Stat(r.fsys, name); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		var file messageFile
		if err := r.decode(name, &file); err != nil {
			return err
		}
		if err := r.readMessageFile(name, file); err != nil {
			return err
		}
	}
}

func (r *reader) readMessageFile(name string, file messageFile) error {
	flags := map[int64]map[string][]string{}
	for _, um := range file.UserMessages {
		u, err := r.user(um.UserProfile, fmt.Sprintf("%s zerver_usermessage id %d", name, um.ID))
		if err != nil {
			return err
		}
		if flags[um.Message] == nil {
			flags[um.Message] = map[string][]string{}
		}
		flags[um.Message][u] = maskFlags(um.FlagsMask).Names()
	}
	for _, m := range file.Messages {
		record := fmt.Sprintf("%s zerver_message id %d", name, m.ID)
		if bot, ok := r.crossRealm[m.Sender]; ok {
			r.sink.Skip(record, fmt.Sprintf("sent by Zulip's system bot %s, which has no account here", bot))
			continue
		}
		if bot, ok := r.botRecipients[m.Recipient]; ok {
			r.sink.Skip(record, fmt.Sprintf("sent to Zulip's system bot %s, which has no account here", bot))
			continue
		}
		am, err := r.message(record, m)
		if err != nil {
			return err
		}
		am.UserFlags = flags[m.ID]
		if am.UserFlags == nil {
			// The export keeps flags: no row means no one holds it.
			am.UserFlags = map[string][]string{}
		}
		if err := r.sink.Message(am); err != nil {
			return err
		}
		delete(r.reactions, m.ID)
	}
	return nil
}

func (r *reader) message(record string, m messageRow) (archive.Message, error) {
	sender, err := r.user(m.Sender, record)
	if err != nil {
		return archive.Message{}, err
	}
	am := archive.Message{
		Ref: ref(m.ID), SenderRef: sender, Content: r.relink(m.Content), Timestamp: int64(m.DateSent),
		Reactions: r.reactions[m.ID],
	}
	if m.LastEditTime != nil {
		am.EditTimestamp = int64(*m.LastEditTime)
	}
	if m.EditHistory != nil {
		edits, err := r.edits(record, *m.EditHistory)
		if err != nil {
			return archive.Message{}, err
		}
		am.Edits = edits
	}
	rc, ok := r.recipients[m.Recipient]
	if !ok {
		return archive.Message{}, archive.Errorf(record, "names recipient %d, which is not in zerver_recipient", m.Recipient)
	}
	switch rc.Type {
	case recipientStream:
		am.StreamRef, am.Topic = ref(rc.TypeID), m.Subject
	case recipientPersonal:
		other, err := r.user(rc.TypeID, record)
		if err != nil {
			return archive.Message{}, err
		}
		am.PrivateRefs = []string{sender}
		if other != sender {
			am.PrivateRefs = append(am.PrivateRefs, other)
		}
	case recipientHuddle:
		am.PrivateRefs = r.huddleMembers[rc.ID]
		if !slices.Contains(am.PrivateRefs, sender) {
			return archive.Message{}, archive.Errorf(record, "is sent to a group its sender %d is not in", m.Sender)
		}
	default:
		return archive.Message{}, archive.Errorf(record, "has a recipient of unknown type %d", rc.Type)
	}
	return am, nil
}

// relink points links to uploaded files at where the sink stored them.
func (r *reader) relink(content string) string {
	var b strings.Builder
	last := 0
	uploadLinks(content, func(p string, start, end int) {
		url, ok := r.links[p]
		if !ok {
			return
		}
		b.WriteString(content[last : start-len(uploadPrefix)])
		b.WriteString(url)
		last = end
	})
	if last == 0 {
		return content
	}
	b.WriteString(content[last:])
	return b.String()
}

// edits reads a message's edit_history (newest first) into its edits,
// oldest first. Entries by users outside the archive keep no author.
func (r *reader) edits(record, history string) ([]archive.Edit, error) {
	var rows []editRow
	if err := json.Unmarshal([]byte(history), &rows); err != nil {
		return nil, archive.Errorf(record, "has an edit_history that is not a list of edits: %v", err)
	}
	out := make([]archive.Edit, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		h := rows[i]
		e := archive.Edit{Timestamp: int64(h.Timestamp), PrevContent: r.relink(h.PrevContent), PrevRendered: h.PrevRenderedContent, PrevTopic: h.PrevTopic}
		if e.PrevTopic == "" {
			e.PrevTopic = h.PrevSubject
		}
		if h.UserID != nil && r.users[*h.UserID] {
			e.UserRef = ref(*h.UserID)
		}
		if h.PrevStream != 0 {
			e.PrevStreamRef = ref(h.PrevStream)
		}
		out = append(out, e)
	}
	return out, nil
}
