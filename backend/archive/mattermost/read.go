// Package mattermost reads Mattermost's bulk export, as `mmctl export
// create` writes it: a zip holding import.jsonl (one record per line:
// version, teams, channels, users, bots, posts with their replies,
// reactions and attachments, direct channels and posts, emoji) and a data/
// folder of attachments; or import.jsonl alone.
//
// The export is one Mattermost server, which may hold several teams; a
// Lanchat server is one organization. Every team is imported, its streams
// named "Team / channel" when there are several, rather than some teams
// left out: people moving a server expect all of its history to come, and
// streams are easier to rename or archive afterwards than history is to
// recover.
//
// Mattermost keeps a channel's posts in one line of time with threads
// hanging off some posts; Zulip keeps a stream's messages in topics. Posts
// that start no thread go to one topic per stream ("imported from
// mattermost", as Zulip's own converter names it); a thread (its root post
// and every reply) gets a topic of its own, named after how the root post
// starts, so a conversation stays together. Direct messages have no topics:
// a direct thread's replies follow in the conversation.
package mattermost

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"lanchat/backend/archive"
	"lanchat/backend/store"
)

// defaultTopic holds a stream's posts that start no thread.
const defaultTopic = "imported from mattermost"

// Zulip's limits, in characters.
const (
	maxTopic       = 60
	maxStreamName  = 60
	maxDescription = 1024
)

// importJSONL is the export's records, as mmctl names them.
const importJSONL = "import.jsonl"

// postCacheSize is how many decoded post lines the second pass keeps.
const postCacheSize = 16

// Read reads a Mattermost bulk export into sink: a first pass over
// import.jsonl checks every record and notes where each post is and when
// it was written (32 bytes a post or reply: 1,300,000 of them peak at 95
// MB resident); the second reads the posts again, one by one, in the
// order they were written. A zip's import.jsonl is copied to a temporary
// file (in a.Scratch) during the first pass, for the second to seek in.
func Read(a *archive.Archive, sink archive.Sink) error {
	name, err := findJSONL(a)
	if err != nil {
		return err
	}
	f, err := a.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var ra io.ReaderAt
	var ix *index
	if of, ok := f.(*os.File); ok {
		ra = of
		ix, err = scan(name, of)
	} else {
		tmp, terr := os.CreateTemp(a.Scratch, ".mattermost-*.jsonl")
		if terr != nil {
			return terr
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		ra = tmp
		ix, err = scan(name, io.TeeReader(f, tmp))
	}
	if err != nil {
		return err
	}
	r := &reader{a: a, sink: sink, ix: ix, ra: ra, cache: map[int64]*post{}}
	return r.run()
}

// Name is the organization's name in an export, for the host to see
// before importing it: the first team's, which the exporter writes before
// any post, so only the lines up to it are read ("" when no team comes
// before the posts).
func Name(a *archive.Archive) (string, error) {
	name, err := findJSONL(a)
	if err != nil {
		return "", err
	}
	f, err := a.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	ls := newLines(name, f)
	for {
		b, err := ls.next()
		if errors.Is(err, io.EOF) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		ln, err := decodeLine(b, ls.record(ls.num))
		switch {
		case err != nil:
			return "", err
		case ln.Team != nil:
			return cmp.Or(ln.Team.DisplayName, ln.Team.Name), nil
		case ln.Post != nil || ln.DirectPost != nil:
			return "", nil
		}
	}
}

// findJSONL is import.jsonl, or else the one .jsonl file at the top of
// the archive.
func findJSONL(a *archive.Archive) (string, error) {
	if _, err := fs.Stat(a, importJSONL); err == nil {
		return importJSONL, nil
	}
	entries, err := fs.ReadDir(a, ".")
	if err != nil {
		return "", err
	}
	var found []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", archive.Errorf(importJSONL, "is not in the archive: not a Mattermost bulk export")
	case 1:
		return found[0], nil
	}
	return "", archive.Errorf(importJSONL, "is not in the archive, and it holds several .jsonl files (%s)", strings.Join(found, ", "))
}

