package teamimport_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/archive"
	"lanchat/backend/teamimport"
)

// team is the tiny format of these tests: one team.json holding every
// record in Sink order, with files and emoji images beside it.
type team struct {
	Realm      archive.Realm
	Users      []archive.User
	Streams    []archive.Stream
	Groups     []archive.UserGroup
	Linkifiers []archive.Linkifier
	Emoji      []struct {
		Name, Owner, Path string
	}
	Files []struct {
		archive.File
		Path string
	}
	Messages []archive.Message
}

// readTeam is the tiny format's reader: it hands team.json's records to
// the sink, rewriting {file:REF} in messages to the file's URL.
func readTeam(a *archive.Archive, sink archive.Sink) error {
	data, err := fs.ReadFile(a, "team.json")
	if err != nil {
		return err
	}
	var t team
	if err := json.Unmarshal(data, &t); err != nil {
		return archive.Errorf("team.json", "%v", err)
	}
	opener := func(path string) archive.Opener {
		return func() (io.ReadCloser, error) { return a.Open(path) }
	}
	if err := sink.Realm(t.Realm); err != nil {
		return err
	}
	for _, u := range t.Users {
		if err := sink.User(u); err != nil {
			return err
		}
	}
	for _, s := range t.Streams {
		if err := sink.Stream(s); err != nil {
			return err
		}
	}
	for _, g := range t.Groups {
		if err := sink.UserGroup(g); err != nil {
			return err
		}
	}
	for _, l := range t.Linkifiers {
		if err := sink.Linkifier(l); err != nil {
			return err
		}
	}
	for _, e := range t.Emoji {
		if err := sink.Emoji(archive.Emoji{Name: e.Name, OwnerRef: e.Owner, Open: opener(e.Path)}); err != nil {
			return err
		}
	}
	urls := map[string]string{}
	for _, f := range t.Files {
		f.Open = opener(f.Path)
		url, err := sink.File(f.File)
		if err != nil {
			return err
		}
		urls["{file:"+f.Ref+"}"] = url
	}
	for _, m := range t.Messages {
		for ref, url := range urls {
			m.Content = strings.ReplaceAll(m.Content, ref, url)
		}
		if err := sink.Message(m); err != nil {
			return err
		}
	}
	return nil
}

func pngImage(t *testing.T) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zipEntry is one file of a test archive; raw entries are written as
// their header claims, whatever their content.
type zipEntry struct {
	name    string
	content []byte
	raw     *zip.FileHeader
}

// writeZip writes files (name → content) as a zip in a temporary folder.
func writeZip(t *testing.T, files map[string][]byte) string {
	t.Helper()
	var entries []zipEntry
	for _, name := range slices.Sorted(maps.Keys(files)) {
		entries = append(entries, zipEntry{name: name, content: files[name]})
	}
	return writeZipEntries(t, entries)
}

