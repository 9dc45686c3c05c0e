package zulip_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/archive/zulip"
	"lanchat/backend/store"
)

// readExport opens an export file and reads it into a recorder.
func readExport(t *testing.T, name string) (*archivetest.Recorder, error) {
	t.Helper()
	a, err := archive.OpenTarGz(name, filepath.Join(t.TempDir(), "unpacked"), archive.DefaultLimits)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	rec := &archivetest.Recorder{}
	return rec, zulip.Read(a, rec)
}

// TestReadBackWhatWasWritten reads the team's export and checks each
// record against the store it came from.
func TestReadBackWhatWasWritten(t *testing.T) {
	tm := startTeam(t)
	rec, err := readExport(t, tm.export(t))
	if err != nil {
		t.Fatal(err)
	}
	var (
		users    []store.User
		streams  []store.Stream
		messages []store.Message
		groups   []store.UserGroup
		realm    store.Realm
		emoji    []store.RealmEmoji
	)
	flags := map[int64]map[string][]string{}
	err = tm.Store().View(func(tx *store.Tx) error {
		realm, _ = tx.Realm()
		users, _ = tx.Users()
		streams, _ = tx.AllStreams()
		all, _ := tx.UserGroups()
		// System groups are written as Zulip's own, and read back as roles.
		groups = slices.DeleteFunc(all, func(g store.UserGroup) bool { return g.System })
		emoji, _ = tx.RealmEmojis()
		tx.Scan(store.AllMessagesRange(), 0, false, func(id int64) bool {
			m, _ := tx.Message(id)
			messages = append(messages, m)
			flags[id] = map[string][]string{}
			for _, u := range users {
				if f, ok := tx.Flags(u.ID, id); ok {
					flags[id][strconv.FormatInt(u.ID, 10)] = f.Names()
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(id int64) string { return strconv.FormatInt(id, 10) }

	if rec.RealmRecord.Name != realm.Name || rec.RealmRecord.DateCreated != realm.DateCreated {
		t.Errorf("realm %+v, want %q created %d", rec.RealmRecord, realm.Name, realm.DateCreated)
	}
	if len(rec.Users) != len(users) {
		t.Fatalf("%d users, want %d", len(rec.Users), len(users))
	}
	for i, u := range users {
		got := rec.Users[i]
		owner := ""
		if u.BotOwnerID != 0 {
			owner = ref(u.BotOwnerID)
		}
		want := archive.User{Ref: ref(u.ID), Email: u.Email, FullName: u.FullName, Role: u.Role, Active: u.IsActive,
			BotType: u.BotType, BotOwnerRef: owner, Timezone: u.Timezone, DateJoined: u.DateJoined}
		if !slices.Equal(got.AlertWords, u.AlertWords) {
			t.Errorf("user %s: alert words %v, want %v", u.Email, got.AlertWords, u.AlertWords)
		}
		hasAvatar := got.Avatar != nil
		got.Avatar = nil
		if got.Ref != want.Ref || got.Email != want.Email || got.FullName != want.FullName || got.Role != want.Role ||
			got.Active != want.Active || got.BotType != want.BotType || got.BotOwnerRef != want.BotOwnerRef ||
			got.Timezone != want.Timezone || got.DateJoined != want.DateJoined {
			t.Errorf("user %d: %+v, want %+v", u.ID, got, want)
		}
		if hasAvatar != (u.AvatarVersion > 0) {
			t.Errorf("user %s: avatar %v, want %v", u.Email, hasAvatar, u.AvatarVersion > 0)
		}
	}
	if len(rec.Streams) != len(streams) {
		t.Fatalf("%d streams, want %d", len(rec.Streams), len(streams))
	}
	err = tm.Store().View(func(tx *store.Tx) error {
		for i, s := range streams {
			got := rec.Streams[i]
			var members []string
			for _, uid := range tx.StreamSubscriberIDs(s.ID) {
				members = append(members, ref(uid))
			}
			slices.Sort(members)
			slices.Sort(got.MemberRefs)
			if got.Ref != ref(s.ID) || got.Name != s.Name || got.Description != s.Description || got.InviteOnly != s.InviteOnly ||
				got.DateCreated != s.DateCreated || got.Archived != s.Deactivated || got.Default != slices.Contains(realm.DefaultStreamIDs, s.ID) ||
				!slices.Equal(got.MemberRefs, members) {
				t.Errorf("stream %s: %+v, want members %v", s.Name, got, members)
			}
			for _, u := range users {
				sub, err := tx.Subscription(u.ID, s.ID)
				if err != nil {
					continue
				}
				g, ok := got.Subscriptions[ref(u.ID)]
				if !ok || g.Color != sub.Color || g.Muted != sub.IsMuted || g.PinToTop != sub.PinToTop {
					t.Errorf("stream %s user %s: settings %+v, want %+v", s.Name, u.Email, g, sub)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.UserGroups) != len(groups) {
		t.Fatalf("groups %+v, want %+v", rec.UserGroups, groups)
	}
	for i, g := range groups {
		var members []string
		for _, uid := range g.Members {
			members = append(members, ref(uid))
		}
		if got := rec.UserGroups[i]; got.Name != g.Name || got.Description != g.Description || !slices.Equal(got.MemberRefs, members) {
			t.Errorf("group %+v, want %+v", got, g)
		}
	}
	if len(rec.Linkifiers) != 1 || rec.Linkifiers[0].URLTemplate != "https://git.lan/issues/{id}" {
		t.Errorf("linkifiers %+v", rec.Linkifiers)
	}
	if len(rec.Emojis) != len(emoji) || rec.Emojis[0].Name != "party_parrot" || rec.Emojis[0].OwnerRef != ref(emoji[0].AuthorID) {
		t.Errorf("emoji %+v, want %+v", rec.Emojis, emoji)
	}
	if len(rec.Files) != 1 || rec.Files[0].Name != "notes.txt" || string(rec.FileContent[rec.Files[0].Ref]) != "the notes" {
		t.Fatalf("files %+v", rec.Files)
	}
	newURL := "/user_uploads/test/" + rec.Files[0].Ref + "/notes.txt"

	if len(rec.Messages) != len(messages) {
		t.Fatalf("%d messages, want %d", len(rec.Messages), len(messages))
	}
	for i, m := range messages {
		got := rec.Messages[i]
		content := strings.ReplaceAll(m.Content, tm.upload, newURL)
		var private []string
		for _, uid := range m.PrivateUserIDs {
			private = append(private, ref(uid))
		}
		stream := ""
		if m.StreamID != 0 {
			stream = ref(m.StreamID)
		}
		slices.Sort(got.PrivateRefs)
		if got.Ref != ref(m.ID) || got.SenderRef != ref(m.SenderID) || got.StreamRef != stream || got.Topic != m.Topic ||
			!slices.Equal(got.PrivateRefs, private) || got.Content != content || got.Timestamp != m.Timestamp ||
			got.EditTimestamp != m.LastEditTimestamp {
			t.Errorf("message %d: %+v\nwant %+v", m.ID, got, m)
		}
		if len(got.Edits) != len(m.Edits) {
			t.Errorf("message %d edits %+v, want %+v", m.ID, got.Edits, m.Edits)
		}
		for j, e := range m.Edits {
			if j >= len(got.Edits) {
				break
			}
			g := got.Edits[j]
			if g.Timestamp != e.Timestamp || g.UserRef != ref(e.UserID) || g.PrevContent != e.PrevContent || g.PrevRendered != e.PrevRendered || g.PrevTopic != e.PrevTopic {
				t.Errorf("message %d edit %d: %+v, want %+v", m.ID, j, g, e)
			}
		}
		if len(got.Reactions) != len(m.Reactions) {
			t.Errorf("message %d reactions %+v, want %+v", m.ID, got.Reactions, m.Reactions)
		}
		for j, r := range m.Reactions {
			if j >= len(got.Reactions) {
				break
			}
			g := got.Reactions[j]
			code := r.EmojiCode
			if r.ReactionType == "realm_emoji" {
				code = "" // the old ID means nothing to the importer
			}
			if g.UserRef != ref(r.UserID) || g.EmojiName != r.EmojiName || g.EmojiCode != code || g.ReactionType != r.ReactionType {
				t.Errorf("message %d reaction %+v, want %+v", m.ID, g, r)
			}
		}
		for user, want := range flags[m.ID] {
			if g := got.UserFlags[user]; !slices.Equal(g, want) {
				t.Errorf("message %d user %s flags %v, want %v", m.ID, user, g, want)
			}
		}
		if len(got.UserFlags) != len(flags[m.ID]) {
			t.Errorf("message %d flags for %d users, want %d", m.ID, len(got.UserFlags), len(flags[m.ID]))
		}
	}
	if len(rec.Skipped) != 0 {
		t.Errorf("skipped %v", rec.Skipped)
	}
}

// TestReadUnpackedExport reads the folder a Zulip tarball unpacks into.
func TestReadUnpackedExport(t *testing.T) {
	tm := startTeam(t)
	dir := t.TempDir()
	for name, data := range untar(t, tm.export(t)) {
		writeFile(t, filepath.Join(dir, name), data)
	}
	for _, root := range []string{dir, filepath.Join(dir, "zulip-export-test")} {
		a, err := archive.OpenDir(root)
		if err != nil {
			t.Fatal(err)
		}
		rec := &archivetest.Recorder{}
		if err := zulip.Read(a, rec); err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		if len(rec.Users) == 0 || len(rec.Messages) == 0 {
			t.Errorf("%s: %d users, %d messages", root, len(rec.Users), len(rec.Messages))
		}
	}
}
