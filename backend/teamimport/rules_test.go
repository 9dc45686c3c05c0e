package teamimport_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/archive"
	"lanchat/backend/teamimport"
)

// changes are a summary's changes, as "record: change".
func changes(s archive.Summary) []string {
	var out []string
	for _, c := range s.Changed {
		out = append(out, c.Record+": "+c.Change)
	}
	return out
}

// A Slack person named with markup the API refuses in names imports under
// the name the API's rule leaves (the one mentions of them use), and the
// summary says what became what.
func TestImportFixesANameTheAPIRefuses(t *testing.T) {
	const markup = `<img src=x onerror=alert(1)>`
	path := writeZipEntries(t, slackWith(map[string]string{
		"users.json": `[
 {"id": "U1", "name": "ada", "real_name": "Ada", "is_owner": true, "profile": {"email": "ada@acme.test"}},
 {"id": "U2", "name": "bob", "real_name": "` + strings.ReplaceAll(markup, `"`, `\"`) + `", "profile": {"email": "bob@acme.test"}}
]`,
		"general/2024-01-01.json": `[{"type": "message", "user": "U1", "text": "hello <@U2>", "ts": "1704100000.000200"}]`,
	}))
	dataDir := filepath.Join(t.TempDir(), "data")
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dataDir, Format: "slack", Archive: path})
	if err != nil {
		t.Fatal(err)
	}
	const cleaned = `<img src=x onerror=alert(1)`
	want := []string{fmt.Sprintf("user U2: the name %q became %q: Invalid characters in name!", markup, cleaned)}
	if got := changes(summary); !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	srv := apitest.StartIn(t, dataDir, true)
	ada := srv.Login("ada@acme.test")
	names := map[string]any{}
	for _, u := range ada.Get("/api/v1/users", nil).OK().List("members") {
		names[u.(map[string]any)["email"].(string)] = u.(map[string]any)["full_name"]
	}
	if names["bob@acme.test"] != cleaned {
		t.Errorf("bob's name %q", names["bob@acme.test"])
	}
	msgs := ada.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": "[]"}).OK().List("messages")
	if content := msgs[0].(map[string]any)["content"].(string); !strings.Contains(content, `class="user-mention"`) || strings.Contains(content, "<img") {
		t.Errorf("the mention of bob: %s", content)
	}
}

// Every other value the API checks follows its rule too: a stream name
// with a control character or too long, a topic with a line break, an
// unknown time zone, an alert word too long, a group with no name, an
// organization's or a group's description too long and a linkifier's
// pattern too long are fixed or left out, and said so; an earlier version's HTML is rendered
// again from its markdown, never taken from the archive.
func TestImportFollowsTheAPIsRules(t *testing.T) {
	long := strings.Repeat("x", 70)
	team := `{
 "Realm": {"Name": "` + strings.Repeat("Acme ", 10) + `", "Description": "` + strings.Repeat("d", 1001) + `"},
 "Users": [{"Ref": "U1", "Email": "ada@acme.test", "FullName": "Ada", "Role": 200, "Active": true, "Timezone": "Mars/Olympus",
   "AlertWords": ["deploy", "` + strings.Repeat("w", 101) + `"]}],
 "Streams": [{"Ref": "C1", "Name": "gen\teral", "MemberRefs": ["U1"]}, {"Ref": "C2", "Name": "` + long + `", "MemberRefs": ["U1"]}],
 "Groups": [{"Name": " ", "MemberRefs": ["U1"]}, {"Name": "ops", "Description": "` + strings.Repeat("g", 1025) + `", "MemberRefs": ["U1"]}],
 "Linkifiers": [{"Pattern": "` + strings.Repeat("p", 1001) + `", "URLTemplate": "https://p.lan/"}],
 "Messages": [{"Ref": "m1", "SenderRef": "U1", "StreamRef": "C1", "Topic": "line\nbreak", "Content": "now", "Timestamp": 1600000100,
   "EditTimestamp": 1600000200, "Edits": [{"Timestamp": 1600000200, "UserRef": "U1", "PrevContent": "<img src=x onerror=alert(1)>",
   "PrevRendered": "<p><img src=x onerror=alert(1)></p>", "PrevTopic": "old\ttopic"}]}]
}`
	dataDir := filepath.Join(t.TempDir(), "data")
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dataDir, Read: readTeam, Archive: writeZip(t, map[string][]byte{"team.json": []byte(team)})})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`the organization: its name "Acme Acme Acme Acme Acme Acme Acme Acme Acme Acme " became "Acme Acme Acme Acme Acme Acme Acme Acme": Organization name must be 1 to 40 characters.`,
		fmt.Sprintf(`the organization: the description %q… became %q: description is too long (limit: 1000 characters)`, strings.Repeat("d", 60), strings.Repeat("d", 1000)),
		`user U1: the time zone "Mars/Olympus" became "": Invalid timezone: unknown time zone`,
		`stream C1: the name "gen\teral" became "general": Invalid character in channel name.`,
		fmt.Sprintf(`stream C2: the name %q… became %q: Channel name too long (limit: 60 characters).`, long[:60], long[:60]),
		fmt.Sprintf(`user group ops: the description %q… became %q: description is too long (limit: 1024 characters)`, strings.Repeat("g", 60), strings.Repeat("g", 1024)),
		`message m1: the topic "line\nbreak" became "line break": Invalid character in topic, at position 5!`,
		`message m1: the topic "old\ttopic" became "old topic": Invalid character in topic, at position 4!`,
	}
	if got := changes(summary); !slices.Equal(got, want) {
		t.Errorf("changes\n%q\nwant\n%q", got, want)
	}
	var skipped []string
	for _, s := range summary.Skipped {
		skipped = append(skipped, s.Record+": "+s.Reason)
	}
	if wantSkipped := []string{`alert word "` + strings.Repeat("w", 60) + `"… of user U1: Alert words must be 1 to 100 characters.`,
		"user group  : User group name can't be empty!",
		"linkifier " + strings.Repeat("p", 60) + ": pattern is too long (limit: 1000 characters)"}; !slices.Equal(skipped, wantSkipped) {
		t.Errorf("skipped\n%q\nwant\n%q", skipped, wantSkipped)
	}

	srv := apitest.StartIn(t, dataDir, true)
	ada := srv.Login("ada@acme.test")
	msgs := ada.Get("/api/v1/messages", apitest.Form{"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": "[]"}).OK().List("messages")
	m := msgs[0].(map[string]any)
	if m["subject"] != "line break" {
		t.Errorf("topic %q", m["subject"])
	}
	history := string(ada.Get(fmt.Sprintf("/api/v1/messages/%v/history", m["id"]), nil).OK().Raw)
	if strings.Contains(history, "<img") || !strings.Contains(history, "old topic") {
		t.Errorf("the edit history: %s", history)
	}
}