func writeZipEntries(t *testing.T, entries []zipEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		var w io.Writer
		if e.raw != nil {
			w, err = zw.CreateRaw(e.raw)
		} else {
			w, err = zw.Create(e.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.content)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

const teamJSON = `{
 "Realm": {"Name": "Acme", "Description": "Widgets", "DateCreated": 1500000000},
 "Users": [
  {"Ref": "U1", "Email": "ada@acme.test", "FullName": "Ada *Admin*", "Role": 200, "Active": true, "Timezone": "Europe/Paris"},
  {"Ref": "U2", "Email": "bob@acme.test", "FullName": "Bob", "Role": 400, "Active": true},
  {"Ref": "U3", "Email": "gone@acme.test", "FullName": "Gone Person", "Role": 400, "Active": false},
  {"Ref": "B1", "Email": "helper-bot@acme.test", "FullName": "Helper", "Role": 400, "Active": true, "BotType": 1, "BotOwnerRef": "U1"}
 ],
 "Streams": [
  {"Ref": "C1", "Name": "general", "Description": "Everything", "MemberRefs": ["U1", "U2", "U3"], "Default": true},
  {"Ref": "C2", "Name": "old-project", "MemberRefs": ["U1"], "Archived": true},
  {"Ref": "C3", "Name": "secret", "InviteOnly": true, "MemberRefs": ["U1"]}
 ],
 "Groups": [{"Name": "admins", "Description": "The admins", "MemberRefs": ["U1"]}],
 "Linkifiers": [{"Pattern": "#(?P<id>[0-9]+)", "URLTemplate": "https://tracker.test/{id}"}],
 "Emoji": [{"Name": "party parrot", "Owner": "U2", "Path": "emoji/parrot.png"}],
 "Files": [{"Ref": "F1", "OwnerRef": "U2", "Name": "report.txt", "Size": 11, "Created": 1600000000, "Path": "files/report.txt"}],
 "Messages": [
  {"Ref": "m1", "SenderRef": "U1", "StreamRef": "C1", "Topic": "hello", "Content": "Welcome @**Bob**, see #12", "Timestamp": 1600000100,
   "Reactions": [{"UserRef": "U2", "EmojiName": "thumbs_up"}, {"UserRef": "U2", "EmojiName": "party_parrot"}, {"UserRef": "U2", "EmojiName": "no_such_emoji"}]},
  {"Ref": "m2", "SenderRef": "U3", "StreamRef": "C1", "Topic": "hello", "Content": "the report: [report.txt]({file:F1})", "Timestamp": 1600000200, "EditTimestamp": 1600000300},
  {"Ref": "m3", "SenderRef": "U2", "StreamRef": "C2", "Topic": "", "Content": "old news", "Timestamp": 1600000400},
  {"Ref": "m4", "SenderRef": "U2", "PrivateRefs": ["U1", "U2"], "Content": "a word in private", "Timestamp": 1600000500},
  {"Ref": "m5", "SenderRef": "U1", "StreamRef": "C1", "Topic": "hello", "Content": "   ", "Timestamp": 1600000600}
 ]
}`

func teamZip(t *testing.T, teamJSON string) string {
	return writeZip(t, map[string][]byte{
		"team.json":        []byte(teamJSON),
		"files/report.txt": []byte("hello world"),
		"emoji/parrot.png": pngImage(t),
	})
}

// An archive imports into a new data folder that a real server then
// serves: people (bots and deactivated included, no passwords), streams
// with their members, groups, linkifiers, emoji, files and messages with
// reactions and edits, all read, and the summary says what was skipped.
func TestRunImportsATeamThatAServerThenServes(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	var phases []string
	summary, err := teamimport.Run(context.Background(), teamimport.Options{
		DataDir: dataDir, Archive: teamZip(t, teamJSON), Read: readTeam,
		Progress: func(p archive.Progress) {
			if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
				phases = append(phases, p.Phase)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := archive.Summary{RealmName: "Acme", Users: 4, Streams: 3, Messages: 4, Reactions: 2, Files: 1, Emoji: 1, UserGroups: 1, Linkifiers: 1,
		Changed: []archive.Changed{{Record: "user U1", Change: `the name "Ada *Admin*" became "Ada Admin": Invalid characters in name!`},
			{Record: "message m3", Change: `the topic "" became "(no topic)": Topic can't be empty!`}}}
	got := summary
	got.Skipped = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary %+v, want %+v", got, want)
	}
	var skipped []string
	for _, s := range summary.Skipped {
		skipped = append(skipped, s.Record)
	}
	if !slices.Equal(skipped, []string{"reaction :no_such_emoji: on message m1", "message m5"}) {
		t.Errorf("skipped %v", summary.Skipped)
	}
	if wantPhases := []string{"realm", "users", "streams", "user groups", "linkifiers", "emoji", "files", "messages", "finishing", "done"}; !slices.Equal(phases, wantPhases) {
		t.Errorf("progress phases %v, want %v", phases, wantPhases)
	}

	srv := apitest.StartIn(t, dataDir, true)
	ada, bob := srv.Login("ada@acme.test"), srv.Login("bob@acme.test")
	if name := srv.Anonymous().Get("/api/v1/server_settings", nil).OK().Str("realm_name"); name != "Acme" {
		t.Errorf("realm name %q", name)
	}
	var users struct {
		Members []struct {
			Email      string `json:"email"`
			FullName   string `json:"full_name"`
			IsActive   bool   `json:"is_active"`
			IsBot      bool   `json:"is_bot"`
			BotType    *int   `json:"bot_type"`
			BotOwnerID *int64 `json:"bot_owner_id"`
			Role       int    `json:"role"`
			UserID     int64  `json:"user_id"`
		} `json:"members"`
	}
	ada.Get("/api/v1/users", nil).OK().Decode(&users)
	byEmail := map[string]int{}
	for i, u := range users.Members {
		byEmail[u.Email] = i
	}
	if len(users.Members) != 4 {
		t.Fatalf("users %+v", users.Members)
	}
	adaU, gone, bot := users.Members[byEmail["ada@acme.test"]], users.Members[byEmail["gone@acme.test"]], users.Members[byEmail["helper-bot@acme.test"]]
	if adaU.FullName != "Ada Admin" || adaU.Role != 200 || gone.IsActive || !bot.IsBot || bot.BotType == nil || *bot.BotType != 1 ||
		bot.BotOwnerID == nil || *bot.BotOwnerID != adaU.UserID {
		t.Errorf("users as imported: %+v", users.Members)
	}
	srv.Anonymous().Post("/api/v1/fetch_api_key", apitest.Form{"username": "bob@acme.test", "password": "any password"}).Fails(401, "AUTHENTICATION_FAILED")

	var subs struct {
		Subscriptions []struct {
			Name        string `json:"name"`
			Subscribers []any  `json:"subscribers"`
		} `json:"subscriptions"`
	}
	ada.Get("/api/v1/users/me/subscriptions", apitest.Form{"include_subscribers": "true"}).OK().Decode(&subs)
	var names []string
	for _, s := range subs.Subscriptions {
		names = append(names, s.Name)
		if s.Name == "general" && len(s.Subscribers) != 3 {
			t.Errorf("general's subscribers %v", s.Subscribers)
		}
	}
	if !slices.Equal(names, []string{"general", "secret"}) {
		t.Errorf("ada's streams %v (the archived one is deactivated)", names)
	}

	type message struct {
		ID          int64    `json:"id"`
		Content     string   `json:"content"`
		Timestamp   int64    `json:"timestamp"`
		LastEdit    int64    `json:"last_edit_timestamp"`
		Flags       []string `json:"flags"`
		Subject     string   `json:"subject"`
		SenderEmail string   `json:"sender_email"`
		Reactions   []struct {
			EmojiName    string `json:"emoji_name"`
			ReactionType string `json:"reaction_type"`
		} `json:"reactions"`
	}
	var history struct{ Messages []message }
	bob.Get("/api/v1/messages", apitest.Form{"anchor": "oldest", "num_before": "0", "num_after": "100", "narrow": "[]"}).OK().Decode(&history)
	// Bob keeps his own message in the archived stream he never joined.
	if len(history.Messages) != 4 {
		t.Fatalf("bob's history %+v", history.Messages)
	}
	m1, m2, m3, m4 := history.Messages[0], history.Messages[1], history.Messages[2], history.Messages[3]
	if m3.Subject != "(no topic)" {
		t.Errorf("m3's empty topic became %q", m3.Subject)
	}
	if !strings.Contains(m1.Content, `class="user-mention"`) || !strings.Contains(m1.Content, `href="https://tracker.test/12"`) {
		t.Errorf("m1 rendered without its mention or linkifier: %s", m1.Content)
	}
	if !slices.Contains(m1.Flags, "mentioned") || !slices.Contains(m1.Flags, "read") {
		t.Errorf("bob's flags on m1 %v", m1.Flags)
	}
	if len(m1.Reactions) != 2 || m1.Reactions[0].EmojiName != "thumbs_up" || m1.Reactions[1].ReactionType != "realm_emoji" {
		t.Errorf("m1's reactions %+v", m1.Reactions)
	}
	if m2.LastEdit != 1600000300 || m2.SenderEmail != "gone@acme.test" || m2.Timestamp != 1600000200 {
		t.Errorf("m2 %+v", m2)
	}
	if !(m1.ID < m2.ID && m2.ID < m3.ID && m3.ID < m4.ID) || m4.Subject != "" || !slices.Contains(m4.Flags, "read") {
		t.Errorf("messages out of order or unread: %+v", history.Messages)
	}
	for _, c := range []*apitest.Client{ada, bob} {
		var unread struct{ Messages []message }
		c.Get("/api/v1/messages", apitest.Form{"anchor": "oldest", "num_before": "0", "num_after": "100",
			"narrow": `[{"operator":"is","operand":"unread"}]`}).OK().Decode(&unread)
		if len(unread.Messages) != 0 {
			t.Errorf("%s has unread imported messages: %+v", c.Email(), unread.Messages)
		}
	}
	i := strings.Index(m2.Content, "/user_uploads/")
	if i < 0 {
		t.Fatalf("m2 links no upload: %s", m2.Content)
	}
	url := m2.Content[i : i+strings.Index(m2.Content[i:], `"`)]
	if res := bob.Do("GET", url, "", nil); res.Status != 200 || string(res.Raw) != "hello world" {
		t.Errorf("GET %s: %d %q", url, res.Status, res.Raw)
	}
}

// A refused archive names the bad record and leaves no data folder and no
// temporary folder behind; a data folder that is not empty is refused
// before anything is read.
func TestRunRefusesWithoutLeavingAnything(t *testing.T) {
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"message from an unknown user", `"SenderRef": "U2", "PrivateRefs"`, `"SenderRef": "U9", "PrivateRefs"`, `message m4: names user "U9", who is not in the archive`},
		{"member of no known user", `"MemberRefs": ["U1"], "Archived"`, `"MemberRefs": ["U7"], "Archived"`, `stream C2: names user "U7", who is not in the archive`},
		{"duplicate user", `"Ref": "U3"`, `"Ref": "U2"`, `user U2: appears twice`},
		{"duplicate stream name", `"Name": "secret"`, `"Name": "General"`, `stream C3: Channel name 'General' is already taken.`},
		{"file longer than it claims", `"Size": 11`, `"Size": 5`, `file F1 (report.txt): runs longer than the 5 bytes it claims`},
		{"file claiming 10 GB", `"Size": 11`, `"Size": 10000000000`, `file F1 (report.txt): claims 10000000000 bytes, more than the 4096 MiB an imported file may have`},
		{"message in an unknown stream", `"StreamRef": "C2"`, `"StreamRef": "C9"`, `message m3: names stream "C9", which the archive does not have`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(teamJSON, c.from) {
				t.Fatalf("fixture lacks %q", c.from)
			}
			parent := t.TempDir()
			dataDir := filepath.Join(parent, "data")
			_, err := teamimport.Run(context.Background(), teamimport.Options{
				DataDir: dataDir, Archive: teamZip(t, strings.Replace(teamJSON, c.from, c.to, 1)), Read: readTeam,
			})
			var ae *archive.Error
			if err == nil || !errors.As(err, &ae) || err.Error() != c.want {
				t.Fatalf("error %v, want archive error %q", err, c.want)
			}
			if left, _ := os.ReadDir(parent); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
	t.Run("non-empty data folder", func(t *testing.T) {
		dataDir := filepath.Join(t.TempDir(), "data")
		os.Mkdir(dataDir, 0o700)
		os.WriteFile(filepath.Join(dataDir, "keep.txt"), []byte("mine"), 0o600)
		_, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dataDir, Archive: teamZip(t, teamJSON), Read: readTeam})
		if err == nil || !strings.Contains(err.Error(), "is not empty") {
			t.Fatalf("error %v", err)
		}
		if left, _ := os.ReadDir(dataDir); len(left) != 1 {
			t.Errorf("data folder now holds %v", left)
		}
		if left, _ := os.ReadDir(filepath.Dir(dataDir)); len(left) != 1 {
			t.Errorf("beside the data folder: %v", left)
		}
	})
}

// A tar.gz export (Zulip's form) imports as a zip does, and its unpacked
// copy is gone afterwards.
func TestRunReadsTarGz(t *testing.T) {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for name, content := range map[string][]byte{"team.json": []byte(teamJSON), "files/report.txt": []byte("hello world"), "emoji/parrot.png": pngImage(t)} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(content)), Typeflag: tar.TypeReg})
		tw.Write(content)
	}
	tw.Close()
	gz.Close()
	path := filepath.Join(t.TempDir(), "export.tar.gz")
	os.WriteFile(path, b.Bytes(), 0o600)
	parent := t.TempDir()
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(parent, "data"), Archive: path, Read: readTeam})
	if err != nil || summary.Messages != 4 || summary.Files != 1 {
		t.Fatalf("%+v %v", summary, err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 1 || left[0].Name() != "data" {
		t.Errorf("beside the data folder: %v", left)
	}
}
