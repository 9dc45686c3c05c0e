package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

var keySchemaVersion = []byte("schema_version")

// migrations[i] moves a store from schema version i to i+1. Append only: a
// released step never changes, and each ships with a test opening a store
// written at the version before it.
var migrations = []func(*bolt.Tx) error{
	createBuckets,        // 0 → 1: the initial layout
	binaryMessageRecords, // 1 → 2: messages from JSON to their binary form
	impliedFlags,         // 2 → 3: per-user state as spans, read runs and exception rows
	rebuildTopicList,     // 3 → 4: topic names repaired after moves that stored the old one
	numberUploads,        // 4 → 5: uploads get integer IDs (to be listed and deleted by ID)
	searchPostings,       // 5 → 6: the full-text index as posting lists per term and ID block
	streamCreators,       // 6 → 7: streams record their creator; role:administrators gets a group ID
	systemGroups,         // 7 → 8: a record for each of Zulip's system groups; groups get subgroups and settings
	streamGroupSettings,  // 8 → 9: streams keep any group-setting value of any group setting
	inviteUsersGroup,     // 9 → 10: who may invite by email is a group setting, not a policy number
}

// SchemaVersion is the version a store has once opened by this build.
var SchemaVersion = len(migrations)

func createBuckets(btx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// binaryMessageRecords rewrites every JSON message record in the binary
// form (message_codec.go).
func binaryMessageRecords(btx *bolt.Tx) error {
	b := btx.Bucket(bucketMessages)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var m Message
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("message %d: %w", btoi(k), err)
		}
		key := append([]byte(nil), k...)
		if err := b.Put(key, encodeMessage(m)); err != nil {
			return err
		}
		c.Seek(key) // a write may move the cursor's page: reposition
	}
	return nil
}

// rebuildTopicList rewrites the topics bucket from the topic index: each
// topic named after its newest message and holding that message's ID.
// Before schema 4, moving a message re-indexed it before storing it, so a
// topic could carry the name its newest message had before the move (the
// old name, or another topic's), and emptied topics could linger.
func rebuildTopicList(btx *bolt.Tx) error {
	tx := &Tx{btx: btx}
	topics := tx.bucket(bucketTopics)
	c := topics.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.First() {
		if err := topics.Delete(k); err != nil {
			return err
		}
	}
	idx := tx.bucket(bucketMsgByTopic).Cursor()
	for k, _ := idx.Last(); k != nil; {
		prefix := bytes.Clone(k[:len(k)-8]) // stream ID + folded topic + 0
		m, err := tx.Message(btoi(k[len(prefix):]))
		if err != nil {
			return fmt.Errorf("topic index entry %x: %w", k, err)
		}
		if err := tx.put(bucketTopics, prefix[:len(prefix)-1], Topic{Name: m.Topic, MaxID: m.ID}); err != nil {
			return err
		}
		// The previous topic's newest entry is the last key before this prefix.
		idx.Seek(prefix)
		k, _ = idx.Prev()
	}
	return nil
}

// numberUploads gives every upload an ID from the bucket's sequence, in key
// order.
func numberUploads(btx *bolt.Tx) error {
	tx := &Tx{btx: btx}
	var all []Upload
	if err := each(tx, bucketUploads, func(u Upload) bool { all = append(all, u); return true }); err != nil {
		return err
	}
	for _, u := range all {
		if u.ID != 0 {
			continue
		}
		if err := tx.CreateUpload(&u); err != nil {
			return err
		}
	}
	return nil
}

// searchPostings (schema 5 → 6) rewrites the full-text index, a key per
// term and message until now, as posting lists (search_index.go). The old
// keys come sorted by term and then ID, so each posting is written once,
// complete; every message is indexed, so the watermark is the newest.
func searchPostings(btx *bolt.Tx) error {
	oldTerms := []byte("search_terms") // term + 0 + message ID
	postings, err := btx.CreateBucketIfNotExists(bucketSearchPostings)
	if err != nil {
		return err
	}
	if old := btx.Bucket(oldTerms); old != nil {
		var key, value []byte
		flush := func() error {
			if key == nil {
				return nil
			}
			return postings.Put(key, value)
		}
		c := old.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if len(k) < 9 || k[len(k)-9] != 0 {
				continue
			}
			term, id := string(k[:len(k)-9]), btoi(k[len(k)-8:])
			if next := postingKey(term, id); !bytes.Equal(next, key) {
				if err := flush(); err != nil {
					return err
				}
				key, value = next, nil
			}
			value = append(value, byte(id))
		}
		if err := flush(); err != nil {
			return err
		}
		if err := btx.DeleteBucket(oldTerms); err != nil {
			return err
		}
	}
	var newest int64
	if k, _ := btx.Bucket(bucketMessages).Cursor().Last(); k != nil {
		newest = btoi(k)
	}
	meta, err := btx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	return meta.Put(keySearchIndexedThrough, itob(newest))
}