// reader is the second pass: it hands the sink every record in order.
type reader struct {
	a    *archive.Archive
	sink archive.Sink
	ix   *index
	ra   io.ReaderAt
	// streams is each channel's stream name and members, by "team/name".
	streams map[string]*streamInfo
	// urls are the stored attachments' URLs, by path.
	urls map[string]string
	// cache holds the last posts decoded, by line offset: a thread's
	// replies often follow each other.
	cache map[int64]*post
	order []int64
	buf   []byte
}

type streamInfo struct {
	name    string
	members []string
}

func (r *reader) run() error {
	ix := r.ix
	first := ix.teams[0]
	if err := r.sink.Realm(archive.Realm{Name: cmp.Or(first.DisplayName, first.Name), Description: first.Description}); err != nil {
		return err
	}
	for _, ul := range ix.users {
		if err := r.sink.User(r.user(ul)); err != nil {
			return err
		}
	}
	r.nameStreams()
	for _, c := range ix.channels {
		key := c.Team + "/" + c.Name
		s := archive.Stream{
			Ref:         key,
			Name:        r.streams[key].name,
			Description: truncate(cmp.Or(c.Purpose, c.Header), maxDescription),
			InviteOnly:  c.Type == "P",
			Archived:    c.DeletedAt > 0,
			// Every member of a Mattermost team is in its town square.
			Default:    c.Name == "town-square",
			MemberRefs: r.streams[key].members,
		}
		if err := r.sink.Stream(s); err != nil {
			return err
		}
	}
	for _, el := range ix.emoji {
		open, _, ok := r.locate(el.e.Image)
		if !ok {
			r.sink.Skip(r.record(el.num, "emoji")+" "+el.e.Name, "its image "+el.e.Image+" is not in the archive")
			continue
		}
		if err := r.sink.Emoji(archive.Emoji{Name: el.e.Name, Open: open}); err != nil {
			return err
		}
	}
	if err := r.files(); err != nil {
		return err
	}
	return r.messages()
}

func (r *reader) record(num int, kind string) string {
	return fmt.Sprintf("%s line %d (%s)", r.ix.file, num, kind)
}

// user converts a user or bot line.
func (r *reader) user(ul userLine) archive.User {
	u := ul.u
	out := archive.User{
		Ref:      u.Username,
		Email:    u.Email,
		FullName: givenName(u),
		Role:     role(u),
		Active:   u.DeleteAt == 0,
	}
	if ul.bot {
		// Bots have no email in Mattermost; theirs must only be unique.
		out.Email = u.Username + "-bot@mattermost.invalid"
		out.BotType = store.BotGeneric
		// A bot's owner may be a plugin, which is no user.
		if _, ok := r.ix.userSet[ul.owner]; ok {
			out.BotOwnerRef = ul.owner
		}
	}
	if u.ProfileImage != "" {
		if open, _, ok := r.locate(u.ProfileImage); ok {
			out.Avatar = open
		}
	}
	return out
}

// givenName is the name a user goes by in the export, as the sink gets it
// (which fixes what Lanchat refuses, saying so).
func givenName(u user) string {
	return cmp.Or(strings.TrimSpace(u.FirstName+" "+u.LastName), u.Nickname, u.Username)
}

// fullName is a user's name as Lanchat will keep it (archive.CleanName),
// so that mentions written with it find the account.
func fullName(u user) string {
	return archive.CleanName(givenName(u), u.Username)
}

// role maps Mattermost's roles to Zulip's: the server's administrators own
// the organization, a team's administrators administer it, and guests of
// the server or a team are guests.
func role(u user) int {
	has := func(roles, r string) bool { return slices.Contains(strings.Fields(roles), r) }
	teamRole := func(r string) bool {
		return slices.ContainsFunc(u.Teams, func(t membership) bool { return has(t.Roles, r) })
	}
	switch {
	case has(u.Roles, "system_admin"):
		return store.RoleOwner
	case teamRole("team_admin"):
		return store.RoleAdmin
	case has(u.Roles, "system_guest") || teamRole("team_guest"):
		return store.RoleGuest
	}
	return store.RoleMember
}

