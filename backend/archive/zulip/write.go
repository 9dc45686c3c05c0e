package zulip

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/store"
)

// realmID is the organization's id in the export: Lanchat hosts one.
const realmID = 1

// ChunkSize is how many messages each messages-NNNNNN.json holds, as in
// Zulip's export (MESSAGE_BATCH_CHUNK_SIZE).
const ChunkSize = 1000

// Write exports a Lanchat store and its data directory's files as a Zulip
// organization export: a tar.gz of one folder, named folder, laid out as
// `./manage.py export` makes it. Everything is read in one read
// transaction, so a running server keeps writing meanwhile and the export
// is one consistent moment; messages are streamed a chunk at a time.
func Write(w io.Writer, st *store.Store, dataDir, folder string) error {
	gz := gzip.NewWriter(w)
	ex := &exporter{tw: tar.NewWriter(gz), folder: folder, dataDir: dataDir, now: time.Now()}
	if err := st.View(ex.run); err != nil {
		return err
	}
	if err := ex.tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

type exporter struct {
	tw      *tar.Writer
	folder  string
	dataDir string
	now     time.Time

	users    []store.User
	personal map[int64]int64 // user ID → recipient ID
	stream   map[int64]int64 // stream ID → recipient ID
	huddles  map[string]int64
	realm    realmData
	uploads  map[string]*attachmentRow // by path_id
	clients  map[string]int64
}

// realmData is realm.json: the tables import_realm.py reads (every one it
// indexes must be present, empty or not).
type realmData struct {
	Realm                 []realmRow                `json:"zerver_realm"`
	AuthMethods           []authMethodRow           `json:"zerver_realmauthenticationmethod"`
	Users                 []userRow                 `json:"zerver_userprofile"`
	MirrorDummies         []userRow                 `json:"zerver_userprofile_mirrordummy"`
	CrossRealm            []crossRealmRow           `json:"zerver_userprofile_crossrealm"`
	Streams               []streamRow               `json:"zerver_stream"`
	Recipients            []recipientRow            `json:"zerver_recipient"`
	Subscriptions         []subscriptionRow         `json:"zerver_subscription"`
	Huddles               []huddleRow               `json:"zerver_huddle"`
	DefaultStreams        []defaultStreamRow        `json:"zerver_defaultstream"`
	RealmEmoji            []realmEmojiRow           `json:"zerver_realmemoji"`
	RealmDomains          []struct{}                `json:"zerver_realmdomain"`
	RealmFilters          []realmFilterRow          `json:"zerver_realmfilter"`
	RealmPlaygrounds      []struct{}                `json:"zerver_realmplayground"`
	Clients               []clientRow               `json:"zerver_client"`
	UserGroups            []userGroupRow            `json:"zerver_usergroup"`
	GroupMemberships      []groupMembershipRow      `json:"zerver_usergroupmembership"`
	GroupGroupMemberships []groupGroupMembershipRow `json:"zerver_groupgroupmembership"`
	Reactions             []reactionRow             `json:"zerver_reaction"`
	AlertWords            []alertWordRow            `json:"zerver_alertword"`
	UserPresence          []struct{}                `json:"zerver_userpresence"`
	UserActivity          []struct{}                `json:"zerver_useractivity"`
	UserActivityInterval  []struct{}                `json:"zerver_useractivityinterval"`
	CustomProfileFields   []struct{}                `json:"zerver_customprofilefield"`
	CustomProfileValues   []struct{}                `json:"zerver_customprofilefieldvalue"`
}

func (ex *exporter) run(tx *store.Tx) error {
	if err := ex.readRealm(tx); err != nil {
		return err
	}
	if err := ex.writeMessages(tx); err != nil {
		return err
	}
	for name, id := range ex.clients {
		ex.realm.Clients = append(ex.realm.Clients, clientRow{ID: id, Name: name})
	}
	slices.SortFunc(ex.realm.Clients, func(a, b clientRow) int { return int(a.ID - b.ID) })
	if err := ex.writeJSON("realm.json", ex.realm); err != nil {
		return err
	}
	if err := ex.writeUploads(); err != nil {
		return err
	}
	if err := ex.writeAvatars(); err != nil {
		return err
	}
	return ex.writeEmoji()
}

// readRealm fills realm.json's tables but for the huddles, their
// subscriptions and the reactions, which come with the messages.
func (ex *exporter) readRealm(tx *store.Tx) error {
	realm, err := tx.Realm()
	if err != nil {
		return fmt.Errorf("export: the organization is not set up yet: %w", err)
	}
	users, err := tx.Users()
	if err != nil {
		return err
	}
	streams, err := tx.AllStreams()
	if err != nil {
		return err
	}
	ex.users = users
	d := &ex.realm
	groups := ex.systemGroups(users)
	policy := policyMembers
	if realm.EmojiAddPolicy == "admins" {
		policy = policyAdmins
	}
	d.Realm = []realmRow{{
		ID: realmID, Name: realm.Name, StringID: stringID(realm.Name), Description: realm.Description,
		DateCreated: float64(realm.DateCreated), CreateMultiuseInviteGroup: groups[groupAdmins],
		AddCustomEmojiPolicy: policy,
	}}
	d.AuthMethods = []authMethodRow{{ID: 1, Realm: realmID, Name: "Email"}}
	d.MirrorDummies, d.CrossRealm, d.Huddles = []userRow{}, []crossRealmRow{}, []huddleRow{}
	ex.personal, ex.stream, ex.huddles = map[int64]int64{}, map[int64]int64{}, map[string]int64{}
	ex.clients = map[string]int64{}
	d.AlertWords = []alertWordRow{}
	for _, u := range users {
		d.Users = append(d.Users, ex.userRow(u))
		for _, w := range u.AlertWords {
			d.AlertWords = append(d.AlertWords, alertWordRow{ID: int64(len(d.AlertWords) + 1), Realm: realmID, UserProfile: u.ID, Word: w})
		}
		rid := ex.recipient(recipientPersonal, u.ID)
		ex.personal[u.ID] = rid
		// Everyone is subscribed to their own personal recipient.
		ex.subscribe(u.ID, rid, store.Subscription{Active: true})
	}
	for _, s := range streams {
		d.Streams = append(d.Streams, streamRow{
			ID: s.ID, Realm: realmID, Name: s.Name, Description: s.Description, InviteOnly: s.InviteOnly,
			HistoryPublicToSubscribers: true, DateCreated: float64(s.DateCreated), Deactivated: s.Deactivated,
			CanRemoveSubscribersGroup: groups[groupAdmins],
		})
		ex.stream[s.ID] = ex.recipient(recipientStream, s.ID)
	}
	for _, u := range users {
		subs, err := tx.UserSubscriptions(u.ID)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			if rid, ok := ex.stream[sub.StreamID]; ok {
				ex.subscribe(u.ID, rid, sub)
			}
		}
	}
	for i, sid := range realm.DefaultStreamIDs {
		d.DefaultStreams = append(d.DefaultStreams, defaultStreamRow{ID: int64(i + 1), Realm: realmID, Stream: sid})
	}
	if err := ex.readEmoji(tx); err != nil {
		return err
	}
	linkifiers, err := tx.Linkifiers()
	if err != nil {
		return err
	}
	d.RealmFilters = []realmFilterRow{}
	for i, l := range linkifiers {
		d.RealmFilters = append(d.RealmFilters, realmFilterRow{ID: l.ID, Realm: realmID, Pattern: l.Pattern, URLTemplate: l.URLTemplate, Order: i})
	}
	if err := ex.readGroups(tx, groups); err != nil {
		return err
	}
	ex.uploads = map[string]*attachmentRow{}
	for _, u := range users {
		ups, err := tx.UserUploads(u.ID)
		if err != nil {
			return err
		}
		for _, up := range ups {
			ctype := up.ContentType
			public := false
			ex.uploads[up.Path] = &attachmentRow{
				ID: up.ID, Realm: realmID, Owner: up.OwnerID, FileName: up.FileName, PathID: up.Path,
				CreateTime: float64(up.Created), Size: up.Size, ContentType: &ctype,
				IsRealmPublic: &public, IsWebPublic: &public, Messages: []int64{}, ScheduledMessages: []int64{},
			}
		}
	}
	d.Reactions = []reactionRow{}
	return nil
}