// streamCreators (schema 6 → 7): streams record who created them from now
// on; those before have no known creator and are left as they are. The
// version step is what matters for them: an older build would drop the
// creator when it rewrites a stream, so it must refuse this store. The
// administrators' system group gets its user-group ID, from the groups'
// sequence, so it can never be a group people created.
func streamCreators(btx *bolt.Tx) error {
	return (&Tx{btx: btx}).reserveSystemGroupID(AdministratorsGroup)
}

// systemGroups (schema 7 → 8) stores Zulip's system groups as group
// records, role:administrators under the ID schema 7 reserved. Groups may
// now have subgroups and a can_mention setting, which an older build would
// drop when it rewrites a group, so it must refuse this store.
func systemGroups(btx *bolt.Tx) error {
	return (&Tx{btx: btx}).createSystemGroups()
}

// streamGroupSettings (schema 8 → 9) moves a stream's
// can_remove_subscribers_group (a system group's ID) among its group
// settings, which may hold any group-setting value and which an older build
// would drop when it rewrites a stream.
func streamGroupSettings(btx *bolt.Tx) error {
	b := btx.Bucket(bucketStreams)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var old struct {
			CanRemoveSubscribersGroup int64 `json:"can_remove_subscribers_group"`
		}
		if err := json.Unmarshal(v, &old); err != nil {
			return fmt.Errorf("stream %d: %w", btoi(k), err)
		}
		if old.CanRemoveSubscribersGroup == 0 {
			continue
		}
		var st Stream
		if err := json.Unmarshal(v, &st); err != nil {
			return fmt.Errorf("stream %d: %w", btoi(k), err)
		}
		st.GroupSettings = map[string]GroupSetting{"can_remove_subscribers_group": {Group: old.CanRemoveSubscribersGroup}}
		data, err := json.Marshal(st)
		if err != nil {
			return err
		}
		key := append([]byte(nil), k...)
		if err := b.Put(key, data); err != nil {
			return err
		}
		c.Seek(key)
	}
	return nil
}

// inviteUsersGroup (schema 9 → 10) turns the organization's
// invite_to_realm_policy (Zulip's numbers: 1 members, 2 administrators,
// 3 full members, 4 moderators, 6 nobody) into its can_invite_users_group.
func inviteUsersGroup(btx *bolt.Tx) error {
	tx := &Tx{btx: btx}
	raw := btx.Bucket(bucketMeta).Get(keyRealm)
	if raw == nil {
		return nil
	}
	var old struct {
		Policy int `json:"invite_to_realm_policy"`
	}
	if err := json.Unmarshal(raw, &old); err != nil {
		return fmt.Errorf("realm: %w", err)
	}
	group, ok := map[int]string{2: AdministratorsGroup, 3: FullMembersGroup, 4: ModeratorsGroup, 6: NobodyGroup}[old.Policy]
	if !ok {
		return nil // members, the default
	}
	r, err := tx.Realm()
	if err != nil {
		return err
	}
	id, err := tx.SystemGroupID(group)
	if err != nil {
		return err
	}
	if r.GroupSettings == nil {
		r.GroupSettings = map[string]GroupSetting{}
	}
	r.GroupSettings["can_invite_users_group"] = GroupSetting{Group: id}
	return tx.PutRealm(r)
}

// migrate runs the pending steps, each in its own transaction together with
// the version bump, so a crash leaves the store at a whole version.
func (s *Store) migrate() error {
	for {
		var version int
		err := s.db.Update(func(btx *bolt.Tx) error {
			v, err := readSchemaVersion(btx)
			if err != nil {
				return err
			}
			version = v
			if v > SchemaVersion {
				return fmt.Errorf("the store has schema version %d, newer than this build's %d: use a newer Lanchat", v, SchemaVersion)
			}
			if v == SchemaVersion {
				// Buckets added to the layout without data changes still appear.
				return createBuckets(btx)
			}
			if err := migrations[v](btx); err != nil {
				return fmt.Errorf("migrate schema %d→%d: %w", v, v+1, err)
			}
			return writeSchemaVersion(btx, v+1)
		})
		if err != nil || version >= SchemaVersion {
			return err
		}
	}
}

func readSchemaVersion(btx *bolt.Tx) (int, error) {
	meta := btx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	v := meta.Get(keySchemaVersion)
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("corrupt schema version record")
	}
	return int(binary.BigEndian.Uint64(v)), nil
}

func writeSchemaVersion(btx *bolt.Tx, v int) error {
	meta, err := btx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	return meta.Put(keySchemaVersion, itob(int64(v)))
}

// checkVersion is migrate for a store that cannot be written: it must
// already be at this build's version.
func (s *Store) checkVersion() error {
	return s.db.View(func(btx *bolt.Tx) error {
		v, err := readSchemaVersion(btx)
		if err != nil {
			return err
		}
		if v != SchemaVersion {
			return fmt.Errorf("the read-only store has schema version %d and this build needs %d: make it writable once to migrate", v, SchemaVersion)
		}
		return nil
	})
}
