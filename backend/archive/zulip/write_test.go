package zulip_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/archive/zulip"
	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// importRealm is what Zulip's importer reads of an export, file by file
// and table by table: the keys it indexes (a missing one is a KeyError that
// aborts `./manage.py import`), and for the tables it turns into Django
// models with Model(**row), the columns a row may have at all (an unknown
// one is a TypeError). From zerver/lib/import_realm.py (and models.py,
// export.py for DATE_FIELDS) at github.com/onehashai/onehash-connect
// 8ec1573e8a, a fork of zulip/zulip 8.0-dev.
var importRealm = []struct {
	file, table string
	required    []string
	columns     []string // nil: not built with Model(**row)
	source      string
}{
	{"realm.json", "zerver_realm", []string{"id", "string_id", "name", "deactivated", "date_created", "notifications_stream", "signup_notifications_stream", "create_multiuse_invite_group"},
		[]string{"id", "string_id", "name", "description", "deactivated", "date_created", "notifications_stream", "signup_notifications_stream", "create_multiuse_invite_group", "add_custom_emoji_policy"},
		"import_realm.py:957-972,1419; export.py:294; models.py:304,415,792"},
	{"realm.json", "zerver_realmauthenticationmethod", []string{"id", "realm", "name"}, []string{"id", "realm", "name"}, "import_realm.py:84,1074; models.py:263"},
	{"realm.json", "zerver_userprofile", []string{"id", "realm", "email", "delivery_email", "bot_owner", "default_sending_stream", "default_events_register_stream", "last_active_message_id", "user_permissions", "groups", "date_joined", "last_login", "last_reminder"},
		[]string{"id", "realm", "email", "delivery_email", "full_name", "role", "is_active", "is_bot", "bot_type", "bot_owner", "date_joined", "last_login", "last_reminder", "timezone", "avatar_source", "avatar_version", "is_mirror_dummy", "tos_version", "default_sending_stream", "default_events_register_stream", "last_active_message_id", "user_permissions", "groups"},
		"import_realm.py:1036-1063; export.py:301; models.py:1831-2014"},
	{"realm.json", "zerver_userprofile_mirrordummy", nil, nil, "import_realm.py:942"},
	{"realm.json", "zerver_userprofile_crossrealm", nil, nil, "import_realm.py:1023"},
	{"realm.json", "zerver_client", []string{"id", "name"}, nil, "import_realm.py:693-699,950"},
	{"realm.json", "zerver_stream", []string{"id", "realm", "date_created", "description", "can_remove_subscribers_group"},
		[]string{"id", "realm", "name", "description", "invite_only", "history_public_to_subscribers", "is_web_public", "date_created", "deactivated", "can_remove_subscribers_group"},
		"import_realm.py:956,1001-1015; models.py:2618-2728"},
	{"realm.json", "zerver_usergroup", []string{"id", "realm", "can_mention_group"},
		[]string{"id", "realm", "name", "description", "is_system_group", "can_mention_group"}, "import_realm.py:959,986-991; models.py:2310-2336"},
	{"realm.json", "zerver_usergroupmembership", []string{"id", "user_group", "user_profile"}, []string{"id", "user_group", "user_profile"}, "import_realm.py:1216-1222"},
	{"realm.json", "zerver_groupgroupmembership", []string{"id", "supergroup", "subgroup"}, []string{"id", "supergroup", "subgroup"}, "import_realm.py:1225-1231"},
	{"realm.json", "zerver_defaultstream", []string{"id", "realm", "stream"}, []string{"id", "realm", "stream"}, "import_realm.py:1072-1077"},
	{"realm.json", "zerver_realmemoji", []string{"id", "realm", "author", "name"}, []string{"id", "realm", "name", "author", "file_name", "deactivated", "is_animated"}, "import_realm.py:1073-1077,536-541; models.py:1150-1175"},
	{"realm.json", "zerver_realmdomain", nil, nil, "import_realm.py:87,1074"},
	{"realm.json", "zerver_realmfilter", []string{"id", "realm", "pattern", "url_template"}, []string{"id", "realm", "pattern", "url_template", "order"}, "import_realm.py:88,1074; models.py:1291-1301"},
	{"realm.json", "zerver_realmplayground", nil, nil, "import_realm.py:89,1074"},
	{"realm.json", "zerver_recipient", []string{"id", "type", "type_id"}, []string{"id", "type", "type_id"}, "import_realm.py:1099-1124,485-500"},
	{"realm.json", "zerver_subscription", []string{"id", "user_profile", "recipient"},
		[]string{"id", "user_profile", "recipient", "active", "is_muted", "color", "pin_to_top", "desktop_notifications", "audible_notifications", "push_notifications", "email_notifications", "wildcard_mentions_notify"},
		"import_realm.py:1128-1134,272-276; models.py:3916-3990"},
	{"realm.json", "zerver_huddle", []string{"id", "huddle_hash"}, []string{"id", "huddle_hash"}, "import_realm.py:1091-1096,1174-1180; models.py:4207-4223"},
	{"realm.json", "zerver_reaction", []string{"id", "message", "user_profile", "emoji_name", "emoji_code", "reaction_type"},
		[]string{"id", "message", "user_profile", "emoji_name", "emoji_code", "reaction_type"}, "import_realm.py:1360-1364,530-548"},
	{"realm.json", "zerver_alertword", []string{"id", "user_profile", "realm", "word"}, []string{"id", "user_profile", "realm", "word"}, "import_realm.py:1182-1186"},
	{"realm.json", "zerver_userpresence", nil, nil, "import_realm.py:1265-1269"},
	{"realm.json", "zerver_useractivity", nil, nil, "import_realm.py:1271-1275"},
	{"realm.json", "zerver_useractivityinterval", nil, nil, "import_realm.py:1277-1282"},
	{"realm.json", "zerver_customprofilefield", nil, nil, "import_realm.py:1284-1286"},
	{"realm.json", "zerver_customprofilefieldvalue", nil, nil, "import_realm.py:1288-1295"},
	{"messages-000001.json", "zerver_message", []string{"id", "sender", "recipient", "sending_client", "realm", "date_sent", "last_edit_time", "has_attachment", "content", "rendered_content"},
		[]string{"id", "sender", "recipient", "realm", "subject", "content", "rendered_content", "rendered_content_version", "date_sent", "sending_client", "last_edit_time", "edit_history", "has_attachment", "has_image", "has_link"},
		"import_realm.py:1465,1515-1536,182; export.py:291; models.py:3021-3050"},
	{"messages-000001.json", "zerver_usermessage", []string{"message", "user_profile", "flags_mask"}, nil, "import_realm.py:1548-1552,602-605,560-566"},
	{"attachment.json", "zerver_attachment", []string{"id", "owner", "realm", "create_time", "path_id", "messages", "scheduled_messages"},
		[]string{"id", "owner", "realm", "file_name", "path_id", "create_time", "size", "content_type", "is_realm_public", "is_web_public", "messages", "scheduled_messages"},
		"import_realm.py:1396-1406,1560-1622; models.py:3672-3736"},
	{"uploads/records.json", "", []string{"realm_id", "user_profile_id", "s3_path", "path"}, nil, "import_realm.py:766-876"},
	{"avatars/records.json", "", []string{"realm_id", "user_profile_id", "s3_path", "path"}, nil, "import_realm.py:720-723,795-803"},
	{"emoji/records.json", "", []string{"realm_id", "file_name", "s3_path", "path"}, nil, "import_realm.py:806-811"},
}

