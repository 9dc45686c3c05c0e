package teamimport_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/teamimport"
)

// mattermostFixtures are Zulip's Mattermost converter fixtures (see the
// README beside them).
const mattermostFixtures = "../archive/mattermost/testdata/"

// importMattermost imports an export into a new data folder and serves it.
func importMattermost(t *testing.T, export string) (archive.Summary, *apitest.Server) {
	t.Helper()
	dataDir := filepath.Join(t.TempDir(), "data")
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dataDir, Format: "mattermost", Archive: export})
	if err != nil {
		t.Fatal(err)
	}
	return summary, apitest.StartIn(t, dataDir, true)
}

type importedMessage struct {
	ID               int64    `json:"id"`
	Content          string   `json:"content"`
	Timestamp        int64    `json:"timestamp"`
	Subject          string   `json:"subject"`
	SenderEmail      string   `json:"sender_email"`
	DisplayRecipient any      `json:"display_recipient"`
	Flags            []string `json:"flags"`
	Reactions        []struct {
		EmojiName    string `json:"emoji_name"`
		ReactionType string `json:"reaction_type"`
	} `json:"reactions"`
}

func history(c *apitest.Client, narrow string) []importedMessage {
	var h struct{ Messages []importedMessage }
	c.Get("/api/v1/messages", apitest.Form{"anchor": "oldest", "num_before": "0", "num_after": "1000", "narrow": narrow}).OK().Decode(&h)
	return h.Messages
}

func TestRunImportsMattermost(t *testing.T) {
	summary, srv := importMattermost(t, mattermostFixtures+"export")
	got := summary
	got.Skipped = nil
	if want := (archive.Summary{RealmName: "Iago Realm", Users: 5, Streams: 5, Messages: 21, Reactions: 9, Emoji: 2}); !reflect.DeepEqual(got, want) {
		t.Errorf("summary %+v (skipped %v), want %+v", got, summary.Skipped, want)
	}
	harry := srv.Login("harry@zulip.com")

	var users struct {
		Members []struct {
			Email    string `json:"email"`
			FullName string `json:"full_name"`
			Role     int    `json:"role"`
		} `json:"members"`
	}
	harry.Get("/api/v1/users", nil).OK().Decode(&users)
	roles := map[string]int{}
	for _, u := range users.Members {
		roles[u.FullName] = u.Role
	}
	if want := map[string]int{"Harry Potter": 100, "Ron Weasley": 400, "malfoy": 200, "pansy": 200, "Severus Snape": 400}; !reflect.DeepEqual(roles, want) {
		t.Errorf("users by role %v, want %v", roles, want)
	}

	var subs struct {
		Subscriptions []struct {
			Name       string `json:"name"`
			InviteOnly bool   `json:"invite_only"`
		} `json:"subscriptions"`
	}
	harry.Get("/api/v1/users/me/subscriptions", nil).OK().Decode(&subs)
	var names []string
	for _, s := range subs.Subscriptions {
		names = append(names, s.Name)
		if s.InviteOnly != (s.Name == "Iago Realm / Dumbledores army") {
			t.Errorf("stream %q invite only: %v", s.Name, s.InviteOnly)
		}
	}
	slices.Sort(names)
	if want := []string{"Iago Realm / Dumbledores army", "Iago Realm / Gryffindor common room", "Iago Realm / Gryffindor quidditch team"}; !slices.Equal(names, want) {
		t.Errorf("harry's streams %v, want %v", names, want)
	}

	// The thread: ron's reply, written first, and harry's root post, in
	// one topic named after the root.
	thread := history(harry, `[{"operator":"stream","operand":"Iago Realm / Dumbledores army"},{"operator":"topic","operand":"harry joined the channel."}]`)
	if len(thread) != 2 || !strings.Contains(thread[0].Content, "The weather is so hot!") || thread[1].SenderEmail != "harry@zulip.com" {
		t.Errorf("thread %+v", thread)
	}

	all := history(harry, "[]")
	if len(all) != 17 {
		t.Errorf("harry sees %d messages, want gryffindor's 17", len(all))
	}
	for i, m := range all {
		if !slices.Contains(m.Flags, "read") {
			t.Errorf("message %d is unread: %v", m.ID, m.Flags)
		}
		if i > 0 && m.Timestamp < all[i-1].Timestamp {
			t.Errorf("message %d (at %d) has a later ID than %d (at %d)", m.ID, m.Timestamp, all[i-1].ID, all[i-1].Timestamp)
		}
		switch {
		case strings.Contains(m.Content, "Welcome mate!"):
			if !strings.Contains(m.Content, `class="user-mention"`) || !strings.Contains(m.Content, "@Ron Weasley") {
				t.Errorf("mention rendered as %s", m.Content)
			}
		case strings.Contains(m.Content, "Hello world"):
			var kinds []string
			for _, r := range m.Reactions {
				kinds = append(kinds, r.EmojiName+" "+r.ReactionType)
			}
			if want := []string{"tick realm_emoji", "smile unicode_emoji", "world_map unicode_emoji"}; !slices.Equal(kinds, want) {
				t.Errorf("reactions %v, want %v", kinds, want)
			}
		}
	}
}