func (ex *exporter) userRow(u store.User) userRow {
	row := userRow{
		ID: u.ID, Realm: realmID, Email: u.Email, DeliveryEmail: u.Email, FullName: u.FullName, Role: u.Role,
		IsActive: u.IsActive, IsBot: u.IsBot(), DateJoined: float64(u.DateJoined), Timezone: u.Timezone,
		AvatarSource: avatarGravatar, AvatarVersion: max(u.AvatarVersion, 1),
		UserPermissions: []int64{}, Groups: []int64{},
	}
	if u.IsBot() {
		bt := u.BotType
		row.BotType = &bt
		if u.BotOwnerID != 0 {
			owner := u.BotOwnerID
			row.BotOwner = &owner
		}
	}
	if ex.avatarFile(u) != "" {
		row.AvatarSource = avatarUploaded
	}
	return row
}

// avatarFile is the user's uploaded avatar inside the data directory, or
// "" when they show the generated one.
func (ex *exporter) avatarFile(u store.User) string {
	if u.AvatarVersion == 0 {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(ex.dataDir, "avatars", fmt.Sprintf("%d-%d.*", u.ID, u.AvatarVersion)))
	if len(matches) == 0 {
		return ""
	}
	return matches[0]
}

func (ex *exporter) recipient(kind int, typeID int64) int64 {
	id := int64(len(ex.realm.Recipients) + 1)
	ex.realm.Recipients = append(ex.realm.Recipients, recipientRow{ID: id, Type: kind, TypeID: typeID})
	return id
}

