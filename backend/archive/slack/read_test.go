package slack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
)

// readZip reads a Slack export zip into a Recorder.
func readZip(t *testing.T, path string) *archivetest.Recorder {
	t.Helper()
	a, err := archive.OpenZip(path, archive.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := &archivetest.Recorder{}
	if err := Read(a, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// Zulip's Slack fixture reads as its converter reads it: the people with
// their roles, the channels with their members, and the messages of every
// channel in time order, threads in topics of their own, notices left out,
// mentions, reactions and edits converted, files kept as links.
func TestReadZulipFixture(t *testing.T) {
	rec := readZip(t, "testdata/test_slack_importer.zip")
	var users []string
	for _, u := range rec.Users {
		users = append(users, u.Ref+" "+u.FullName)
	}
	if !slices.Equal(users, []string{"U6006P1CN Josef K.", "U8W3QFGQ5 Rhea Parekh", "U8X25EBAB Rishi हिन्दी 汉语", "U8VAHEVUY Steve Howell"}) {
		t.Errorf("users %v", users)
	}
	if u := rec.Users[0]; u.Role != 100 || !u.Active || u.Timezone != "Europe/Amsterdam" || u.Email == "" {
		t.Errorf("the primary owner %+v", u)
	}
	if len(rec.Streams) != 2 || rec.Streams[0].Name != "general" || !rec.Streams[0].Default || len(rec.Streams[0].MemberRefs) != 4 || rec.Streams[1].Default {
		t.Errorf("streams %+v", rec.Streams)
	}
	if len(rec.Messages) != 82 {
		t.Errorf("%d messages, want the 82 that are not notices", len(rec.Messages))
	}
	byText := map[string]archive.Message{}
	for i, m := range rec.Messages {
		if i > 0 && m.Timestamp < rec.Messages[i-1].Timestamp {
			t.Errorf("message %s (%d) after a later one (%d)", m.Ref, m.Timestamp, rec.Messages[i-1].Timestamp)
		}
		byText[m.Content] = m
	}
	for _, c := range []struct{ content, topic string }{
		{"@**Rhea Parekh** this is a test mention", mainTopic},
		{"***rabbitduck***", "2018-01-23 Slack thread 1"},
		{"thread 1?", "2018-01-23 Slack thread 1"},
		{"msg sent to general as well", "2018-01-23 Slack thread 1"},
		{"mailto:foo@spam.com", mainTopic},
		{"@**all**", mainTopic},
	} {
		if m, ok := byText[c.content]; !ok || m.Topic != c.topic || m.StreamRef != "C5Z73A7RA" {
			t.Errorf("message %q: %+v", c.content, m)
		}
	}
	edited := byText["@**Josef K.**     testing     @**Steve Howell** @USLACKBOT: multiple mentioning"]
	if edited.EditTimestamp != 1516468486 || edited.Timestamp != 1516468466 {
		t.Errorf("the edited message %+v", edited)
	}
	reacted := byText["aoenaoeuta"]
	if len(reacted.Reactions) != 1 || reacted.Reactions[0].EmojiCode != "1f636" || reacted.Reactions[0].UserRef != "U8X25EBAB" {
		t.Errorf("reactions %+v", reacted.Reactions)
	}
	var file archive.Message
	for _, m := range rec.Messages {
		if strings.HasPrefix(m.Content, "@**Steve Howell** uploaded a file") {
			file = m
		}
	}
	if strings.Count(file.Content, "](https://plan8team.slack.com/files/U8VAHEVUY/F8VDNT9FB/img_0677.jpg)") != 1 || strings.Contains(file.Content, "xoxe") {
		t.Errorf("the file's message %q", file.Content)
	}
	if !slices.ContainsFunc(rec.Skipped, func(s string) bool { return strings.HasPrefix(s, "file F8VDNT9FB (IMG_0677.JPG)") }) {
		t.Errorf("skipped %v", rec.Skipped)
	}
}

func TestReadUnicodeChannel(t *testing.T) {
	rec := readZip(t, "testdata/test_unicode_slack_importer.zip")
	var names []string
	for _, s := range rec.Streams {
		names = append(names, s.Name)
	}
	if !slices.Contains(names, "チャネル") {
		t.Errorf("streams %v", names)
	}
	if !slices.ContainsFunc(rec.Messages, func(m archive.Message) bool { return m.Content == "例" }) {
		t.Errorf("messages %+v", rec.Messages)
	}
}

// Uploaded profile pictures are only links to Slack's servers: the import
// says once how many it left out.
func TestReadSaysProfilePicturesAreLeftOut(t *testing.T) {
	export, err := archivetest.SlackExport([]archivetest.SlackPerson{{ID: "U01", Name: "Ana Lima", Email: "ana@slack.test", CustomAvatar: true},
		{ID: "U02", Name: "Ben Okoro", Email: "ben@slack.test"}, {ID: "U03", Name: "Chen Wei", Email: "chen@slack.test", CustomAvatar: true}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "export.zip")
	if err := os.WriteFile(path, export, 0o600); err != nil {
		t.Fatal(err)
	}
	rec := readZip(t, path)
	want := "the profile pictures of 2 people: only linked on Slack's servers: the default avatar is shown instead"
	if !slices.Contains(rec.Skipped, want) {
		t.Errorf("skipped %q, want %q among them", rec.Skipped, want)
	}
	if rec := readZip(t, "testdata/test_slack_importer.zip"); slices.ContainsFunc(rec.Skipped, func(s string) bool { return strings.Contains(s, "profile pictures") }) {
		t.Errorf("Zulip's fixture has no uploaded pictures, yet: %q", rec.Skipped)
	}
}

// Slack names an export's file after the workspace, which the export
// itself does not name.
func TestWorkspaceName(t *testing.T) {
	for file, want := range map[string]string{
		"Acme Corp Slack export Jan 1 2020 - Mar 5 2021.zip":     "Acme Corp",
		"Acme Corp Slack export Jan 1 2020 - Mar 5 2021 (1).zip": "Acme Corp",
		"Slack export Jan 1 2020 - Mar 5 2021.zip":               "",
		"export.zip":              "",
		"test_slack_importer.zip": "",
	} {
		if got := WorkspaceName(file); got != want {
			t.Errorf("%q: %q, want %q", file, got, want)
		}
	}
}
