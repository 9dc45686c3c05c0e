// Package slack reads a Slack workspace export: users.json, the
// conversations (channels.json, groups.json, mpims.json, dms.json) and one
// folder per conversation of daily message files (<folder>/YYYY-MM-DD.json).
// Messages are read day by day across every conversation, in time order, as
// Zulip's converter does, so message IDs grow with time; only one day is
// held in memory at a time.
package slack

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanchat/assets"
	"lanchat/backend/archive"
	"lanchat/backend/store"
)

// Zulip's converter's topics: unthreaded messages share one, each thread
// gets its own, named by its date and a count within that day.
const mainTopic = "imported from Slack"

// emailDomain makes addresses for users the export gives none (bots, and
// exports made without the email scope): reserved, so it reaches no one.
const emailDomain = "slack.invalid"

// Read hands a Slack export's records to sink.
func Read(a *archive.Archive, sink archive.Sink) error {
	r := &reader{a: a, sink: sink, n: names{users: map[string]string{}, channels: map[string]string{}},
		threads: map[string]string{}, threadsOnDay: map[string]int{}}
	if err := sink.Realm(archive.Realm{Name: WorkspaceName(a.Name)}); err != nil {
		return err
	}
	if err := r.users(); err != nil {
		return err
	}
	if err := r.conversations(); err != nil {
		return err
	}
	return r.messages()
}

// exportName is the name Slack gives a workspace's export file:
// "Acme Corp Slack export Jan 1 2020 - Mar 5 2021.zip".
var exportName = regexp.MustCompile(`^(.+?) Slack export\b`)

// WorkspaceName is the workspace's name in an export's file name, which is
// the only place an export holds it; "" when the file was renamed.
func WorkspaceName(file string) string {
	m := exportName.FindStringSubmatch(file)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// Name is the organization's name an export gives, for the host to see
// before importing it: the workspace's, from the file's name.
func Name(a *archive.Archive) (string, error) { return WorkspaceName(a.Name), nil }

type reader struct {
	a    *archive.Archive
	sink archive.Sink
	n    names
	// folders are the conversations with message folders, by folder name.
	folders      map[string]conversation
	threads      map[string]string // thread_ts → topic
	threadsOnDay map[string]int
}

// conversation is where a folder's messages go: a stream, or the
// participants of a direct conversation.
type conversation struct {
	streamRef   string
	privateRefs []string
}

// number is a JSON number Slack writes either bare or as a string.
type number int64

func (n *number) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", b)
	}
	*n = number(f)
	return nil
}

type slackUser struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	RealName string `json:"real_name"`
	Deleted  bool   `json:"deleted"`
	TZ       string `json:"tz"`
	Profile  struct {
		Email         string `json:"email"`
		RealName      string `json:"real_name"`
		IsCustomImage bool   `json:"is_custom_image"`
	} `json:"profile"`
	IsOwner         bool   `json:"is_owner"`
	IsPrimaryOwner  bool   `json:"is_primary_owner"`
	IsAdmin         bool   `json:"is_admin"`
	IsRestricted    bool   `json:"is_restricted"`
	IsUltraRestrict bool   `json:"is_ultra_restricted"`
	IsBot           bool   `json:"is_bot"`
	IsAppUser       bool   `json:"is_app_user"`
	Updated         number `json:"updated"`
}

// each decodes a JSON array file of the archive record by record, each at
// most archive.MaxRecord bytes; a file that is absent has no records.
func each[T any](a *archive.Archive, name string, fn func(i int, v T) error) error {
	f, err := a.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return archive.Errorf(name, "cannot be read: %v", err)
	}
	defer f.Close()
	dec := archive.NewDecoder(f, archive.MaxRecord)
	if tok, err := dec.Token(name); err != nil || tok != json.Delim('[') {
		var tooLarge *archive.Error
		if errors.As(err, &tooLarge) {
			return err
		}
		return archive.Errorf(name, "is not a JSON array")
	}
	for i := 0; dec.More(); i++ {
		var v T
		record := fmt.Sprintf("%s[%d]", name, i)
		var refused *archive.Error
		if err := dec.Decode(&v, record); errors.As(err, &refused) {
			return err
		} else if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return archive.Errorf(record, "is cut short")
		} else if err != nil {
			return archive.Errorf(record, "malformed: %v", err)
		}
		if err := fn(i, v); err != nil {
			return err
		}
	}
	if _, err := dec.Token(name); err != nil {
		var refused *archive.Error
		if errors.As(err, &refused) {
			return err
		}
		return archive.Errorf(name, "is cut short: %v", err)
	}
	return nil
}