// nameStreams names every channel's stream (unique, ignoring case, within
// Zulip's length) and lists its members.
func (r *reader) nameStreams() {
	ix := r.ix
	r.streams = make(map[string]*streamInfo, len(ix.channels))
	taken := map[string]bool{}
	teamNames := map[string]string{}
	for _, t := range ix.teams {
		teamNames[t.Name] = cmp.Or(t.DisplayName, t.Name)
	}
	for _, c := range ix.channels {
		base := cmp.Or(oneLine(c.DisplayName), c.Name)
		if len(ix.teams) > 1 {
			base = teamNames[c.Team] + " / " + base
		}
		name := truncate(base, maxStreamName)
		for n := 2; taken[strings.ToLower(name)]; n++ {
			suffix := " (" + strconv.Itoa(n) + ")"
			name = truncate(base, maxStreamName-utf8.RuneCountInString(suffix)) + suffix
		}
		taken[strings.ToLower(name)] = true
		r.streams[c.Team+"/"+c.Name] = &streamInfo{name: name}
	}
	for _, ul := range ix.users {
		for _, t := range ul.u.Teams {
			for _, c := range t.Channels {
				if s := r.streams[t.Name+"/"+c.Name]; s != nil && !slices.Contains(s.members, ul.u.Username) {
					s.members = append(s.members, ul.u.Username)
				}
			}
		}
	}
}

// truncate cuts s to max characters, marking the cut with an ellipsis.
func truncate(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:max-1])) + "…"
}

// locate finds a file the export names, and its size: attachments are
// under data/, and emoji images beside import.jsonl or under data/ too.
func (r *reader) locate(name string) (archive.Opener, int64, bool) {
	for _, p := range []string{path.Join("data", name), name} {
		if st, err := fs.Stat(r.a, p); err == nil && st.Mode().IsRegular() {
			return func() (io.ReadCloser, error) { return r.a.Open(p) }, st.Size(), true
		}
	}
	return nil, 0, false
}

// files hands the sink every attachment before any message.
func (r *reader) files() error {
	r.urls = make(map[string]string, len(r.ix.files))
	for _, f := range r.ix.files {
		open, size, ok := r.locate(f.path)
		if !ok {
			r.sink.Skip(r.record(f.num, "attachment")+" "+f.path, "not in the archive (exported without attachments?)")
			continue
		}
		name := path.Base(f.path)
		url, err := r.sink.File(archive.File{
			Ref: f.path, OwnerRef: f.owner, Name: name,
			ContentType: mime.TypeByExtension(path.Ext(name)),
			Size:        size, Created: f.created / 1000, Open: open,
		})
		if err != nil {
			return err
		}
		r.urls[f.path] = url
	}
	return nil
}

// messages hands the sink every post and reply, oldest first.
func (r *reader) messages() error {
	return r.ix.posts.inOrder(func(e entry) error {
		root, err := r.load(e)
		if err != nil {
			return err
		}
		if m, ok := r.message(e, root); ok {
			return r.sink.Message(m)
		}
		return nil
	})
}