func TestExportHasWhatZulipImportReads(t *testing.T) {
	tm := startTeam(t)
	files := untar(t, tm.export(t))
	const root = "zulip-export-test/"
	for name := range files {
		if !strings.HasPrefix(name, root) {
			t.Errorf("%s is outside the export's one folder", name)
		}
	}
	for _, tc := range importRealm {
		data, ok := files[root+tc.file]
		if !ok {
			t.Errorf("%s is missing (%s)", tc.file, tc.source)
			continue
		}
		var rows []map[string]json.RawMessage
		if tc.table == "" {
			if err := json.Unmarshal(data, &rows); err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
		} else {
			var tables map[string]json.RawMessage
			if err := json.Unmarshal(data, &tables); err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			raw, ok := tables[tc.table]
			if !ok {
				t.Errorf("%s has no table %s (%s)", tc.file, tc.table, tc.source)
				continue
			}
			if err := json.Unmarshal(raw, &rows); err != nil {
				t.Fatalf("%s %s is not a list of rows: %v", tc.file, tc.table, err)
			}
		}
		if len(tc.required) > 0 && len(rows) == 0 {
			t.Errorf("%s %s: no rows; the team has some", tc.file, tc.table)
		}
		for i, row := range rows {
			for _, key := range tc.required {
				if _, ok := row[key]; !ok {
					t.Errorf("%s %s[%d] lacks %q, which Zulip's import reads (%s)", tc.file, tc.table, i, key, tc.source)
				}
			}
			if tc.columns == nil {
				continue
			}
			for key := range row {
				if !slices.Contains(tc.columns, key) {
					t.Errorf("%s %s[%d] has %q, not a column of Zulip's model (%s)", tc.file, tc.table, i, key, tc.source)
				}
			}
		}
	}
}