func TestRunImportsMattermostDirectMessagesAndFilesFromAZip(t *testing.T) {
	name := archivetest.ZipDir(t, mattermostFixtures+"direct_channel")
	summary, srv := importMattermost(t, name)
	if summary.Messages != 11 || summary.Files != 2 || summary.Users != 4 || len(summary.Skipped) != 0 {
		t.Errorf("summary %+v", summary)
	}
	ron := srv.Login("ron@zulip.com")
	dms := history(ron, `[{"operator":"dm","operand":"harry@zulip.com"}]`)
	if len(dms) != 2 || !strings.HasPrefix(dms[0].Content, "<p>hey harry") {
		t.Fatalf("ron's messages with harry %+v", dms)
	}
	i := strings.Index(dms[0].Content, `href="/user_uploads/`)
	if i < 0 {
		t.Fatalf("no upload linked: %s", dms[0].Content)
	}
	url := dms[0].Content[i+len(`href="`):]
	url = url[:strings.Index(url, `"`)]
	if res := ron.Do("GET", url, "", nil); res.Status != 200 || len(res.Raw) != 149467 {
		t.Errorf("GET %s: %d, %d bytes", url, res.Status, len(res.Raw))
	}
	group := history(ron, `[{"operator":"dm","operand":"harry@zulip.com,ginny@zulip.com"}]`)
	if len(group) != 3 || !strings.Contains(group[0].Content, "Hogsmeade") {
		t.Errorf("the group conversation %+v", group)
	}
	// Voldemort's conversation is not ron's.
	if v := history(srv.Login("voldemort@zulip.com"), `[{"operator":"is","operand":"dm"}]`); len(v) != 2 {
		t.Errorf("voldemort's messages %+v", v)
	}
}

// A bare import.jsonl, with what the fixtures lack: saved (flagged) posts,
// edits, a bot and a deactivated user.
func TestRunImportsABareMattermostJSONL(t *testing.T) {
	name := filepath.Join(t.TempDir(), "import.jsonl")
	lines := []string{
		`{"type":"version","version":1}`,
		`{"type":"team","team":{"name":"t","display_name":"Acme","type":"O"}}`,
		`{"type":"channel","channel":{"team":"t","name":"town-square","display_name":"Town Square","type":"O"}}`,
		`{"type":"user","user":{"username":"ada","email":"ada@acme.test","first_name":"Ada","last_name":"L","roles":"system_admin system_user","teams":[{"name":"t","roles":"team_user","channels":[{"name":"town-square"}]}]}}`,
		`{"type":"user","user":{"username":"bob","email":"bob@acme.test","first_name":"Bob","roles":"system_user","teams":[{"name":"t","roles":"team_user","channels":[{"name":"town-square"}]}]}}`,
		`{"type":"user","user":{"username":"gone","email":"gone@acme.test","roles":"system_user","delete_at":1600000000000,"teams":[{"name":"t","roles":"team_user","channels":[{"name":"town-square"}]}]}}`,
		`{"type":"bot","bot":{"username":"helper","owner":"ada","display_name":"Helper"}}`,
		`{"type":"post","post":{"team":"t","channel":"town-square","user":"gone","message":"Deploy tonight?","create_at":1700000000000,"edit_at":1700000060000,"flagged_by":["bob"],"replies":[{"user":"helper","message":"deployed, @ada","create_at":1700000120000}]}}`,
	}
	if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	summary, srv := importMattermost(t, name)
	if summary.Users != 4 || summary.Messages != 2 {
		t.Errorf("summary %+v", summary)
	}
	var users struct {
		Members []struct {
			Email    string `json:"email"`
			IsActive bool   `json:"is_active"`
			IsBot    bool   `json:"is_bot"`
		} `json:"members"`
	}
	ada, bob := srv.Login("ada@acme.test"), srv.Login("bob@acme.test")
	ada.Get("/api/v1/users", nil).OK().Decode(&users)
	for _, u := range users.Members {
		if u.IsActive != (u.Email != "gone@acme.test") || u.IsBot != (u.Email == "helper-bot@mattermost.invalid") {
			t.Errorf("user %+v", u)
		}
	}
	for _, c := range []*apitest.Client{ada, bob} {
		msgs := history(c, `[{"operator":"topic","operand":"Deploy tonight?"}]`)
		if len(msgs) != 2 {
			t.Fatalf("%s sees the thread as %+v", c.Email(), msgs)
		}
		starred := slices.Contains(msgs[0].Flags, "starred")
		if !slices.Contains(msgs[0].Flags, "read") || !slices.Contains(msgs[1].Flags, "read") || starred != (c == bob) {
			t.Errorf("%s's flags %v, %v", c.Email(), msgs[0].Flags, msgs[1].Flags)
		}
	}
	var edited struct {
		Messages []struct {
			LastEdit int64 `json:"last_edit_timestamp"`
		} `json:"messages"`
	}
	bob.Get("/api/v1/messages", apitest.Form{"anchor": "oldest", "num_before": "0", "num_after": "1", "narrow": "[]"}).OK().Decode(&edited)
	if len(edited.Messages) != 1 || edited.Messages[0].LastEdit != 1700000060 {
		t.Errorf("edit time %+v", edited.Messages)
	}
}