// load reads an entry's line again (the post whole, replies included).
func (r *reader) load(e entry) (*post, error) {
	if p, ok := r.cache[e.off]; ok {
		return p, nil
	}
	r.buf = slices.Grow(r.buf[:0], int(e.size))[:e.size]
	if _, err := r.ra.ReadAt(r.buf, e.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	record := r.record(int(e.num), "post")
	ln, err := decodeLine(r.buf, record)
	if err != nil {
		return nil, err
	}
	p := ln.Post
	if ln.DirectPost != nil {
		p = ln.DirectPost
		p.direct = true
	}
	if p == nil {
		return nil, archive.Errorf(record, "changed while it was read")
	}
	if len(r.order) == postCacheSize {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[e.off] = p
	r.order = append(r.order, e.off)
	return p, nil
}

// message converts one post or reply of root's line; false when there is
// nothing left of it to import (it is skipped, with the reason).
func (r *reader) message(e entry, root *post) (archive.Message, bool) {
	p, ref := root, strconv.Itoa(int(e.num))
	if e.reply >= 0 {
		p, ref = &root.Replies[e.reply], ref+"."+strconv.Itoa(int(e.reply)+1)
	}
	if strings.HasPrefix(p.Type, "system_") {
		// Lanchat would show it as written by its user.
		r.sink.Skip(r.record(int(e.num), "post")+" message "+ref, "a system message ("+p.Type+")")
		return archive.Message{}, false
	}
	m := archive.Message{Ref: ref, SenderRef: p.User, Timestamp: p.CreateAt / 1000}
	if p.EditAt > 0 {
		m.EditTimestamp = p.EditAt / 1000
	}
	if !root.direct {
		m.StreamRef = root.Team + "/" + root.Channel
		m.Topic = defaultTopic
		if len(root.Replies) > 0 {
			m.Topic = threadTopic(root)
		}
	} else {
		m.PrivateRefs = unique(append(slices.Clone(root.ChannelMembers), p.User))
	}
	m.Content = strings.TrimSpace(convert(p.Message, root.Team, r) + "\n\n" + richText(p.Props.Attachments, root.Team, r))
	for _, a := range p.Attachments {
		if url, ok := r.urls[a.Path]; ok {
			m.Content = strings.TrimSpace(m.Content + "\n" + fileLink(path.Base(a.Path), url))
		}
	}
	if m.Content == "" {
		r.sink.Skip(r.record(int(e.num), "post")+" message "+ref, "no text, and no attachment in the archive")
		return m, false
	}
	for _, re := range p.Reactions {
		kind := "unicode_emoji"
		if r.ix.emojiSet[re.EmojiName] {
			kind = "realm_emoji"
		}
		m.Reactions = append(m.Reactions, archive.Reaction{UserRef: re.User, EmojiName: re.EmojiName, ReactionType: kind})
	}
	if len(p.FlaggedBy) > 0 {
		// Mattermost keeps who saved a post, not who read it: the
		// message stays read for everyone.
		m.UserFlags = make(map[string][]string, len(p.FlaggedBy))
		for _, u := range p.FlaggedBy {
			m.UserFlags[u] = []string{"starred"}
		}
	}
	return m, true
}

// oneLine is s with its runs of spaces and control characters made one
// space: stream names and topics are one line.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
}

// threadTopic names a thread after how its root post starts.
func threadTopic(root *post) string {
	for _, ln := range strings.Split(root.Message, "\n") {
		if ln = oneLine(strings.TrimLeft(strings.TrimSpace(ln), "#>*-+` ")); ln != "" {
			return truncate(ln, maxTopic)
		}
	}
	if len(root.Attachments) > 0 {
		return truncate(path.Base(root.Attachments[0].Path), maxTopic)
	}
	return defaultTopic
}

// fileLink is a markdown link to an uploaded file.
func fileLink(name, url string) string {
	name = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(name)
	url = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29").Replace(url)
	return "[" + name + "](" + url + ")"
}

// unique is names without repeats, in order.
func unique(names []string) []string {
	out := make([]string, 0, len(names))
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

func (r *reader) fullName(username string) (string, bool) {
	i, ok := r.ix.userSet[username]
	if !ok {
		return "", false
	}
	return fullName(r.ix.users[i].u), true
}

// streamName is a ~channel's stream: the channel of that name in team, or
// for a direct message (no team) the one channel of that name there is.
func (r *reader) streamName(team, channel string) (string, bool) {
	if s, ok := r.streams[team+"/"+channel]; ok {
		return s.name, true
	}
	if team != "" {
		return "", false
	}
	var found *streamInfo
	for _, t := range r.ix.teams {
		if s, ok := r.streams[t.Name+"/"+channel]; ok {
			if found != nil {
				return "", false
			}
			found = s
		}
	}
	if found == nil {
		return "", false
	}
	return found.name, true
}
