package zulip_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/archive/zulip"
)

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// minimal is a small export by hand: two users, a stream both are in, a
// stream message and a direct one.
func minimal() map[string]any {
	return map[string]any{
		"realm.json": map[string]any{
			"zerver_realm": []any{map[string]any{"id": 1, "name": "Org", "date_created": 1.7e9}},
			"zerver_userprofile": []any{
				map[string]any{"id": 10, "delivery_email": "a@x.org", "full_name": "A", "role": 100, "is_active": true},
				map[string]any{"id": 11, "delivery_email": "b@x.org", "full_name": "B", "role": 400, "is_active": true},
			},
			"zerver_stream":       []any{map[string]any{"id": 5, "name": "general"}},
			"zerver_recipient":    []any{map[string]any{"id": 1, "type": 1, "type_id": 10}, map[string]any{"id": 2, "type": 1, "type_id": 11}, map[string]any{"id": 3, "type": 2, "type_id": 5}},
			"zerver_subscription": []any{map[string]any{"id": 1, "user_profile": 10, "recipient": 3, "active": true}, map[string]any{"id": 2, "user_profile": 11, "recipient": 3, "active": true}},
			"zerver_reaction":     []any{map[string]any{"id": 1, "user_profile": 11, "message": 100, "emoji_name": "smile", "emoji_code": "1f604", "reaction_type": "unicode_emoji"}},
		},
		"messages-000001.json": map[string]any{
			"zerver_message": []any{
				map[string]any{"id": 100, "sender": 10, "recipient": 3, "subject": "hi", "content": "hello", "date_sent": 1.7e9},
				map[string]any{"id": 101, "sender": 11, "recipient": 1, "content": "psst", "date_sent": 1.7e9 + 1},
			},
			"zerver_usermessage": []any{map[string]any{"id": 1, "user_profile": 11, "message": 100, "flags_mask": 3}},
		},
	}
}

func mapFS(t testing.TB, files map[string]any) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, v := range files {
		data, ok := v.([]byte)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	return fsys
}

func table(files map[string]any, file, name string) []any {
	return files[file].(map[string]any)[name].([]any)
}

func row(files map[string]any, file, name string, i int) map[string]any {
	return table(files, file, name)[i].(map[string]any)
}

func TestReadMinimalExport(t *testing.T) {
	rec := &archivetest.Recorder{}
	if err := zulip.Read(&archive.Archive{FS: mapFS(t, minimal())}, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Users) != 2 || len(rec.Streams) != 1 || len(rec.Messages) != 2 {
		t.Fatalf("%d users, %d streams, %d messages", len(rec.Users), len(rec.Streams), len(rec.Messages))
	}
	hello, psst := rec.Messages[0], rec.Messages[1]
	if hello.StreamRef != "5" || hello.Topic != "hi" || len(hello.Reactions) != 1 || strings.Join(hello.UserFlags["11"], ",") != "read,starred" {
		t.Errorf("stream message %+v", hello)
	}
	if strings.Join(psst.PrivateRefs, ",") != "11,10" || psst.UserFlags == nil {
		t.Errorf("direct message %+v", psst)
	}
}

// A Zulip 9.0 export names each stream's creator (null when unknown).
func TestReadStreamCreator(t *testing.T) {
	for _, c := range []struct {
		creator any
		want    string
	}{{10, "10"}, {nil, ""}} {
		files := minimal()
		row(files, "realm.json", "zerver_stream", 0)["creator"] = c.creator
		rec := &archivetest.Recorder{}
		if err := zulip.Read(&archive.Archive{FS: mapFS(t, files)}, rec); err != nil {
			t.Fatal(err)
		}
		if got := rec.Streams[0].CreatorRef; got != c.want {
			t.Errorf("creator %v read as %q, want %q", c.creator, got, c.want)
		}
	}
}

