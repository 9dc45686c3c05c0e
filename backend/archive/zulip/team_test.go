package zulip_test

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/archive/zulip"
	"lanchat/backend/store"
)

// team is a demo organization with a bit of everything an export carries:
// roles and bots (the demo's), a private stream, stream messages, direct
// messages one-to-one, to oneself and to a group, reactions with a unicode
// and a custom emoji, edits of content and topic, a message moved to
// another stream, a member who joined after a stream's messages, an archived
// stream, a deactivated user, stars and read state, an
// alert word, a muted and recoloured subscription, an upload linked from a
// message, an avatar, a user group and a linkifier.
type team struct {
	*apitest.Server
	upload string // the upload's URL path
}

func startTeam(t *testing.T) team {
	t.Helper()
	s := apitest.Start(t)
	admin, alice, bob := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com")
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{
		"subscriptions": []map[string]string{{"name": "vault", "description": "Secrets"}}, "invite_only": true,
		"principals": []string{"admin@example.com", "alice@example.com"},
	}).OK()
	admin.PostMultipart("/api/v1/realm/emoji/party_parrot", nil, map[string][2]string{"file": {"p.png", apitest.PNG(t, 8)}}).OK()
	alice.PostMultipart("/api/v1/users/me/avatar", nil, map[string][2]string{"file": {"me.png", apitest.PNG(t, 16)}}).OK()
	uri := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"notes.txt", "the notes"}}).OK().Str("uri")
	admin.Post("/api/v1/realm/filters", apitest.Form{"pattern": `#(?P<id>[0-9]+)`, "url_template": "https://git.lan/issues/{id}"}).OK()
	alice.Post("/api/v1/user_groups/create", apitest.Form{"name": "design", "description": "Pixels", "members": []int64{userID(t, alice)}}).OK()

	bob.Post("/api/v1/users/me/alert_words", apitest.Form{"alert_words": []string{"deploy"}}).OK()
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	bob.Post("/api/v1/users/me/subscriptions/properties", apitest.Form{"subscription_data": []map[string]any{
		{"stream_id": general, "property": "is_muted", "value": true}, {"stream_id": general, "property": "color", "value": "#fae589"},
	}}).OK()

	send := func(c *apitest.Client, f apitest.Form) int64 { return c.Post("/api/v1/messages", f).OK().Int("id") }
	hello := send(alice, apitest.Form{"type": "stream", "to": "general", "topic": "greetings", "content": "hello @**Bob Brown**, see #12"})
	secret := send(admin, apitest.Form{"type": "stream", "to": "vault", "topic": "keys", "content": fmt.Sprintf("[notes](%s)", uri)})
	alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "vault", "topic": "keys", "content": "got it"}).OK()
	dm := send(bob, apitest.Form{"type": "private", "to": `["alice@example.com"]`, "content": "psst"})
	send(bob, apitest.Form{"type": "private", "to": `["bob@example.com"]`, "content": "note to self"})
	group := send(alice, apitest.Form{"type": "private", "to": `["bob@example.com","admin@example.com"]`, "content": "all three"})
	bob.Post(fmt.Sprintf("/api/v1/messages/%d/reactions", hello), apitest.Form{"emoji_name": "smile"}).OK()
	admin.Post(fmt.Sprintf("/api/v1/messages/%d/reactions", hello), apitest.Form{"emoji_name": "party_parrot"}).OK()
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", hello), apitest.Form{"content": "hello @**Bob Brown**, see #13"}).OK()
	alice.Patch(fmt.Sprintf("/api/v1/messages/%d", hello), apitest.Form{"topic": "welcome"}).OK()
	send(bob, apitest.Form{"type": "stream", "to": "general", "topic": "welcome", "content": "we deploy at noon"})
	deploy := send(bob, apitest.Form{"type": "stream", "to": "general", "topic": "welcome", "content": "deploy moved"})
	vault := admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "vault"}).OK().Int("stream_id")
	admin.Patch(fmt.Sprintf("/api/v1/messages/%d", deploy), apitest.Form{"stream_id": vault, "propagate_mode": "change_one"}).OK()
	// Bob joins the vault after its messages: he does not hold them.
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "vault"}}, "principals": []string{"bob@example.com"}}).OK()
	admin.Post("/api/v1/users/me/subscriptions", apitest.Form{"subscriptions": []map[string]string{{"name": "attic"}}}).OK()
	send(admin, apitest.Form{"type": "stream", "to": "attic", "topic": "boxes", "content": "dusty"})
	admin.Delete(fmt.Sprintf("/api/v1/streams/%d", admin.Get("/api/v1/get_stream_id", apitest.Form{"stream": "attic"}).OK().Int("stream_id")), nil).OK()
	admin.Delete(fmt.Sprintf("/api/v1/users/%d", userID(t, s.Login("guest@example.com"))), nil).OK()
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{hello, group}, "op": "add", "flag": "starred"}).OK()
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{hello}, "op": "add", "flag": "read"}).OK()
	alice.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{dm, secret}, "op": "add", "flag": "read"}).OK()
	// No API names default streams yet; the store does.
	err := s.Store().Update(func(tx *store.Tx) error {
		realm, err := tx.Realm()
		if err != nil {
			return err
		}
		general, err := tx.StreamByName("general")
		if err != nil {
			return err
		}
		realm.DefaultStreamIDs = []int64{general.ID}
		return tx.PutRealm(realm)
	})
	if err != nil {
		t.Fatal(err)
	}
	return team{Server: s, upload: uri}
}

func userID(t *testing.T, c *apitest.Client) int64 {
	t.Helper()
	return c.Get("/api/v1/users/me", nil).OK().Int("user_id")
}

// export writes the team's Zulip export into a file and returns its path.
func (tm team) export(t *testing.T) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "export.tar.gz")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := zulip.Write(f, tm.Store(), tm.DataDir, "zulip-export-test"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return name
}

// untar reads a tar.gz's regular files into memory.
func untar(t *testing.T, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[hdr.Name] = b
	}
}
