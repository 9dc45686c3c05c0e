package api_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

func gifImage(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	gif.Encode(&buf, image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Black, color.White}), nil)
	return buf.String()
}

func upload(c *apitest.Client, name, file, content string) *apitest.Response {
	return c.PostMultipart("/api/v1/realm/emoji/"+name, nil, map[string][2]string{"file": {file, content}})
}

func TestCustomEmoji(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, MaxEmojiFileSize: 64 << 10})
	alice, bob, admin, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("admin@example.com"), s.Login("guest@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_emoji"}})

	upload(alice, "Party Parrot", "parrot.png", apitest.PNG(t, 16)).OK()
	upload(bob, "dancing", "anim.gif", gifImage(t)).OK()
	upload(bob, "webp-one", "x.bin", "RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x000\x01\x00\x9d\x01*\x01\x00\x01\x00\x02\x004%\xa4\x00\x03p\x00\xfe\xfb\x94\x00\x00").OK()
	cases := []struct {
		name   string
		client *apitest.Client
		emoji  string
		file   string
		msg    string
	}{
		{"same name, other spelling", bob, "party_PARROT", apitest.PNG(t, 8), "A custom emoji with this name already exists."},
		{"not an image", bob, "fake", "<svg onload=alert(1)>", "Invalid image format"},
		{"too large", bob, "huge", "\x89PNG\r\n\x1a\n" + strings.Repeat("x", 70000), "Uploaded file is larger than the allowed limit of 65536 bytes"},
		{"bad characters", bob, "wh@t", apitest.PNG(t, 8), "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."},
		{"ends badly", bob, "dash-", apitest.PNG(t, 8), "Emoji names must end with either a letter or digit."},
		{"ends with a space made underscore", bob, "dash%20_", apitest.PNG(t, 8), "Emoji names must end with either a letter or digit."},
		{"blank name", bob, "%20", apitest.PNG(t, 8), "Emoji name is missing"},
		{"guest", guest, "guesty", apitest.PNG(t, 8), "Insufficient permission"},
		{"shadows a built-in", bob, "smile", apitest.PNG(t, 8), "Only administrators can override default emoji."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := upload(tc.client, tc.emoji, "f.png", tc.file).Fails(400, "BAD_REQUEST").Msg(); got != tc.msg {
				t.Errorf("msg %q, want %q", got, tc.msg)
			}
		})
	}
	for name, files := range map[string]map[string][2]string{
		"two files": {"a": {"a.png", apitest.PNG(t, 8)}, "b": {"b.png", apitest.PNG(t, 8)}},
		"no file":   nil,
	} {
		if got := bob.PostMultipart("/api/v1/realm/emoji/files", nil, files).Fails(400, "BAD_REQUEST").Msg(); got != "You must upload exactly one file." {
			t.Errorf("%s: %q", name, got)
		}
	}
	upload(admin, "smile", "s.png", apitest.PNG(t, 8)).OK()

	all := bob.Get("/api/v1/realm/emoji", nil).OK().Body["emoji"].(map[string]any)
	if len(all) != 4 {
		t.Fatalf("emoji %v", all)
	}
	var parrot map[string]any
	for id, e := range all {
		m := e.(map[string]any)
		if m["id"] != id {
			t.Errorf("emoji keyed %s has id %v", id, m["id"])
		}
		if m["name"] == "party_parrot" {
			parrot = m
		}
	}
	if parrot == nil || parrot["deactivated"] != false || parrot["author"].(map[string]any)["email"] != "alice@example.com" || parrot["author_id"] == nil {
		t.Fatalf("party_parrot %v", parrot)
	}
	img := bob.Do("GET", parrot["source_url"].(string), "", nil)
	if img.Status != 200 || img.Header.Get("Content-Type") != "image/png" || img.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("image: %d %v", img.Status, img.Header)
	}
	// Public, as in Zulip: no credentials needed.
	if anon := s.Anonymous().Do("GET", parrot["source_url"].(string), "", nil); anon.Status != 200 || string(anon.Raw) != string(img.Raw) {
		t.Errorf("anonymous image fetch: %d %.100s", anon.Status, anon.Raw)
	}
	if evs := q.next(); len(evs) != 4 || evs[3]["op"] != "update" || len(evs[3]["realm_emoji"].(map[string]any)) != 4 {
		t.Errorf("realm_emoji events %v", types(evs))
	}

	// Custom emoji render and react.
	id := send(t, alice, streamMsg("general", "e", "party :party_parrot:"))
	content := alice.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["content"].(string)
	if !strings.Contains(content, `<img alt=":party_parrot:" class="emoji" src="`+parrot["source_url"].(string)+`" title="party parrot">`) {
		t.Errorf("rendered %q", content)
	}
	bob.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "party_parrot"}).OK()
	reaction := bob.Get(msgPath(id, ""), nil).OK().Body["message"].(map[string]any)["reactions"].([]any)[0].(map[string]any)
	if reaction["reaction_type"] != "realm_emoji" || reaction["emoji_code"] != parrot["id"] {
		t.Errorf("custom reaction %v", reaction)
	}

	// Only the author or an administrator deactivates.
	bob.Delete("/api/v1/realm/emoji/party_parrot", nil).Fails(400, "BAD_REQUEST")
	alice.Delete("/api/v1/realm/emoji/party parrot", nil).OK()
	if msg := alice.Delete("/api/v1/realm/emoji/party_parrot", nil).Fails(404, "BAD_REQUEST").Msg(); msg != "Emoji 'party_parrot' does not exist" {
		t.Errorf("second delete: %q", msg)
	}
	all = bob.Get("/api/v1/realm/emoji", nil).OK().Body["emoji"].(map[string]any)
	if all[parrot["id"].(string)].(map[string]any)["deactivated"] != true {
		t.Errorf("deactivated emoji still active: %v", all)
	}
	bob.Post(msgPath(id, "/reactions"), apitest.Form{"emoji_name": "party_parrot", "reaction_type": "realm_emoji"}).Fails(400, "BAD_REQUEST")
}

