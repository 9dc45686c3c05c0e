package domain

import (
	"bytes"
	"encoding/json"
	"testing"
)

// plainMessage is MessageObject without its MarshalJSON: what
// encoding/json writes by reflection, which AppendJSON must equal.
type plainMessage MessageObject

func TestAppendJSONEqualsEncodingJSON(t *testing.T) {
	avatar, streamID, match := "/avatar/3?version=1", int64(7), "<span class=\"highlight\">x</span>"
	flags, noFlags := []string{"read", "starred"}, []string(nil)
	edited := "old"
	for name, o := range map[string]MessageObject{
		"zero": {},
		"stream": {ID: 12, SenderID: 3, SenderEmail: "bob@example.com", SenderFullName: "Bob <b> & \"co\"", SenderRealmStr: "lanchat",
			SenderShortName: "<bob>", AvatarURL: &avatar, Client: "website", Content: "<p>hi\n\t\u2028\u2029 \x01 \b\f\r \\ é 🙂</p>", ContentType: "text/html",
			Type: "stream", DisplayRecipient: "general", StreamID: &streamID, RecipientID: 4, Subject: "lunch ☕",
			TopicLinks: []TopicLink{}, SubjectLinks: []TopicLink{}, Timestamp: 1700000000, Reactions: []ReactionObject{},
			Submessages: []SubmessageObject{}, Flags: &flags},
		"private with everything": {ID: 13, Type: "private", Content: "bad utf-8: \xff\xfe end", Subject: "\xc3",
			DisplayRecipient: []RecipientObject{{ID: 1, Email: "a@x", FullName: "A", ShortName: "a"}, {ID: 2, Email: "b@x", FullName: "B"}},
			TopicLinks:       []TopicLink{{Text: "#1", URL: "https://x/1?a=1&b=2"}}, SubjectLinks: []TopicLink{{Text: "#1", URL: "https://x/1?a=1&b=2"}}, IsMeMessage: true,
			Reactions:   []ReactionObject{{EmojiName: "smile", EmojiCode: "1f642", ReactionType: "unicode_emoji", UserID: 2}},
			Submessages: []SubmessageObject{{ID: 1, MessageID: 7, SenderID: 2, MsgType: "widget", Content: `{"a":1}`}},
			Flags:       &noFlags, LastEditTimestamp: 1700000100,
			EditHistory:  []EditObject{{Timestamp: 1700000100, UserID: 1, PrevContent: &edited, PrevTopic: &edited}},
			MatchContent: &match, MatchSubject: &match},
	} {
		want, err := json.Marshal(plainMessage(o))
		if err != nil {
			t.Fatal(err)
		}
		if got := o.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<&>\"\\", "\x00\x1f\u2028\u2029", "\xff\xc3", "é🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}
