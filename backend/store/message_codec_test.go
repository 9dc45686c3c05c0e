package store

import (
	"reflect"
	"testing"
)

// oldMessages are the records in testdata/schema1-json-messages.db.gz,
// written as JSON by the build before the binary form (schema 1).
var oldMessages = []Message{
	{ID: 1, SenderID: 1, RecipientID: 10, StreamID: 3, Topic: "Lunch ☕", Content: "hello **world**", Rendered: "<p>hello <strong>world</strong></p>", Timestamp: 1700000000, Client: "website", HasLink: true},
	{ID: 2, SenderID: 2, RecipientID: 11, PrivateUserIDs: []int64{1, 2}, Content: "/me waves", Rendered: "<p>waves</p>", Timestamp: 1700000060, Client: "ZulipPython", IsMe: true},
	{ID: 3, SenderID: 1, RecipientID: 10, StreamID: 3, Topic: "lunch ☕", Content: "edited", Rendered: "<p>edited</p>", Timestamp: 1700000120, Client: "website", HasImage: true, HasAttachment: true,
		LastEditTimestamp: 1700000200,
		Edits:             []Edit{{Timestamp: 1700000200, UserID: 1, PrevContent: "first", PrevRendered: "<p>first</p>", PrevTopic: "old topic", PrevStreamID: 4}},
		Reactions:         []Reaction{{EmojiName: "smile", EmojiCode: "1f642", ReactionType: "unicode_emoji", UserID: 2}},
		Submessages:       []Submessage{{ID: 1, SenderID: 2, MsgType: "widget", Content: `{"type":"vote"}`}}},
}

func TestMessageCodecRoundTrips(t *testing.T) {
	for _, m := range append(oldMessages, Message{}, Message{ID: -5, Timestamp: -1, PrivateUserIDs: []int64{1 << 62}}) {
		got, err := decodeMessage(encodeMessage(m))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("round trip of %+v: got %+v, %v", m, got, err)
		}
	}
}

func TestDecodeMessageRefusesDamagedRecords(t *testing.T) {
	good := encodeMessage(oldMessages[2])
	for name, data := range map[string][]byte{
		"empty":          nil,
		"json":           []byte(`{"id":1}`),
		"unknown format": append([]byte{0x7f}, good[1:]...),
		"truncated":      good[:len(good)/2],
		"trailing bytes": append(append([]byte(nil), good...), 0),
		"huge length":    {messageFormatV1, 2, 2, 2, 2, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := decodeMessage(data); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

// A store written at schema 1, with JSON message records, opens with every
// message intact, its indexes still answering, and the file consistent.
func TestOpenMigratesJSONMessageRecords(t *testing.T) {
	s := openTestdata(t, "schema1-json-messages.db.gz")
	s.View(func(tx *Tx) error {
		if v, _ := readSchemaVersion(tx.btx); v != SchemaVersion {
			t.Errorf("schema version %d, want %d", v, SchemaVersion)
		}
		for _, want := range oldMessages {
			got, err := tx.Message(want.ID)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("message %d: got %+v, %v; want %+v", want.ID, got, err, want)
			}
		}
		var inTopic []int64
		tx.Scan(TopicRange(3, "LUNCH ☕"), 0, false, func(id int64) bool { inTopic = append(inTopic, id); return true })
		if !reflect.DeepEqual(inTopic, []int64{1, 3}) {
			t.Errorf("topic index after migration: %v, want [1 3]", inTopic)
		}
		return nil
	})
	if err := s.Check(); err != nil {
		t.Fatalf("consistency check: %v", err)
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, m := range oldMessages {
		f.Add(encodeMessage(m))
	}
	f.Add([]byte{messageFormatV1})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeMessage(data)
		if err != nil {
			return
		}
		// Whatever decodes survives a rewrite unchanged.
		if again, err := decodeMessage(encodeMessage(m)); err != nil || !reflect.DeepEqual(again, m) {
			t.Errorf("decoded %x as %+v, which rewritten reads as %+v, %v", data, m, again, err)
		}
	})
}
