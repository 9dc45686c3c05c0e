package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// reopen closes s and opens its directory again, migrating it; the store
// closes when the test ends.
func reopen(t *testing.T, s *Store, dir string) *Store {
	t.Helper()
	s.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A schema-3 store holding the topic names moves used to leave behind (the
// name before the move, another topic's name, an emptied topic) is
// repaired on open: each topic is named after its newest message.
func TestOpenRepairsTopicNamesOfSchema3(t *testing.T) {
	s, dir := openTemp(t)
	var ids []int64
	err := s.Update(func(tx *Tx) error {
		for _, topic := range []string{"alpha", "Beta", "beta", "gamma"} {
			m := Message{SenderID: 1, RecipientID: 1, StreamID: 7, Topic: topic, Content: "x"}
			if err := tx.CreateMessage(&m, Recipients{}); err != nil {
				return err
			}
			ids = append(ids, m.ID)
		}
		// What the old write order stored: the moved-to topic under the
		// old name, and a topic whose messages have all gone.
		wrong := map[string]Topic{
			"beta":  {Name: "alpha", MaxID: ids[2]},
			"gamma": {Name: "Beta", MaxID: ids[3]},
			"gone":  {Name: "gone", MaxID: ids[0]},
		}
		for folded, tp := range wrong {
			if err := tx.put(bucketTopics, append(itob(7), folded...), tp); err != nil {
				return err
			}
		}
		return writeSchemaVersion(tx.btx, 3)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	var got []Topic
	s.View(func(tx *Tx) error {
		got, err = tx.StreamTopics(7)
		return err
	})
	want := []Topic{{"alpha", ids[0]}, {"beta", ids[2]}, {"gamma", ids[3]}}
	if !slices.Equal(got, want) {
		t.Errorf("topics after migration %+v, want %+v", got, want)
	}
}

// A schema-4 store's uploads, recorded without IDs, get distinct ones.
func TestOpenNumbersUploadsOfSchema4(t *testing.T) {
	s, dir := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		for _, path := range []string{"1/aa/x/a.txt", "1/bb/y/b.txt"} {
			if err := tx.put(bucketUploads, []byte(path), Upload{Path: path, OwnerID: 1}); err != nil {
				return err
			}
		}
		return writeSchemaVersion(tx.btx, 4)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	s.View(func(tx *Tx) error {
		list, err := tx.UserUploads(1)
		if err != nil || len(list) != 2 || list[0].ID == 0 || list[1].ID == 0 || list[0].ID == list[1].ID {
			t.Errorf("uploads after migration %+v (%v)", list, err)
		}
		return nil
	})
}

// A schema-5 store's full-text index, a key per term and message, becomes
// posting lists that find the same messages, and nothing is left pending.
func TestOpenRewritesSearchTermsOfSchema5(t *testing.T) {
	s, dir := openTemp(t)
	r := rand.New(rand.NewPCG(3, 4))
	oldTerms := []byte("search_terms")
	err := s.Update(func(tx *Tx) error {
		old, err := tx.btx.CreateBucket(oldTerms)
		if err != nil {
			return err
		}
		for range 600 {
			m := Message{SenderID: 1, RecipientID: 1, StreamID: 7, Topic: "topic " + randomText(r, 1), Content: randomText(r, 4)}
			if err := tx.CreateMessage(&m, Recipients{}); err != nil {
				return err
			}
			for _, term := range MessageWords(m) {
				if err := old.Put(append(append([]byte(term), 0), itob(m.ID)...), nil); err != nil {
					return err
				}
			}
		}
		// What schema 5 had: no postings and no watermark.
		if err := tx.btx.DeleteBucket(bucketSearchPostings); err != nil {
			return err
		}
		if err := tx.bucket(bucketMeta).Delete(keySearchIndexedThrough); err != nil {
			return err
		}
		return writeSchemaVersion(tx.btx, 5)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	s.View(func(tx *Tx) error {
		if tx.btx.Bucket(oldTerms) != nil {
			t.Error("the old search_terms bucket is still there")
		}
		if through := tx.searchIndexedThrough(); through != 600 {
			t.Errorf("watermark %d after migration, want 600 (every message indexed)", through)
		}
		return nil
	})
	checkSearches(t, s, "migrated")
}

// A schema-6 store, whose streams record no creator and where no user-group
// ID is reserved for role:administrators, opens with its streams as they
// were (creator unknown) and the administrators' ID taken after its groups;
// a group created later gets another, and the ID stays across reopening.
func TestOpenReservesAdministratorsGroupOfSchema6(t *testing.T) {
	s, dir := openTemp(t)
	var groups []int64
	err := s.Update(func(tx *Tx) error {
		// What schema 6 had: no reserved ID, the groups' sequence untouched.
		if err := tx.bucket(bucketMeta).Delete(systemGroupKey(AdministratorsGroup)); err != nil {
			return err
		}
		if err := tx.bucket(bucketUserGroups).SetSequence(0); err != nil {
			return err
		}
		for _, name := range []string{"design", "ops"} {
			g := UserGroup{Name: name}
			if err := tx.CreateUserGroup(&g); err != nil {
				return err
			}
			groups = append(groups, g.ID)
		}
		// A stream record as schema 6 wrote it, without creator_id.
		if err := tx.bucket(bucketStreams).Put(itob(1), []byte(`{"id":1,"name":"general","description":"","invite_only":false,"date_created":1600000000}`)); err != nil {
			return err
		}
		if err := tx.bucket(bucketStreamByName).Put(streamNameKey("general"), itob(1)); err != nil {
			return err
		}
		return writeSchemaVersion(tx.btx, 6)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	admins := viewed(t, s, func(tx *Tx) (int64, error) { return tx.SystemGroupID(AdministratorsGroup) })
	if admins == 0 || slices.Contains(groups, admins) {
		t.Errorf("administrators' group ID %d, groups %v", admins, groups)
	}
	if st := viewed(t, s, func(tx *Tx) (Stream, error) { return tx.Stream(1) }); st.Name != "general" || st.CreatorID != 0 {
		t.Errorf("stream after migration %+v", st)
	}
	var later UserGroup
	if err := s.Update(func(tx *Tx) error { return tx.CreateUserGroup(&later) }); err != nil || later.ID == admins {
		t.Errorf("a later group got ID %d (%v), the administrators' is %d", later.ID, err, admins)
	}
	s = reopen(t, s, dir)
	if again := viewed(t, s, func(tx *Tx) (int64, error) { return tx.SystemGroupID(AdministratorsGroup) }); again != admins {
		t.Errorf("administrators' group ID %d after reopening, was %d", again, admins)
	}
}

// olderStoreWithout is a store written before the buckets were added to the
// layout, opened again.
func olderStoreWithout(t *testing.T, buckets ...[]byte) *Store {
	t.Helper()
	s, dir := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		for _, b := range buckets {
			if err := tx.btx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return reopen(t, s, dir)
}

// A store written before sends were de-duplicated and messages scheduled
// has neither bucket; opening it adds both, with no version step (old
// builds ignore buckets they do not know).
func TestOpenAddsSentLocalIDsAndScheduledMessagesToOlderStore(t *testing.T) {
	s := olderStoreWithout(t, bucketSentLocalIDs, bucketScheduledMessages)
	err := s.Update(func(tx *Tx) error {
		if err := tx.PutSentLocalID(1, "q", "1.01", SentLocalID{MessageID: 7, SentAt: 100}, 0); err != nil {
			return err
		}
		m := ScheduledMessage{SenderID: 1, Type: "stream", StreamID: 1, Topic: "t", Content: "later", DeliverAt: 200}
		return tx.CreateScheduledMessage(&m)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := viewed(t, s, func(tx *Tx) (SentLocalID, error) { return tx.SentLocalID(1, "q", "1.01") }); got.MessageID != 7 {
		t.Errorf("sent local ID %+v", got)
	}
	if got := viewed(t, s, func(tx *Tx) ([]ScheduledMessage, error) { return tx.ScheduledMessages() }); len(got) != 1 || got[0].Content != "later" {
		t.Errorf("scheduled messages %+v", got)
	}
}

// A schema-7 store, with role:administrators's ID reserved but no system
// group records, opens with a record for each system group: the
// administrators' under its reserved ID, the others after the groups people
// made, each the previous one's subgroup; people's groups keep their IDs.
func TestOpenCreatesSystemGroupsOfSchema7(t *testing.T) {
	s, dir := openTemp(t)
	var admins int64
	var design UserGroup
	err := s.Update(func(tx *Tx) error {
		// What schema 7 had: the administrators' reserved ID, no records.
		for _, sg := range SystemGroups {
			id, err := tx.SystemGroupID(sg.Name)
			if err != nil {
				return err
			}
			if err := tx.DeleteUserGroup(id); err != nil {
				return err
			}
			if sg.Name == AdministratorsGroup {
				admins = id
				continue
			}
			if err := tx.bucket(bucketMeta).Delete(systemGroupKey(sg.Name)); err != nil {
				return err
			}
		}
		if err := tx.bucket(bucketUserGroups).SetSequence(uint64(admins)); err != nil {
			return err
		}
		design = UserGroup{Name: "design", Members: []int64{4}}
		if err := tx.CreateUserGroup(&design); err != nil {
			return err
		}
		return writeSchemaVersion(tx.btx, 7)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	groups := viewed(t, s, func(tx *Tx) ([]UserGroup, error) { return tx.UserGroups() })
	byName := map[string]UserGroup{}
	for _, g := range groups {
		byName[g.Name] = g
	}
	if g := byName["design"]; g.ID != design.ID || g.System || len(g.Members) != 1 {
		t.Errorf("people's group after migration %+v, was %+v", g, design)
	}
	var below int64
	for _, sg := range SystemGroups {
		g, ok := byName[sg.Name]
		id := viewed(t, s, func(tx *Tx) (int64, error) { return tx.SystemGroupID(sg.Name) })
		if !ok || !g.System || g.ID != id || g.Description != sg.Description || len(g.Members) != 0 {
			t.Errorf("%s: %+v (reserved ID %d)", sg.Name, g, id)
		}
		switch {
		case sg.Name == AdministratorsGroup && g.ID != admins:
			t.Errorf("administrators moved from ID %d to %d", admins, g.ID)
		case sg.Name != AdministratorsGroup && g.ID <= design.ID:
			t.Errorf("%s got ID %d, not after the groups people made (%d)", sg.Name, g.ID, design.ID)
		}
		if want := []int64{below}; sg.Name != NobodyGroup && below != 0 && !slices.Equal(g.Subgroups, want) {
			t.Errorf("%s subgroups %v, want %v", sg.Name, g.Subgroups, want)
		}
		below = g.ID
	}
	if nobody := byName[NobodyGroup]; len(nobody.Subgroups) != 0 {
		t.Errorf("role:nobody has subgroups %v", nobody.Subgroups)
	}
	var later UserGroup
	if err := s.Update(func(tx *Tx) error { return tx.CreateUserGroup(&later) }); err != nil || later.ID <= byName[NobodyGroup].ID {
		t.Errorf("a later group got ID %d (%v)", later.ID, err)
	}
}

// A store written before custom profile fields has neither of their
// buckets; opening it adds both, with no version step (old builds ignore
// buckets they do not know). Deleting a field takes its values along.
func TestOpenAddsProfileFieldsToOlderStore(t *testing.T) {
	s := olderStoreWithout(t, bucketProfileFields, bucketProfileValues)
	phone, pet := ProfileField{Type: 1, Name: "Phone"}, ProfileField{Type: 1, Name: "Pet"}
	err := s.Update(func(tx *Tx) error {
		for _, f := range []*ProfileField{&phone, &pet} {
			if err := tx.CreateProfileField(f); err != nil {
				return err
			}
			if err := tx.PutProfileValue(3, ProfileValue{FieldID: f.ID, Value: f.Name + " of 3"}); err != nil {
				return err
			}
		}
		return tx.DeleteProfileField(phone.ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := viewed(t, s, func(tx *Tx) ([]ProfileField, error) { return tx.ProfileFields() }); len(got) != 1 || got[0].Name != "Pet" || got[0].Order != 2 {
		t.Errorf("fields %+v", got)
	}
	if got := viewed(t, s, func(tx *Tx) ([]ProfileValue, error) { return tx.UserProfileValues(3) }); len(got) != 1 || got[0].Value != "Pet of 3" {
		t.Errorf("values %+v", got)
	}
}

// A schema-8 stream's can_remove_subscribers_group (a system group's ID)
// becomes one of its group settings; streams without one keep none.
func TestOpenMovesStreamSettingsOfSchema8(t *testing.T) {
	s, dir := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		for id, record := range map[int64]string{
			1: `{"id":1,"name":"general","description":"","invite_only":false,"date_created":5,"can_remove_subscribers_group":7}`,
			2: `{"id":2,"name":"random","description":"","invite_only":true,"date_created":6}`,
		} {
			if err := tx.bucket(bucketStreams).Put(itob(id), []byte(record)); err != nil {
				return err
			}
		}
		return writeSchemaVersion(tx.btx, 8)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	streams := viewed(t, s, func(tx *Tx) ([]Stream, error) { return tx.AllStreams() })
	if len(streams) != 2 || streams[0].Name != "general" || streams[0].GroupSettings["can_remove_subscribers_group"].Group != 7 ||
		streams[1].GroupSettings != nil || !streams[1].InviteOnly {
		t.Errorf("streams after migration %+v", streams)
	}
}

// A schema-9 organization's invite_to_realm_policy becomes its
// can_invite_users_group.
func TestOpenTurnsInvitePolicyOfSchema9IntoAGroup(t *testing.T) {
	s, dir := openTemp(t)
	err := s.Update(func(tx *Tx) error {
		if err := tx.bucket(bucketMeta).Put(keyRealm, []byte(`{"name":"Acme","invite_to_realm_policy":4,"group_settings":{"can_create_public_channel_group":{"group":3}}}`)); err != nil {
			return err
		}
		return writeSchemaVersion(tx.btx, 9)
	})
	if err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	r := viewed(t, s, func(tx *Tx) (Realm, error) { return tx.Realm() })
	moderators := viewed(t, s, func(tx *Tx) (int64, error) { return tx.SystemGroupID(ModeratorsGroup) })
	if r.Name != "Acme" || r.GroupSettings["can_invite_users_group"].Group != moderators || r.GroupSettings["can_create_public_channel_group"].Group != 3 {
		t.Errorf("realm after migration %+v (moderators %d)", r, moderators)
	}
}

// A store written before code playgrounds has no bucket for them; opening
// it adds one, with no version step, and the first playground gets ID 1.
func TestOpenAddsPlaygroundsToOlderStore(t *testing.T) {
	s, dir := openTemp(t)
	if err := s.Update(func(tx *Tx) error { return tx.btx.DeleteBucket(bucketPlaygrounds) }); err != nil {
		t.Fatal(err)
	}
	s = reopen(t, s, dir)
	p := Playground{Name: "Python", PygmentsLanguage: "Python", URLTemplate: "https://py.lan/?c={code}"}
	if err := s.Update(func(tx *Tx) error { return tx.CreatePlayground(&p) }); err != nil {
		t.Fatal(err)
	}
	if got := viewed(t, s, func(tx *Tx) ([]Playground, error) { return tx.Playgrounds() }); len(got) != 1 || got[0] != p || p.ID != 1 {
		t.Errorf("playgrounds %+v", got)
	}
}