func (ex *exporter) subscribe(userID, recipientID int64, s store.Subscription) {
	color := s.Color
	if color == "" {
		color = "#c2c2c2"
	}
	ex.realm.Subscriptions = append(ex.realm.Subscriptions, subscriptionRow{
		ID: int64(len(ex.realm.Subscriptions) + 1), UserProfile: userID, Recipient: recipientID,
		Active: s.Active, IsMuted: s.IsMuted, Color: color, PinToTop: s.PinToTop,
		DesktopNotifications: s.DesktopNotifications, AudibleNotifications: s.AudibleNotifications,
		PushNotifications: s.PushNotifications, EmailNotifications: s.EmailNotifications,
		WildcardMentionsNotify: s.WildcardMentionsNotify,
	})
}

// huddle is the recipient of a direct message among three or more users,
// made on first use.
func (ex *exporter) huddle(userIDs []int64) int64 {
	parts := make([]string, len(userIDs))
	for i, id := range userIDs {
		parts[i] = strconv.FormatInt(id, 10)
	}
	key := strings.Join(parts, ",")
	if rid, ok := ex.huddles[key]; ok {
		return rid
	}
	// Zulip's get_huddle_hash: sha1 of the sorted IDs, comma-joined.
	sum := sha1.Sum([]byte(key))
	id := int64(len(ex.realm.Huddles) + 1)
	ex.realm.Huddles = append(ex.realm.Huddles, huddleRow{ID: id, HuddleHash: hex.EncodeToString(sum[:])})
	rid := ex.recipient(recipientHuddle, id)
	for _, uid := range userIDs {
		ex.subscribe(uid, rid, store.Subscription{Active: true})
	}
	ex.huddles[key] = rid
	return rid
}

// systemGroups makes Zulip's role groups, which every Zulip organization
// has and whose IDs its settings name: each user a direct member of their
// role's group, each group a subgroup of the next wider one.
func (ex *exporter) systemGroups(users []store.User) map[string]int64 {
	d := &ex.realm
	names := []string{groupOwners, groupAdmins, groupModerators, groupFullMembers, groupMembers, groupEveryone, groupInternet, groupNobody}
	ids := map[string]int64{}
	for i, name := range names {
		ids[name] = int64(i + 1)
	}
	d.GroupMemberships, d.GroupGroupMemberships = []groupMembershipRow{}, []groupGroupMembershipRow{}
	for _, name := range names {
		d.UserGroups = append(d.UserGroups, userGroupRow{ID: ids[name], Realm: realmID, Name: name, IsSystemGroup: true, CanMentionGroup: ids[groupNobody]})
	}
	for i := 0; i+1 < len(names)-1; i++ {
		d.GroupGroupMemberships = append(d.GroupGroupMemberships, groupGroupMembershipRow{
			ID: int64(i + 1), Supergroup: ids[names[i+1]], Subgroup: ids[names[i]],
		})
	}
	byRole := map[int]string{
		store.RoleOwner: groupOwners, store.RoleAdmin: groupAdmins, store.RoleModerator: groupModerators,
		store.RoleMember: groupMembers, store.RoleGuest: groupEveryone,
	}
	for _, u := range users {
		if g, ok := byRole[u.Role]; ok {
			ex.member(ids[g], u.ID)
		}
		if u.Role == store.RoleMember {
			ex.member(ids[groupFullMembers], u.ID)
		}
	}
	return ids
}