func TestReadRefusesMalformedExports(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(map[string]any)
		record string
	}{
		{"not json", func(f map[string]any) { f["realm.json"] = []byte(`{"zerver_realm": [`) }, "realm.json"},
		{"wrong type", func(f map[string]any) { row(f, "realm.json", "zerver_userprofile", 0)["id"] = "ten" }, "realm.json"},
		{"no realm", func(f map[string]any) { delete(f, "realm.json") }, "realm.json"},
		{"repeated user", func(f map[string]any) { row(f, "realm.json", "zerver_userprofile", 1)["id"] = 10 }, "realm.json zerver_userprofile id 10"},
		{"dangling bot owner", func(f map[string]any) {
			u := row(f, "realm.json", "zerver_userprofile", 1)
			u["is_bot"], u["bot_type"], u["bot_owner"] = true, 1, 99
		}, "realm.json zerver_userprofile id 11 bot_owner"},
		{"dangling subscriber", func(f map[string]any) { row(f, "realm.json", "zerver_subscription", 1)["user_profile"] = 99 }, "realm.json zerver_subscription id 2"},
		{"dangling subscription recipient", func(f map[string]any) { row(f, "realm.json", "zerver_subscription", 1)["recipient"] = 99 }, "realm.json zerver_subscription id 2"},
		{"dangling stream creator", func(f map[string]any) { row(f, "realm.json", "zerver_stream", 0)["creator"] = 99 }, "realm.json zerver_stream id 5"},
		{"dangling reaction", func(f map[string]any) { row(f, "realm.json", "zerver_reaction", 0)["user_profile"] = 99 }, "realm.json zerver_reaction id 1"},
		{"dangling sender", func(f map[string]any) { row(f, "messages-000001.json", "zerver_message", 0)["sender"] = 99 }, "messages-000001.json zerver_message id 100"},
		{"dangling recipient", func(f map[string]any) { row(f, "messages-000001.json", "zerver_message", 1)["recipient"] = 99 }, "messages-000001.json zerver_message id 101"},
		{"dangling flags", func(f map[string]any) { row(f, "messages-000001.json", "zerver_usermessage", 0)["user_profile"] = 99 }, "messages-000001.json zerver_usermessage id 1"},
		{"broken messages", func(f map[string]any) { f["messages-000001.json"] = []byte(`{"zerver_message": 7}`) }, "messages-000001.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := minimal()
			tc.break_(files)
			err := zulip.Read(&archive.Archive{FS: mapFS(t, files)}, &archivetest.Recorder{})
			var ae *archive.Error
			if !errors.As(err, &ae) || ae.Record != tc.record {
				t.Fatalf("got %v, want an archive.Error naming %s", err, tc.record)
			}
		})
	}
}

func TestReadSkipsSystemBotMessages(t *testing.T) {
	files := minimal()
	realm := files["realm.json"].(map[string]any)
	realm["zerver_userprofile_crossrealm"] = []any{map[string]any{"id": 3, "email": "welcome-bot@zulip.com", "recipient_id": 9}}
	row(files, "messages-000001.json", "zerver_message", 0)["sender"] = 3
	rec := &archivetest.Recorder{}
	if err := zulip.Read(&archive.Archive{FS: mapFS(t, files)}, rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Messages) != 1 || len(rec.Skipped) != 1 || !strings.Contains(rec.Skipped[0], "welcome-bot@zulip.com") {
		t.Errorf("messages %+v, skipped %v", rec.Messages, rec.Skipped)
	}
}

// FuzzRead feeds the reader mangled realm.json and message files: it
// returns an error or reads them, and never panics.
func FuzzRead(f *testing.F) {
	files := minimal()
	seed := mapFS(f, files)
	f.Add(seed["realm.json"].Data, seed["messages-000001.json"].Data)
	f.Add([]byte(`{"zerver_realm":[{}],"zerver_userprofile":[{"id":1}],"zerver_recipient":[{"id":1,"type":3}]}`), []byte(`{"zerver_message":[{"id":1,"sender":1,"recipient":1}]}`))
	f.Fuzz(func(t *testing.T, realm, messages []byte) {
		fsys := fstest.MapFS{"realm.json": {Data: realm}, "messages-000001.json": {Data: messages}}
		zulip.Read(&archive.Archive{FS: fsys}, &archivetest.Recorder{})
	})
}