func TestEmojiPolicyIsAnOrganizationSetting(t *testing.T) {
	s := apitest.Start(t)
	admin, bob := s.Login("admin@example.com"), s.Login("bob@example.com")
	sys := systemGroups(t, bob)
	setting := func(group string) apitest.Form {
		return apitest.Form{"can_add_custom_emoji_group": fmt.Sprintf(`{"new":%d}`, sys[group])}
	}
	bob.Patch("/api/v1/realm", setting("role:administrators")).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", setting("role:everyone")).Fails(400, "BAD_REQUEST")
	admin.Patch("/api/v1/realm", setting("role:administrators")).OK()
	if got := upload(bob, "mine", "m.png", apitest.PNG(t, 8)).Fails(400, "BAD_REQUEST").Msg(); got != "Insufficient permission" {
		t.Errorf("member under admins-only policy: %q", got)
	}
	upload(admin, "theirs", "t.png", apitest.PNG(t, 8)).OK()
	admin.Patch("/api/v1/realm", setting("role:members")).OK()
	upload(bob, "mine", "m.png", apitest.PNG(t, 8)).OK()
	// The default MAX_EMOJI_FILE_SIZE is 5 MiB.
	huge := "\x89PNG\r\n\x1a\n" + strings.Repeat("x", 5<<20)
	if got := upload(bob, "huge", "h.png", huge).Fails(400, "BAD_REQUEST").Msg(); got != "Uploaded file is larger than the allowed limit of 5 MiB" {
		t.Errorf("over 5 MiB: %q", got)
	}
	if state := bob.Post("/api/v1/register", apitest.Form{"fetch_event_types": []string{"realm", "realm_emoji"}}).OK(); state.Body["realm_can_add_custom_emoji_group"] != float64(sys["role:members"]) || len(state.Body["realm_emoji"].(map[string]any)) != 2 {
		t.Errorf("register state %v %v", state.Body["realm_can_add_custom_emoji_group"], state.Body["realm_emoji"])
	}
}