func (ex *exporter) member(groupID, userID int64) {
	d := &ex.realm
	d.GroupMemberships = append(d.GroupMemberships, groupMembershipRow{ID: int64(len(d.GroupMemberships) + 1), UserGroup: groupID, UserProfile: userID})
}

// readGroups adds the groups people made after the system ones. Their
// subgroups and can_mention_group are not written yet: each is exported
// without subgroups, mentionable by everyone.
func (ex *exporter) readGroups(tx *store.Tx, system map[string]int64) error {
	groups, err := tx.UserGroups()
	if err != nil {
		return err
	}
	offset := int64(len(system))
	for _, g := range groups {
		if g.System {
			continue // written with Zulip's IDs by the caller
		}
		id := offset + g.ID
		ex.realm.UserGroups = append(ex.realm.UserGroups, userGroupRow{
			ID: id, Realm: realmID, Name: g.Name, Description: g.Description, CanMentionGroup: system[groupEveryone],
		})
		for _, uid := range g.Members {
			ex.member(id, uid)
		}
	}
	return nil
}

func (ex *exporter) readEmoji(tx *store.Tx) error {
	emoji, err := tx.RealmEmojis()
	if err != nil {
		return err
	}
	ex.realm.RealmEmoji = []realmEmojiRow{}
	for _, e := range emoji {
		row := realmEmojiRow{ID: e.ID, Realm: realmID, Name: e.Name, Deactivated: e.Deactivated, IsAnimated: e.ContentType == "image/gif"}
		name := e.FileName
		row.FileName = &name
		if e.AuthorID != 0 {
			author := e.AuthorID
			row.Author = &author
		}
		ex.realm.RealmEmoji = append(ex.realm.RealmEmoji, row)
	}
	return nil
}

// messageFile is one messages-NNNNNN.json.
type messageFile struct {
	Messages     []messageRow     `json:"zerver_message"`
	UserMessages []userMessageRow `json:"zerver_usermessage"`
}

