package slack

import (
	"archive/zip"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeExport writes files (name → content) as a zip.
func writeExport(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	path := filepath.Join(dir, "slack.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if !yield(n) {
				return
			}
		}
	}) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// smallExport has every kind of conversation, a bot, a deleted person, a
// file in the newer form and reactions with skin tones.
var smallExport = map[string]string{
	"users.json": `[
 {"id": "U1", "name": "ada", "real_name": "Ada", "is_owner": true, "profile": {"email": "ada@acme.test"}},
 {"id": "U2", "name": "bob", "real_name": "Bob", "is_restricted": true, "profile": {"email": "bob@acme.test"}},
 {"id": "U3", "name": "gone", "deleted": true, "profile": {"real_name": "Gone *Person*", "email": "gone@acme.test"}},
 {"id": "B1", "name": "deploy.bot", "real_name": "Deploy Bot", "is_bot": true, "profile": {}}
]`,
	"channels.json": `[{"id": "C1", "name": "general", "created": 1700000000, "is_general": true, "members": ["U1", "U2", "U3", "B1"], "purpose": {"value": "All"}}]`,
	"groups.json":   `[{"id": "G1", "name": "secret", "created": "1700000000", "members": ["U1", "U2"]}]`,
	"dms.json":      `[{"id": "D1", "members": ["U2", "U1"]}]`,
	"mpims.json":    `[{"id": "G2", "name": "mpdm-ada--bob--gone-1", "members": ["U1", "U2", "U3"]}]`,
	"general/2024-01-01.json": `[
 {"type": "message", "user": "U1", "text": "see this", "ts": "1704100000.000200",
  "files": [{"id": "F1", "name": "plan.pdf", "title": "The plan", "url_private": "https://files.slack.com/plan.pdf?t=xoxe-secret"}],
  "reactions": [{"name": "thumbsup::skin-tone-2", "users": ["U2"]}, {"name": "+1", "users": ["U2", "U1"]}, {"name": "partyparrot", "users": ["U1"]}]},
 {"type": "message", "subtype": "bot_message", "bot_id": "B9", "text": "integration says hi", "ts": "1704100001.000000"},
 {"type": "message", "subtype": "me_message", "user": "U2", "text": "waves", "ts": "1704100002.000000"}
]`,
	"secret/2024-01-01.json":                `[{"type": "message", "user": "U2", "text": "psst", "ts": "1704100000.000100"}]`,
	"D1/2024-01-01.json":                    `[{"type": "message", "user": "U2", "text": "hi Ada", "ts": "1704000000.000000"}]`,
	"mpdm-ada--bob--gone-1/2024-01-02.json": `[{"type": "message", "user": "U3", "text": "bye all", "ts": "1704200000.000000"}]`,
	"general/notes.txt":                     "not a day file",
}

func TestReadEveryConversationInTimeOrder(t *testing.T) {
	rec := readZip(t, writeExport(t, t.TempDir(), smallExport))
	if bot := rec.Users[3]; bot.BotType != 1 || bot.Email != "deploy-bot-bot-b1@slack.invalid" || bot.FullName != "Deploy Bot" {
		t.Errorf("bot %+v", bot)
	}
	if gone := rec.Users[2]; gone.Active || gone.FullName != "Gone *Person*" {
		t.Errorf("deleted user %+v", gone)
	}
	if bob := rec.Users[1]; bob.Role != 600 {
		t.Errorf("a restricted user is a guest: %+v", bob)
	}
	if len(rec.Streams) != 2 || !rec.Streams[1].InviteOnly || rec.Streams[1].DateCreated != 1700000000 {
		t.Errorf("streams %+v", rec.Streams)
	}
	var got []string
	for _, m := range rec.Messages {
		got = append(got, m.Content)
	}
	want := []string{"hi Ada", "psst", "see this\n[The plan](https://files.slack.com/plan.pdf)", "/me waves", "bye all"}
	if !slices.Equal(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
	if dm := rec.Messages[0]; !slices.Equal(dm.PrivateRefs, []string{"U1", "U2"}) || dm.StreamRef != "" {
		t.Errorf("the DM %+v", dm)
	}
	if mpim := rec.Messages[4]; !slices.Equal(mpim.PrivateRefs, []string{"U1", "U2", "U3"}) {
		t.Errorf("the group DM %+v", mpim)
	}
	var reactions []string
	for _, r := range rec.Messages[2].Reactions {
		reactions = append(reactions, r.UserRef+":"+r.EmojiName)
	}
	if !slices.Equal(reactions, []string{"U2:+1", "U1:+1"}) {
		t.Errorf("reactions %v", reactions)
	}
	for _, s := range []string{
		"file F1 (plan.pdf) of general/2024-01-01.json[0]: not in the export: kept as a link to Slack",
		"reaction :partyparrot: on general/2024-01-01.json[0]: not an emoji Lanchat knows",
		"general/2024-01-01.json[1]: no user sent it (an integration's message)",
	} {
		if !slices.Contains(rec.Skipped, s) {
			t.Errorf("not skipped: %q (skipped: %q)", s, rec.Skipped)
		}
	}
}
