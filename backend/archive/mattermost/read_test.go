package mattermost

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/store"
)

// read reads an export folder of testdata (or any folder) with a recorder.
func read(t *testing.T, a *archive.Archive) *archivetest.Recorder {
	t.Helper()
	defer a.Close()
	rec := &archivetest.Recorder{}
	if err := Read(a, rec); err != nil {
		t.Fatalf("Read: %v", err)
	}
	return rec
}

func openDir(t *testing.T, dir string) *archive.Archive {
	t.Helper()
	a, err := archive.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// zipDir packs a folder into a zip as mmctl would, and opens it.
func zipDir(t *testing.T, dir string) *archive.Archive {
	t.Helper()
	a, err := archive.OpenZip(archivetest.ZipDir(t, dir), archive.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func userByRef(rec *archivetest.Recorder, ref string) archive.User {
	for _, u := range rec.Users {
		if u.Ref == ref {
			return u
		}
	}
	return archive.User{}
}

func streamByRef(rec *archivetest.Recorder, ref string) archive.Stream {
	for _, s := range rec.Streams {
		if s.Ref == ref {
			return s
		}
	}
	return archive.Stream{}
}

func messageByContent(t *testing.T, rec *archivetest.Recorder, prefix string) archive.Message {
	t.Helper()
	for _, m := range rec.Messages {
		if strings.HasPrefix(m.Content, prefix) {
			return m
		}
	}
	t.Fatalf("no message starts with %q", prefix)
	return archive.Message{}
}

// inTimeOrder checks the sink's promise: messages come oldest first.
func inTimeOrder(t *testing.T, msgs []archive.Message) {
	t.Helper()
	if !slices.IsSortedFunc(msgs, func(a, b archive.Message) int { return int(a.Timestamp - b.Timestamp) }) {
		t.Errorf("messages are not in time order")
	}
}

func TestReadZulipFixture(t *testing.T) {
	rec := read(t, openDir(t, "testdata/export"))

	if rec.RealmRecord.Name != "Iago Realm" {
		t.Errorf("realm %q, want the first team's display name", rec.RealmRecord.Name)
	}
	roles := map[string]int{"harry": store.RoleOwner, "ron": store.RoleMember, "malfoy": store.RoleAdmin, "snape": store.RoleMember}
	for ref, want := range roles {
		if got := userByRef(rec, ref); got.Role != want || !got.Active || got.BotType != 0 {
			t.Errorf("user %s: %+v, want role %d, active, no bot", ref, got, want)
		}
	}
	if got := userByRef(rec, "harry"); got.FullName != "Harry Potter" || got.Email != "harry@zulip.com" {
		t.Errorf("harry: %+v", got)
	}
	if got := userByRef(rec, "malfoy").FullName; got != "malfoy" {
		t.Errorf("a user without names is named %q, want the username", got)
	}

	// Two teams: every channel comes, named after its team.
	if len(rec.Streams) != 5 {
		t.Fatalf("%d streams, want 5", len(rec.Streams))
	}
	army := streamByRef(rec, "gryffindor/dumbledores-army")
	if army.Name != "Iago Realm / Dumbledores army" || !army.InviteOnly || army.Description != "A place for talking about Dumbledores army" {
		t.Errorf("private channel: %+v", army)
	}
	if q := streamByRef(rec, "gryffindor/gryffindor-quidditch-team"); !slices.Equal(q.MemberRefs, []string{"ron", "harry"}) || q.InviteOnly {
		t.Errorf("quidditch team: %+v", q)
	}
	if s := streamByRef(rec, "slytherin/slytherin-common-room"); !slices.Equal(s.MemberRefs, []string{"malfoy", "pansy", "snape"}) {
		t.Errorf("slytherin common room members %v", s.MemberRefs)
	}

	if len(rec.Emojis) != 2 || len(rec.Skipped) != 0 {
		t.Fatalf("emoji %+v, skipped %v", rec.Emojis, rec.Skipped)
	}

	// 20 posts and one reply, oldest first across channels.
	if len(rec.Messages) != 21 {
		t.Fatalf("%d messages, want 21", len(rec.Messages))
	}
	inTimeOrder(t, rec.Messages)
	if first := rec.Messages[0]; first.Content != "harry joined the team." || first.Timestamp != 1553165141 {
		t.Errorf("first message %+v", first)
	}

	// The thread's reply was written before its root (so the export
	// says), and both are in the thread's topic.
	reply := messageByContent(t, rec, "The weather is so hot!")
	root := messageByContent(t, rec, "harry joined the channel.")
	for _, m := range rec.Messages {
		if m.Content == "harry joined the channel." && m.StreamRef == "gryffindor/dumbledores-army" {
			root = m
		}
	}
	if reply.Topic != "harry joined the channel." || root.Topic != reply.Topic || reply.StreamRef != root.StreamRef || reply.SenderRef != "ron" {
		t.Errorf("thread: root %+v, reply %+v", root, reply)
	}
	if m := messageByContent(t, rec, "Hey folks"); m.Topic != defaultTopic {
		t.Errorf("a post outside threads is in topic %q", m.Topic)
	}

	if m := messageByContent(t, rec, "@**Ron Weasley**"); m.Content != "@**Ron Weasley** Welcome mate!" {
		t.Errorf("mention: %q", m.Content)
	}

	hello := messageByContent(t, rec, "Hello world")
	want := []archive.Reaction{
		{UserRef: "harry", EmojiName: "tick", ReactionType: "realm_emoji"},
		{UserRef: "ron", EmojiName: "smile", ReactionType: "unicode_emoji"},
		{UserRef: "ron", EmojiName: "world_map", ReactionType: "unicode_emoji"},
	}
	if !slices.Equal(hello.Reactions, want) || hello.UserFlags != nil {
		t.Errorf("reactions %+v, flags %v", hello.Reactions, hello.UserFlags)
	}
}

func TestReadGuests(t *testing.T) {
	// The bare import.jsonl, without its emoji images beside it.
	a, err := archive.OpenFile("testdata/guest/import.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rec := read(t, a)
	if got := userByRef(rec, "sirius").Role; got != store.RoleGuest {
		t.Errorf("guest sirius has role %d", got)
	}
	if len(rec.Emojis) != 0 || len(rec.Skipped) != 2 || !strings.Contains(rec.Skipped[0], "is not in the archive") {
		t.Errorf("emoji without images: emoji %v, skipped %v", rec.Emojis, rec.Skipped)
	}
	// Their reactions still name them, as realm emoji the sink may lack.
	if m := messageByContent(t, rec, ":rofl:4"); len(m.Reactions) != 1 || m.Reactions[0].EmojiName != "peerdium" {
		t.Errorf("reactions %+v", m.Reactions)
	}
}

func TestReadDirectMessagesAndAttachmentsFromZip(t *testing.T) {
	rec := read(t, zipDir(t, "testdata/direct_channel"))
	if rec.RealmRecord.Name != "Gryffindor" {
		t.Errorf("realm %q", rec.RealmRecord.Name)
	}
	// One team: the streams keep their own names.
	if s := streamByRef(rec, "gryffindor/gryffindor-common-room"); s.Name != "Gryffindor common room" {
		t.Errorf("stream name %q", s.Name)
	}
	if v := userByRef(rec, "voldemort"); v.Role != store.RoleOwner {
		t.Errorf("voldemort, a system admin in no team: %+v", v)
	}

	if len(rec.Files) != 2 {
		t.Fatalf("files %+v", rec.Files)
	}
	photo := rec.Files[1]
	if photo.Name != "harry-ron.jpg" || photo.OwnerRef != "ron" || photo.ContentType != "image/jpeg" || photo.Size != 149467 ||
		len(rec.FileContent[photo.Ref]) != 149467 || photo.Created != 1566376137 {
		t.Errorf("photo %+v (%d bytes read)", photo, len(rec.FileContent[photo.Ref]))
	}
	if string(rec.FileContent[rec.Files[0].Ref]) != "this is a file" {
		t.Errorf("file content %q", rec.FileContent[rec.Files[0].Ref])
	}

	inTimeOrder(t, rec.Messages)
	empty := messageByContent(t, rec, "Looks like this channel is empty")
	if want := "Looks like this channel is empty\n[this is a file](/user_uploads/test/" + strings.ReplaceAll(rec.Files[0].Ref, " ", "%20") + "/this%20is%20a%20file)"; empty.Content != want {
		t.Errorf("attachment link:\n%s\nwant\n%s", empty.Content, want)
	}
	dm := messageByContent(t, rec, "hey harry")
	if !slices.Equal(dm.PrivateRefs, []string{"ron", "harry"}) || dm.StreamRef != "" || !strings.Contains(dm.Content, "\n[harry-ron.jpg](/user_uploads/test/") {
		t.Errorf("direct message %+v", dm)
	}
	if g := messageByContent(t, rec, "Who is going to Hogsmeade"); !slices.Equal(g.PrivateRefs, []string{"ron", "harry", "ginny"}) || g.SenderRef != "ginny" {
		t.Errorf("group message %+v", g)
	}
	if v := messageByContent(t, rec, "Hey Harry."); !slices.Equal(v.PrivateRefs, []string{"harry", "voldemort"}) {
		t.Errorf("voldemort's message %+v", v)
	}
	if len(rec.Messages) != 11 {
		t.Errorf("%d messages, want 11", len(rec.Messages))
	}
}

// scratchLister is a recorder that lists the archive's scratch folder
// when the first message comes.
type scratchLister struct {
	archivetest.Recorder
	scratch string
	seen    []string
}

func (s *scratchLister) Message(m archive.Message) error {
	if s.seen == nil {
		entries, _ := os.ReadDir(s.scratch)
		for _, e := range entries {
			s.seen = append(s.seen, e.Name())
		}
	}
	return s.Recorder.Message(m)
}

func TestReadCopiesAZipsJSONLIntoScratch(t *testing.T) {
	a := zipDir(t, "testdata/export")
	defer a.Close()
	a.Scratch = t.TempDir()
	rec := &scratchLister{scratch: a.Scratch}
	if err := Read(a, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.seen) != 1 || !strings.HasPrefix(rec.seen[0], ".mattermost-") {
		t.Errorf("scratch folder during the read: %v", rec.seen)
	}
	if left, _ := os.ReadDir(a.Scratch); len(left) != 0 {
		t.Errorf("left in the scratch folder: %v", left)
	}
}

// export writes lines as an import.jsonl of its own folder.
func export(t *testing.T, lines ...string) *archive.Archive {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, importJSONL), []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	return openDir(t, dir)
}

const (
	version = `{"type":"version","version":1}`
	aTeam   = `{"type":"team","team":{"name":"t","display_name":"Team","type":"O"}}`
	town    = `{"type":"channel","channel":{"team":"t","name":"town-square","display_name":"Town Square","type":"O"}}`
	dev     = `{"type":"channel","channel":{"team":"t","name":"dev","display_name":"Dev","type":"P","deleted_at":1600000000000}}`
	alice   = `{"type":"user","user":{"username":"alice","email":"alice@example.com","first_name":"Alice","last_name":"Liddell","roles":"system_user","teams":[{"name":"t","roles":"team_user","channels":[{"name":"town-square"},{"name":"dev"}]}]}}`
	bob     = `{"type":"user","user":{"username":"bob.b","email":"bob@example.com","nickname":"Bobby","roles":"system_user","delete_at":1600000000000,"teams":[{"name":"t","roles":"team_admin","channels":[{"name":"town-square"}]}]}}`
	robot   = `{"type":"bot","bot":{"username":"robot","owner":"alice","display_name":"Robot"}}`
)

func TestReadOrderThreadsFlagsAndKinds(t *testing.T) {
	rec := read(t, export(t, version, aTeam, town, dev, alice, bob, robot,
		// Posts out of order across channels; a thread whose replies
		// interleave with other posts.
		`{"type":"post","post":{"team":"t","channel":"dev","user":"bob.b","message":"later in dev","create_at":1700000005000}}`,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"## Release plan for the next version, which is long enough to be cut\nmore","create_at":1700000001000,"edit_at":1700000009000,"flagged_by":["bob.b","bob.b"],"reactions":[{"user":"bob.b","emoji_name":"+1"},{"user":"bob.b","emoji_name":"+1"}],"replies":[{"user":"bob.b","message":"second reply","create_at":1700000007000},{"user":"robot","message":"first reply","create_at":1700000003000}]}}`,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"robot","message":"hi ~dev and @alice.","create_at":1700000002000}}`,
		`{"type":"direct_post","direct_post":{"channel_members":["alice","alice"],"user":"alice","message":"a note to self","create_at":1700000004000,"replies":[{"user":"alice","message":"and another","create_at":1700000006000}]}}`,
	))
	if got := userByRef(rec, "bob.b"); got.Active || got.FullName != "Bobby" || got.Role != store.RoleAdmin {
		t.Errorf("deactivated team admin: %+v", got)
	}
	if got := userByRef(rec, "robot"); got.BotType != store.BotGeneric || got.BotOwnerRef != "alice" || got.FullName != "Robot" || got.Email != "robot-bot@mattermost.invalid" {
		t.Errorf("bot: %+v", got)
	}
	if s := streamByRef(rec, "t/dev"); !s.Archived || !s.InviteOnly || s.Default || !slices.Equal(s.MemberRefs, []string{"alice"}) {
		t.Errorf("archived private channel: %+v", s)
	}
	if s := streamByRef(rec, "t/town-square"); !s.Default || s.Archived || !slices.Equal(s.MemberRefs, []string{"alice", "bob.b"}) {
		t.Errorf("town square: %+v", s)
	}

	var order []string
	for _, m := range rec.Messages {
		order = append(order, m.Ref)
	}
	if want := []string{"9", "10", "9.2", "11", "8", "11.1", "9.1"}; !slices.Equal(order, want) {
		t.Errorf("messages in order %v, want %v", order, want)
	}
	topic := "Release plan for the next version, which is long enough to…"
	for _, ref := range []string{"9", "9.1", "9.2"} {
		m := rec.Messages[slices.Index(order, ref)]
		if m.Topic != topic || m.StreamRef != "t/town-square" {
			t.Errorf("thread message %s in %s > %q, want topic %q", ref, m.StreamRef, m.Topic, topic)
		}
	}
	root := rec.Messages[0]
	if root.EditTimestamp != 1700000009 || root.Timestamp != 1700000001 {
		t.Errorf("root's times %d, %d", root.Timestamp, root.EditTimestamp)
	}
	if want := map[string][]string{"bob.b": {"starred"}}; !maps.EqualFunc(root.UserFlags, want, slices.Equal) {
		t.Errorf("flags %v, want %v", root.UserFlags, want)
	}
	// The same reaction twice is the importer's to drop.
	if len(root.Reactions) != 2 || root.Reactions[0] != (archive.Reaction{UserRef: "bob.b", EmojiName: "+1", ReactionType: "unicode_emoji"}) {
		t.Errorf("reactions %+v", root.Reactions)
	}
	if hi := rec.Messages[1]; hi.Content != "hi #**Dev** and @**Alice Liddell**." || hi.Topic != defaultTopic {
		t.Errorf("post %+v", hi)
	}
	for _, ref := range []string{"11", "11.1"} {
		m := rec.Messages[slices.Index(order, ref)]
		if !slices.Equal(m.PrivateRefs, []string{"alice"}) || m.Topic != "" {
			t.Errorf("message to self %+v", m)
		}
	}
}

func TestReadNamesStreams(t *testing.T) {
	long := strings.Repeat("long name ", 7)
	channel := func(name, display string) string {
		return `{"type":"channel","channel":{"team":"t","name":"` + name + `","display_name":"` + display + `","type":"O"}}`
	}
	rec := read(t, export(t, version, aTeam,
		channel("a", "Dev"), channel("b", "dev"), channel("c", "Bad\\tname\\u0001 "), channel("d", long), channel("e", long), channel("f", "")))
	var names []string
	for _, s := range rec.Streams {
		names = append(names, s.Name)
	}
	want := []string{"Dev", "dev (2)", "Bad name", strings.TrimSpace(long[:59]) + "…", strings.TrimSpace(long[:55]) + "… (2)", "f"}
	if !slices.Equal(names, want) {
		t.Errorf("stream names\n%q\nwant\n%q", names, want)
	}
}

func TestReadSkipsAByteOrderMarkAndBlankLines(t *testing.T) {
	rec := read(t, export(t, "\ufeff"+version, "", aTeam, "  ", town, alice))
	if rec.RealmRecord.Name != "Team" || len(rec.Streams) != 1 || len(rec.Users) != 1 {
		t.Errorf("read %+v", rec)
	}
}

// A name goes to the sink as given (the importer fixes it by the API's
// rule, saying so); mentions name the person as the importer will.
func TestReadCleansNamesInMentions(t *testing.T) {
	rec := read(t, export(t, version, aTeam, town,
		`{"type":"user","user":{"username":"ada","email":"ada@example.com","first_name":"*Ada*","last_name":"\"L\" @home","teams":[{"name":"t","channels":[{"name":"town-square"}]}]}}`,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"ada","message":"I am @ada","create_at":1700000001000}}`,
	))
	if got := rec.Users[0].FullName; got != `*Ada* "L" @home` {
		t.Errorf("full name %q", got)
	}
	if got := rec.Messages[0].Content; got != "I am @**Ada L home**" {
		t.Errorf("mention %q", got)
	}
}

func TestReadSkips(t *testing.T) {
	rec := read(t, export(t, version, aTeam, town, alice,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"","create_at":1700000001000,"attachments":[{"path":"gone.png"}]}}`,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","type":"system_join_channel","message":"alice joined the channel.","create_at":1700000002000}}`,
		// A bot's post whose only text is in its props is kept.
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"","props":{"attachments":[{"fallback":"Build 42 failed"}]},"create_at":1700000003000}}`,
	))
	want := []string{
		"import.jsonl line 5 (attachment) gone.png: not in the archive (exported without attachments?)",
		"import.jsonl line 5 (post) message 5: no text, and no attachment in the archive",
		"import.jsonl line 6 (post) message 6: a system message (system_join_channel)",
	}
	if len(rec.Messages) != 1 || rec.Messages[0].Content != "Build 42 failed" || !slices.Equal(rec.Skipped, want) {
		t.Errorf("messages %+v, skipped %q", rec.Messages, rec.Skipped)
	}
}

func TestReadRefusesMalformed(t *testing.T) {
	post := func(user string) string {
		return `{"type":"post","post":{"team":"t","channel":"town-square","user":"` + user + `","message":"hi","create_at":1700000001000}}`
	}
	cases := []struct {
		name   string
		lines  []string
		record string // the record the error names
		reason string
	}{
		{"truncated line", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","chan`}, "import.jsonl line 5", "cut short"},
		{"malformed JSON", []string{version, aTeam, `{"type":"channel",channel:{}}`}, "import.jsonl line 3", "not valid JSON"},
		{"wrong type", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","create_at":"yesterday"}}`}, "import.jsonl line 5", "post.create_at"},
		{"two values", []string{version, aTeam + aTeam}, "import.jsonl line 2", "more than one"},
		{"unknown user in a post", []string{version, aTeam, town, alice, post("mallory")}, "import.jsonl line 5 (post)", `its author "mallory"`},
		{"unknown user in a reply", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"hi","create_at":1,"replies":[{"user":"eve","message":"x","create_at":2}]}}`}, "import.jsonl line 5 (post) reply 1", `"eve"`},
		{"unknown reacting user", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"hi","create_at":1,"reactions":[{"user":"eve","emoji_name":"smile"}]}}`}, "import.jsonl line 5 (post)", `"eve"`},
		{"unknown direct member", []string{version, aTeam, alice, `{"type":"direct_post","direct_post":{"channel_members":["alice","eve"],"user":"alice","message":"hi","create_at":1}}`}, "import.jsonl line 4 (direct_post)", `"eve"`},
		{"unknown channel", []string{version, aTeam, alice, post("alice")}, "import.jsonl line 4 (post)", `channel "town-square"`},
		{"duplicate username", []string{version, aTeam, alice, strings.Replace(alice, "alice@", "alice2@", 1)}, "import.jsonl line 4 (user)", `username "alice" of line 3`},
		{"duplicate email", []string{version, aTeam, alice, strings.Replace(alice, `"username":"alice"`, `"username":"alice2"`, 1)}, "import.jsonl line 4 (user)", "email"},
		{"no version", []string{aTeam}, "import.jsonl line 1 (team)", "version"},
		{"other version", []string{`{"type":"version","version":2}`}, "import.jsonl line 1 (version)", "version 1"},
		{"empty", []string{""}, "import.jsonl", "empty"},
		{"no team", []string{version}, "import.jsonl", "no team"},
		{"no time", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"hi"}}`}, "import.jsonl line 5 (post)", "create_at"},
		{"escaping attachment", []string{version, aTeam, town, alice, `{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"hi","create_at":1,"attachments":[{"path":"../../etc/passwd"}]}}`}, "import.jsonl line 5 (post)", "leaves the archive"},
		{"channel of no team", []string{version, aTeam, `{"type":"channel","channel":{"team":"x","name":"c","type":"O"}}`}, "import.jsonl line 3 (channel)", `team "x"`},
		{"channel type", []string{version, aTeam, `{"type":"channel","channel":{"team":"t","name":"c","type":"D"}}`}, "import.jsonl line 3 (channel)", "type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := export(t, c.lines...)
			defer a.Close()
			rec := &archivetest.Recorder{}
			err := Read(a, rec)
			var ae *archive.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error %v, want an archive.Error", err)
			}
			if ae.Record != c.record || !strings.Contains(ae.Reason, c.reason) {
				t.Errorf("error %q: %q, want %q: …%s…", ae.Record, ae.Reason, c.record, c.reason)
			}
			if len(rec.Users)+len(rec.Messages) != 0 {
				t.Errorf("the sink was given records before the error")
			}
		})
	}
}

func TestReadFindsTheJSONL(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/export/import.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "export-2024.jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if rec := read(t, openDir(t, dir)); len(rec.Messages) != 21 {
		t.Errorf("%d messages", len(rec.Messages))
	}
	bare, err := archive.OpenFile(filepath.Join(dir, "export-2024.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if rec := read(t, bare); len(rec.Messages) != 21 {
		t.Errorf("%d messages from the bare file", len(rec.Messages))
	}
	if err := os.WriteFile(filepath.Join(dir, "other.jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	var ae *archive.Error
	if err := Read(openDir(t, dir), &archivetest.Recorder{}); !errors.As(err, &ae) || !strings.Contains(ae.Reason, "several") {
		t.Errorf("two .jsonl files: %v", err)
	}
	if err := Read(openDir(t, t.TempDir()), &archivetest.Recorder{}); !errors.As(err, &ae) || ae.Record != importJSONL {
		t.Errorf("no .jsonl: %v", err)
	}
}

// FuzzRead feeds the reader any import.jsonl: it returns nil or an error,
// never panics, and what it hands the sink passes the recorder's checks.
func FuzzRead(f *testing.F) {
	for _, dir := range []string{"testdata/export", "testdata/direct_channel"} {
		b, err := os.ReadFile(filepath.Join(dir, importJSONL))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(strings.Join([]string{version, aTeam, town, dev, alice, bob, robot,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"alice","message":"_a_ @bob.b ~dev","create_at":5,"replies":[{"user":"robot","message":"r","create_at":3}]}}`}, "\n")))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, importJSONL), b, 0o600); err != nil {
			t.Fatal(err)
		}
		a, err := archive.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		rec := &archivetest.Recorder{}
		err = Read(a, rec)
		var ae *archive.Error
		if err != nil && !errors.As(err, &ae) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, io.ErrUnexpectedEOF) && !strings.HasPrefix(err.Error(), "archivetest:") {
			t.Fatalf("error of an unexpected kind: %v", err)
		}
		if err == nil {
			inTimeOrder(t, rec.Messages)
		}
	})
}