// Messages go ChunkSize to a file, in ID order, each file with the rows of
// its own messages only, as Zulip's export writes them.
func TestExportChunksMessages(t *testing.T) {
	tm := startTeam(t)
	var before int
	tm.Store().View(func(tx *store.Tx) error {
		tx.Scan(store.AllMessagesRange(), 0, false, func(int64) bool { before++; return true })
		return nil
	})
	var alice int64
	tm.Store().View(func(tx *store.Tx) error {
		u, err := tx.UserByEmail("alice@example.com")
		alice = u.ID
		return err
	})
	more := 2*zulip.ChunkSize + 10 - before
	batch := make([]domain.ImportedMessage, more)
	for i := range batch {
		batch[i] = domain.ImportedMessage{SenderID: alice, Timestamp: 1700000000 + int64(i),
			OutgoingMessage: domain.OutgoingMessage{Type: "stream", Stream: "general", Topic: "bulk", Content: fmt.Sprint("message ", i)}}
	}
	if _, err := tm.Service().ImportMessages(batch); err != nil {
		t.Fatal(err)
	}
	files := untar(t, tm.export(t))
	var last int64
	for i, want := range []int{zulip.ChunkSize, zulip.ChunkSize, 10} {
		name := fmt.Sprintf("zulip-export-test/messages-%06d.json", i+1)
		var f struct {
			Messages     []struct{ ID int64 }                   `json:"zerver_message"`
			UserMessages []struct{ Message, UserProfile int64 } `json:"zerver_usermessage"`
		}
		if err := json.Unmarshal(files[name], &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(f.Messages) != want {
			t.Errorf("%s holds %d messages, want %d", name, len(f.Messages), want)
		}
		ids := map[int64]bool{}
		for _, m := range f.Messages {
			if m.ID <= last {
				t.Errorf("%s: message %d after %d", name, m.ID, last)
			}
			last = m.ID
			ids[m.ID] = true
		}
		for _, um := range f.UserMessages {
			if !ids[um.Message] {
				t.Errorf("%s has a row of message %d, which another file holds", name, um.Message)
			}
		}
		if len(f.UserMessages) < len(f.Messages) {
			t.Errorf("%s: %d rows for %d messages", name, len(f.UserMessages), len(f.Messages))
		}
	}
	if _, ok := files["zulip-export-test/messages-000004.json"]; ok {
		t.Error("a fourth message file")
	}
}