func (r *reader) users() error {
	if _, err := fs.Stat(r.a, "users.json"); err != nil {
		return archive.Errorf("users.json", "is missing: not a Slack export")
	}
	pictures := 0
	err := each(r.a, "users.json", func(i int, u slackUser) error {
		if u.ID == "" {
			return archive.Errorf(fmt.Sprintf("users.json[%d]", i), "has no id")
		}
		given := cmp.Or(u.RealName, u.Profile.RealName, u.Name)
		// Mentions name the person as the sink will (it fixes what the
		// API's rule refuses, saying so).
		r.n.users[u.ID] = archive.CleanName(given, u.Name)
		user := archive.User{Ref: u.ID, Email: u.Profile.Email, FullName: given, Role: role(u), Active: !u.Deleted,
			Timezone: u.TZ, DateJoined: int64(u.Updated)}
		if u.IsBot || u.IsAppUser {
			user.BotType = store.BotGeneric
		}
		if user.Email == "" {
			user.Email = madeUpEmail(u)
		}
		if u.Profile.IsCustomImage {
			pictures++
		}
		return r.sink.User(user)
	})
	if pictures > 0 {
		// The export links uploaded pictures on Slack's servers only, which
		// a host on its own network may not reach: said once, not per person.
		record := fmt.Sprintf("the profile pictures of %d people", pictures)
		if pictures == 1 {
			record = "the profile picture of 1 person"
		}
		r.sink.Skip(record, "only linked on Slack's servers: the default avatar is shown instead")
	}
	return err
}

func role(u slackUser) int {
	switch {
	case u.IsOwner || u.IsPrimaryOwner:
		return store.RoleOwner
	case u.IsAdmin:
		return store.RoleAdmin
	case u.IsRestricted || u.IsUltraRestrict:
		return store.RoleGuest
	}
	return store.RoleMember
}

var notLocalPart = regexp.MustCompile(`[^a-z0-9_-]+`)

// madeUpEmail is an address for a user the export gives none, unique by
// the user's ID.
func madeUpEmail(u slackUser) string {
	local := strings.Trim(notLocalPart.ReplaceAllString(strings.ToLower(u.Name), "-"), "-")
	if u.IsBot || u.IsAppUser {
		local += "-bot"
	}
	return strings.TrimPrefix(local+"-"+strings.ToLower(u.ID), "-") + "@" + emailDomain
}

type slackChannel struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Created    number   `json:"created"`
	IsArchived bool     `json:"is_archived"`
	IsGeneral  bool     `json:"is_general"`
	Members    []string `json:"members"`
	Purpose    struct {
		Value string `json:"value"`
	} `json:"purpose"`
}