// writeMessages streams the messages in ID order, ChunkSize a file, each
// with its recipients' rows, collecting reactions and upload links. A
// file's rows grow with the team (every recipient of a thousand
// messages), so each file is spooled to a temporary file, not memory,
// before it goes into the tar, whose header needs its size.
func (ex *exporter) writeMessages(tx *store.Tx) error {
	spool, err := os.CreateTemp("", "lanchat-export-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(spool.Name())
	defer spool.Close()
	var chunk []store.Message
	file, umID := 1, int64(0)
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		if _, err := spool.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if err := spool.Truncate(0); err != nil {
			return err
		}
		w := bufio.NewWriter(spool)
		rows := make([]messageRow, 0, len(chunk))
		byID := make(map[int64]*store.Message, len(chunk))
		for i, m := range chunk {
			rows = append(rows, ex.messageRow(m))
			byID[m.ID] = &chunk[i]
		}
		w.WriteString(`{"zerver_message":`)
		if err := json.NewEncoder(w).Encode(rows); err != nil {
			return err
		}
		w.WriteString(`,"zerver_usermessage":[`)
		// Each user's received messages within the chunk, from their
		// spans and rows: as much work as there are rows to write.
		lo, hi := chunk[0].ID, chunk[len(chunk)-1].ID
		var row []byte
		for _, u := range ex.users {
			tx.Scan(store.UserRange(u.ID), lo, false, func(id int64) bool {
				m := byID[id]
				if m == nil {
					return id < hi
				}
				if f, ok := tx.MessageFlags(u.ID, *m); ok {
					if umID++; row != nil {
						w.WriteByte(',')
					}
					row = append(row[:0], `{"id":`...)
					row = strconv.AppendInt(row, umID, 10)
					row = append(row, `,"user_profile":`...)
					row = strconv.AppendInt(row, u.ID, 10)
					row = append(row, `,"message":`...)
					row = strconv.AppendInt(row, id, 10)
					row = append(row, `,"flags_mask":`...)
					row = strconv.AppendInt(row, flagsMask(f, m.IsPrivate()), 10)
					w.Write(append(row, '}'))
				}
				return id < hi
			})
		}
		w.WriteString("]}\n")
		if err := w.Flush(); err != nil {
			return err
		}
		chunk = chunk[:0]
		name := fmt.Sprintf("messages-%06d.json", file)
		file++
		return ex.copySpool(name, spool)
	}
	tx.Scan(store.AllMessagesRange(), 0, false, func(id int64) bool {
		var m store.Message
		if m, err = tx.Message(id); err != nil {
			return false
		}
		chunk = append(chunk, m)
		if len(chunk) == ChunkSize {
			err = flush()
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// copySpool puts what the spool holds into the tar as name.
func (ex *exporter) copySpool(name string, spool *os.File) error {
	size, err := spool.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := ex.tw.WriteHeader(&tar.Header{Name: ex.folder + "/" + name, Mode: 0o644, Size: size, ModTime: ex.now}); err != nil {
		return err
	}
	_, err = io.CopyN(ex.tw, spool, size)
	return err
}

func (ex *exporter) messageRow(m store.Message) messageRow {
	var rid int64
	switch {
	case !m.IsPrivate():
		rid = ex.stream[m.StreamID]
	case len(m.PrivateUserIDs) <= 2:
		// A one-to-one message's recipient is the other person (oneself
		// in a note to self).
		other := m.SenderID
		for _, uid := range m.PrivateUserIDs {
			if uid != m.SenderID {
				other = uid
			}
		}
		rid = ex.personal[other]
	default:
		rid = ex.huddle(m.PrivateUserIDs)
	}
	client := m.Client
	if client == "" {
		client = "Lanchat"
	}
	cid, ok := ex.clients[client]
	if !ok {
		cid = int64(len(ex.clients) + 1)
		ex.clients[client] = cid
	}
	rendered, version := m.Rendered, 1
	row := messageRow{
		ID: m.ID, Realm: realmID, Sender: m.SenderID, Recipient: rid, Subject: m.Topic, Content: m.Content,
		RenderedContent: &rendered, RenderedContentVersion: &version, DateSent: float64(m.Timestamp),
		SendingClient: cid, HasImage: m.HasImage, HasLink: m.HasLink,
		HasAttachment: ex.linkUploads(m),
	}
	if m.LastEditTimestamp != 0 {
		t := float64(m.LastEditTimestamp)
		row.LastEditTime = &t
		history := editHistory(m)
		row.EditHistory = &history
	}
	for _, r := range m.Reactions {
		ex.realm.Reactions = append(ex.realm.Reactions, reactionRow{
			ID: int64(len(ex.realm.Reactions) + 1), UserProfile: r.UserID, Message: m.ID,
			EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType,
		})
	}
	return row
}

// editHistory is Zulip's edit_history: a JSON list, newest edit first, of
// what each edit replaced.
func editHistory(m store.Message) string {
	out := []editRow{}
	topic, stream := m.Topic, m.StreamID
	for i := len(m.Edits) - 1; i >= 0; i-- {
		e := m.Edits[i]
		user := e.UserID
		h := editRow{UserID: &user, Timestamp: float64(e.Timestamp), PrevContent: e.PrevContent, PrevRenderedContent: e.PrevRendered}
		if e.PrevContent != "" {
			h.PrevRenderedVersion = 1
		}
		if e.PrevTopic != "" {
			h.PrevTopic, h.Topic = e.PrevTopic, topic
			topic = e.PrevTopic
		}
		if e.PrevStreamID != 0 {
			h.PrevStream, h.Stream = e.PrevStreamID, stream
			stream = e.PrevStreamID
		}
		out = append(out, h)
	}
	b, _ := json.Marshal(out) // plain values: cannot fail
	return string(b)
}

// linkUploads adds the message to the attachments it links and tells
// whether it links any, as Zulip's has_attachment does.
func (ex *exporter) linkUploads(m store.Message) bool {
	linked := false
	uploadLinks(m.Content, func(path string, _, _ int) {
		if a, ok := ex.uploads[path]; ok {
			linked = true
			if !slices.Contains(a.Messages, m.ID) {
				a.Messages = append(a.Messages, m.ID)
			}
		}
	})
	return linked
}

// writeUploads writes attachment.json and uploads/ with the files
// themselves under their path_id, as Zulip's local-storage export does.
func (ex *exporter) writeUploads() error {
	var rows []attachmentRow
	records := []fileRecord{}
	for _, a := range ex.uploads {
		rows = append(rows, *a)
	}
	slices.SortFunc(rows, func(a, b attachmentRow) int { return int(a.ID - b.ID) })
	for _, a := range rows {
		stored, err := ex.storedUpload(a.PathID)
		if err != nil {
			return err
		}
		owner := a.Owner
		records = append(records, fileRecord{
			RealmID: realmID, UserProfileID: &owner, UserEmail: ex.email(a.Owner), S3Path: a.PathID, Path: a.PathID,
			Size: a.Size, LastModified: a.CreateTime, ContentType: a.ContentType,
		})
		if err := ex.copyFile("uploads/"+a.PathID, stored); err != nil {
			return err
		}
	}
	if rows == nil {
		rows = []attachmentRow{}
	}
	if err := ex.writeJSON("attachment.json", map[string][]attachmentRow{"zerver_attachment": rows}); err != nil {
		return err
	}
	return ex.writeJSON("uploads/records.json", records)
}

// storedUpload finds an upload's file in the data directory: the stored
// name is the path's random part (domain.SaveUpload: "1/<dir>/<token>/<name>").
func (ex *exporter) storedUpload(pathID string) (string, error) {
	parts := strings.Split(pathID, "/")
	if len(parts) != 4 {
		return "", fmt.Errorf("export: upload %q is not named as Lanchat names uploads", pathID)
	}
	return filepath.Join(ex.dataDir, "uploads", parts[1], parts[2]), nil
}

func (ex *exporter) email(userID int64) string {
	for _, u := range ex.users {
		if u.ID == userID {
			return u.Email
		}
	}
	return ""
}

// writeAvatars writes each uploaded avatar as the .original Zulip's
// import makes its sizes from.
func (ex *exporter) writeAvatars() error {
	records := []fileRecord{}
	for _, u := range ex.users {
		file := ex.avatarFile(u)
		if file == "" {
			continue
		}
		uid := u.ID
		name := fmt.Sprintf("%d/%d%s.original", realmID, u.ID, path.Ext(file))
		records = append(records, fileRecord{
			RealmID: realmID, UserProfileID: &uid, UserEmail: u.Email, S3Path: name, Path: name,
			ImporterShouldThumbnail: true,
		})
		if err := ex.copyFile("avatars/"+name, file); err != nil {
			return err
		}
	}
	return ex.writeJSON("avatars/records.json", records)
}

// writeEmoji writes custom emoji at RealmEmoji.PATH_ID_TEMPLATE.
func (ex *exporter) writeEmoji() error {
	records := []fileRecord{}
	for _, e := range ex.realm.RealmEmoji {
		name := fmt.Sprintf("%d/emoji/images/%s", realmID, *e.FileName)
		records = append(records, fileRecord{
			RealmID: realmID, Author: e.Author, S3Path: name, Path: name, FileName: *e.FileName, Name: e.Name, Deactivated: e.Deactivated,
		})
		if err := ex.copyFile("emoji/"+name, filepath.Join(ex.dataDir, "emoji", *e.FileName)); err != nil {
			return err
		}
	}
	return ex.writeJSON("emoji/records.json", records)
}

func (ex *exporter) writeJSON(name string, v any) error {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		return err
	}
	if err := ex.tw.WriteHeader(&tar.Header{Name: ex.folder + "/" + name, Mode: 0o644, Size: int64(buf.Len()), ModTime: ex.now}); err != nil {
		return err
	}
	_, err := ex.tw.Write(buf.Bytes())
	return err
}

func (ex *exporter) copyFile(name, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if err := ex.tw.WriteHeader(&tar.Header{Name: ex.folder + "/" + name, Mode: 0o644, Size: info.Size(), ModTime: info.ModTime()}); err != nil {
		return err
	}
	_, err = io.CopyN(ex.tw, f, info.Size())
	return err
}

// stringID is a subdomain made of the organization's name; Zulip's import
// replaces it with the one given on its command line.
func stringID(name string) string {
	id := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name)
	id = strings.Trim(id, "-")
	if id == "" {
		id = "lanchat"
	}
	return id
}
