package zulip_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"lanchat/backend/store"
	"lanchat/backend/teamimport"
)

// storeView is everything a store holds of a team, in a form two stores
// can be compared by. What the round trip does not keep, by design, is
// left out here and named: passwords and API keys (Zulip's import makes
// new ones too), user settings and status, muted topics, widgets'
// submessages, the sending client's name, and the server-chosen file names
// of uploads, emoji and avatars (uploads get new random paths, and the
// messages linking them are rewritten: links are compared by file name).
type storeView struct {
	Realm         store.Realm
	Users         []store.User
	Avatars       map[int64]string
	Streams       []store.Stream
	Subscriptions []store.Subscription
	Groups        []store.UserGroup
	Linkifiers    []store.Linkifier
	Emoji         []store.RealmEmoji
	EmojiImages   map[string]string
	Uploads       []store.Upload
	UploadContent map[string]string
	Messages      []store.Message
	// Flags are each user's flags on each message they hold.
	Flags map[int64]map[int64]store.Flags
}

func viewOf(t *testing.T, st *store.Store, dataDir string) storeView {
	t.Helper()
	v := storeView{Avatars: map[int64]string{}, EmojiImages: map[string]string{}, UploadContent: map[string]string{}, Flags: map[int64]map[int64]store.Flags{}}
	read := func(parts ...string) string {
		b, err := os.ReadFile(filepath.Join(append([]string{dataDir}, parts...)...))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	uploadNames := map[string]string{} // path → "upload:<file name>"
	err := st.View(func(tx *store.Tx) error {
		var err error
		if v.Realm, err = tx.Realm(); err != nil {
			return err
		}
		users, err := tx.Users()
		if err != nil {
			return err
		}
		for _, u := range users {
			if u.AvatarVersion > 0 {
				matches, _ := filepath.Glob(filepath.Join(dataDir, "avatars", fmt.Sprintf("%d-%d.*", u.ID, u.AvatarVersion)))
				if len(matches) == 1 {
					v.Avatars[u.ID] = read("avatars", filepath.Base(matches[0]))
				}
			}
			u.APIKey, u.PasswordHash, u.Settings, u.Status, u.AvatarVersion = "", "", nil, nil, 0
			v.Users = append(v.Users, u)
			ups, err := tx.UserUploads(u.ID)
			if err != nil {
				return err
			}
			for _, up := range ups {
				uploadNames[up.Path] = "upload:" + up.FileName
				v.UploadContent[up.FileName] = read("uploads", up.Stored)
				up.Path, up.Token, up.Stored = "", "", ""
				v.Uploads = append(v.Uploads, up)
			}
		}
		if v.Streams, err = tx.AllStreams(); err != nil {
			return err
		}
		// The export is for Zulip 8.0's import, whose streams have no
		// creator (streamRow) and no group settings but
		// can_remove_subscribers_group, so the round trip cannot carry the
		// rest.
		for i := range v.Streams {
			v.Streams[i].CreatorID = 0
			maps.DeleteFunc(v.Streams[i].GroupSettings, func(name string, _ store.GroupSetting) bool { return name != "can_remove_subscribers_group" })
			if len(v.Streams[i].GroupSettings) == 0 {
				v.Streams[i].GroupSettings = nil
			}
		}
		for _, u := range users {
			subs, err := tx.UserSubscriptions(u.ID)
			if err != nil {
				return err
			}
			v.Subscriptions = append(v.Subscriptions, subs...)
		}
		if v.Groups, err = tx.UserGroups(); err != nil {
			return err
		}
		// Nor have its groups a creator or settings but can_mention_group.
		for i := range v.Groups {
			v.Groups[i].Settings, v.Groups[i].CreatorID, v.Groups[i].DateCreated = nil, 0, 0
		}
		if v.Linkifiers, err = tx.Linkifiers(); err != nil {
			return err
		}
		emoji, err := tx.RealmEmojis()
		if err != nil {
			return err
		}
		for _, e := range emoji {
			v.EmojiImages[e.Name] = read("emoji", e.FileName)
			e.FileName = ""
			v.Emoji = append(v.Emoji, e)
		}
		relink := func(s string) string {
			for path, name := range uploadNames {
				s = strings.ReplaceAll(s, path, name)
			}
			return s
		}
		tx.Scan(store.AllMessagesRange(), 0, false, func(id int64) bool {
			var m store.Message
			if m, err = tx.Message(id); err != nil {
				return false
			}
			m.Content, m.Rendered, m.Client, m.Submessages = relink(m.Content), relink(m.Rendered), "", nil
			for i := range m.Edits {
				m.Edits[i].PrevContent, m.Edits[i].PrevRendered = relink(m.Edits[i].PrevContent), relink(m.Edits[i].PrevRendered)
			}
			v.Messages = append(v.Messages, m)
			v.Flags[id] = map[int64]store.Flags{}
			for _, u := range users {
				if f, ok := tx.Flags(u.ID, id); ok {
					v.Flags[id][u.ID] = f
				}
			}
			return true
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The proof: a team exported in Zulip's format and imported into
// an empty folder is the same team, record for record. IDs are the same
// too: the export keeps them and the import creates records in their order.
func TestRoundTripThroughZulipFormat(t *testing.T) {
	tm := startTeam(t)
	export := tm.export(t)
	before := viewOf(t, tm.Store(), tm.DataDir)

	dir := filepath.Join(t.TempDir(), "imported")
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dir, Format: "zulip", Archive: export})
	if err != nil {
		t.Fatal(err)
	}
	if len(summary.Skipped) != 0 {
		t.Errorf("skipped %+v", summary.Skipped)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	after := viewOf(t, st, dir)

	bv, av := reflect.ValueOf(before), reflect.ValueOf(after)
	for i := range bv.NumField() {
		name := bv.Type().Field(i).Name
		b, a := bv.Field(i), av.Field(i)
		if b.Kind() == reflect.Slice {
			if b.Len() != a.Len() {
				t.Errorf("%s: %d after the round trip, %d before", name, a.Len(), b.Len())
			}
			for j := range min(a.Len(), b.Len()) {
				if !reflect.DeepEqual(b.Index(j).Interface(), a.Index(j).Interface()) {
					t.Errorf("%s[%d]:\nbefore %+v\nafter  %+v", name, j, b.Index(j).Interface(), a.Index(j).Interface())
				}
			}
			continue
		}
		if !reflect.DeepEqual(b.Interface(), a.Interface()) {
			t.Errorf("%s:\nbefore %+v\nafter  %+v", name, b.Interface(), a.Interface())
		}
	}
}