// conversations reads the streams (public and private channels) and the
// direct conversations' participants.
func (r *reader) conversations() error {
	r.folders = map[string]conversation{}
	for _, file := range []struct {
		name       string
		inviteOnly bool
	}{{"channels.json", false}, {"groups.json", true}} {
		err := each(r.a, file.name, func(i int, c slackChannel) error {
			record := fmt.Sprintf("%s[%d]", file.name, i)
			if c.ID == "" || c.Name == "" {
				return archive.Errorf(record, "has no id or name")
			}
			if _, dup := r.folders[c.Name]; dup {
				return archive.Errorf(record, "repeats the channel %q", c.Name)
			}
			r.n.channels[c.ID] = c.Name
			r.folders[c.Name] = conversation{streamRef: c.ID}
			return r.sink.Stream(archive.Stream{Ref: c.ID, Name: c.Name, Description: c.Purpose.Value, InviteOnly: file.inviteOnly,
				DateCreated: int64(c.Created), Archived: c.IsArchived, Default: c.IsGeneral, MemberRefs: slices.Compact(slices.Sorted(slices.Values(c.Members)))})
		})
		if err != nil {
			return err
		}
	}
	// Group DMs live in folders named after them, DMs in folders named
	// by their ID.
	for _, file := range []struct{ name string }{{"mpims.json"}, {"dms.json"}} {
		err := each(r.a, file.name, func(i int, c slackChannel) error {
			folder := c.Name
			if file.name == "dms.json" {
				folder = c.ID
			}
			if folder == "" || len(c.Members) == 0 {
				return archive.Errorf(fmt.Sprintf("%s[%d]", file.name, i), "has no name or members")
			}
			r.folders[folder] = conversation{privateRefs: slices.Compact(slices.Sorted(slices.Values(c.Members)))}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type slackMessage struct {
	Type     string `json:"type"`
	Subtype  string `json:"subtype"`
	User     string `json:"user"`
	Text     string `json:"text"`
	TS       string `json:"ts"`
	ThreadTS string `json:"thread_ts"`
	Mimetype string `json:"mimetype"`
	Edited   *struct {
		TS string `json:"ts"`
	} `json:"edited"`
	Reactions []struct {
		Name  string   `json:"name"`
		Users []string `json:"users"`
	} `json:"reactions"`
	Files []slackFile `json:"files"`
	File  *slackFile  `json:"file"`
	// Comment names the author of a file_comment.
	Comment *struct {
		User string `json:"user"`
	} `json:"comment"`
}

type slackFile struct {
	ID         string `json:"id"`
	User       string `json:"user"`
	Name       string `json:"name"`
	Title      string `json:"title"`
	Permalink  string `json:"permalink"`
	URLPrivate string `json:"url_private"`
}

// Subtypes that are not conversation: joins, leaves, renames and pins.
var noticeSubtypes = map[string]bool{"pinned_item": true, "unpinned_item": true, "channel_join": true,
	"channel_leave": true, "channel_name": true, "group_join": true, "group_leave": true}

// Subtypes whose text is an action, shown as /me.
var actionSubtypes = map[string]bool{"me_message": true, "bot_add": true, "sh_room_created": true}

// dayMessage is one message of a day, with where it was read from.
type dayMessage struct {
	slackMessage
	record string
	conv   conversation
	sec    int64
	frac   int64
}

// maxDay bounds one day's message files, across conversations, by the
// sizes the archive claims: a day's messages are held together to be
// sorted by time. A busy workspace's day is a few megabytes.
const maxDay = 128 << 20

// messages reads every conversation's messages day by day, each day's
// sorted by time.
func (r *reader) messages() error {
	days := map[string][]string{} // YYYY-MM-DD.json → folders
	daySize := map[string]int64{}
	for folder := range r.folders {
		entries, err := fs.ReadDir(r.a, folder)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return archive.Errorf(folder, "cannot be read: %v", err)
		}
		for _, e := range entries {
			if day := e.Name(); !e.IsDir() && isDayFile(day) {
				days[day] = append(days[day], folder)
				if info, err := e.Info(); err == nil {
					daySize[day] += info.Size()
				}
			}
		}
	}
	for _, day := range slices.Sorted(func(yield func(string) bool) {
		for d := range days {
			if !yield(d) {
				return
			}
		}
	}) {
		if daySize[day] > maxDay {
			return archive.Errorf(day, "the day's message files claim %d bytes together, more than the %d MiB one day may have", daySize[day], maxDay>>20)
		}
		var batch []dayMessage
		folders := days[day]
		slices.Sort(folders)
		for _, folder := range folders {
			name := path.Join(folder, day)
			err := each(r.a, name, func(i int, m slackMessage) error {
				record := fmt.Sprintf("%s[%d]", name, i)
				sec, frac, err := parseTS(m.TS)
				if err != nil {
					return archive.Errorf(record, "ts %q: %v", m.TS, err)
				}
				batch = append(batch, dayMessage{slackMessage: m, record: record, conv: r.folders[folder], sec: sec, frac: frac})
				return nil
			})
			if err != nil {
				return err
			}
		}
		slices.SortStableFunc(batch, func(a, b dayMessage) int {
			if a.sec != b.sec {
				return int(a.sec - b.sec)
			}
			return int(a.frac - b.frac)
		})
		for _, m := range batch {
			if err := r.message(m); err != nil {
				return err
			}
		}
	}
	return nil
}

func isDayFile(name string) bool {
	day, ok := strings.CutSuffix(name, ".json")
	if !ok {
		return false
	}
	_, err := time.Parse(time.DateOnly, day)
	return err == nil
}

// parseTS splits Slack's "seconds.micros" timestamp.
func parseTS(ts string) (sec, frac int64, err error) {
	s, f, _ := strings.Cut(ts, ".")
	if sec, err = strconv.ParseInt(s, 10, 64); err != nil || sec < 0 {
		return 0, 0, errors.New("not a timestamp")
	}
	if f != "" {
		if frac, err = strconv.ParseInt(f, 10, 64); err != nil || frac < 0 {
			return 0, 0, errors.New("not a timestamp")
		}
	}
	return sec, frac, nil
}

// message converts one Slack message, or skips it with a reason.
func (r *reader) message(m dayMessage) error {
	sender := m.User
	if m.Subtype == "file_comment" && m.Comment != nil {
		sender = m.Comment.User
	}
	if sender == "" && m.File != nil {
		sender = m.File.User
	}
	switch {
	case m.Type != "" && m.Type != "message":
		r.sink.Skip(m.record, "not a message")
		return nil
	case noticeSubtypes[m.Subtype]:
		return nil // join and leave notices, as Zulip's converter drops them
	case sender == "" || sender == "U00":
		r.sink.Skip(m.record, "no user sent it (an integration's message)")
		return nil
	case m.Mimetype == "application/vnd.slack-docs":
		r.sink.Skip(m.record, "a Slack post (formatted document), which does not import")
		return nil
	}
	content := convert(m.Text, r.n)
	if actionSubtypes[m.Subtype] {
		content = "/me " + content
	}
	for _, f := range m.files() {
		content += r.fileLink(m.record, content, f)
	}
	out := archive.Message{Ref: m.record, SenderRef: sender, Content: content, Timestamp: m.sec,
		PrivateRefs: m.conv.privateRefs}
	if m.conv.streamRef != "" {
		out.StreamRef, out.Topic = m.conv.streamRef, r.topic(m.ThreadTS)
	}
	if m.Edited != nil {
		if sec, _, err := parseTS(m.Edited.TS); err == nil {
			out.EditTimestamp = sec
		}
	}
	out.Reactions = r.reactions(m)
	return r.sink.Message(out)
}

// files are a message's files, in the old form (one "file") or the new
// ("files").
func (m dayMessage) files() []slackFile {
	if m.File != nil {
		return append([]slackFile{*m.File}, m.Files...)
	}
	return m.Files
}

// fileLink keeps a file the export only links to as a link in the
// message (unless its content already has it), noting it as skipped:
// Slack's exports hold URLs, not files.
func (r *reader) fileLink(record, content string, f slackFile) string {
	link := f.Permalink
	if link == "" {
		// The private URL's query carries an access token: leave it out.
		link, _, _ = strings.Cut(f.URLPrivate, "?")
	}
	r.sink.Skip(fmt.Sprintf("file %s (%s) of %s", f.ID, f.Name, record), "not in the export: kept as a link to Slack")
	if link == "" || strings.Contains(content, link) {
		return ""
	}
	title := cmp.Or(f.Title, f.Name)
	return "\n[" + strings.ReplaceAll(title, "]", `\]`) + "](" + parens.Replace(link) + ")"
}

// topic is the topic of a stream message: the thread's, or the main one.
func (r *reader) topic(threadTS string) string {
	sec, _, err := parseTS(threadTS)
	if threadTS == "" || err != nil {
		return mainTopic
	}
	if t, ok := r.threads[threadTS]; ok {
		return t
	}
	day := time.Unix(sec, 0).UTC().Format(time.DateOnly)
	r.threadsOnDay[day]++
	t := fmt.Sprintf("%s Slack thread %d", day, r.threadsOnDay[day])
	r.threads[threadTS] = t
	return t
}

// emojiAliases are Slack's names that Lanchat's table does not know.
var emojiAliases = map[string]string{"simple_smile": "slightly_smiling_face", "thumbsup_all": "+1"}

// reactions converts a message's reactions: skin tones are dropped (one
// person's :clap::skin-tone-2: and :clap: are one reaction) and names
// become Lanchat's; emoji Lanchat does not know are skipped.
func (r *reader) reactions(m dayMessage) []archive.Reaction {
	var out []archive.Reaction
	for _, re := range m.Reactions {
		name, _, _ := strings.Cut(re.Name, "::")
		if alias, ok := emojiAliases[name]; ok {
			name = alias
		}
		e, ok := assets.EmojiByName(name)
		if !ok {
			r.sink.Skip(fmt.Sprintf("reaction :%s: on %s", re.Name, m.record), "not an emoji Lanchat knows")
			continue
		}
		for _, u := range re.Users {
			dup := slices.ContainsFunc(out, func(x archive.Reaction) bool { return x.UserRef == u && x.EmojiCode == e.Code })
			if !dup {
				out = append(out, archive.Reaction{UserRef: u, EmojiName: e.Name, EmojiCode: e.Code, ReactionType: "unicode_emoji"})
			}
		}
	}
	return out
}
