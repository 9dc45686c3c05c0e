package domain

import (
	"strings"
	"testing"

	"lanchat/backend/store"
)

// A person whose record predates phone topics (no ntfy_topic, as every
// account stored before them) gets one on first ask; it outlasts a restart,
// and replacing it retires the old one.
func TestNtfyTopicOnAnOlderRecord(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := New(st, Config{Dev: true})
	if err := svc.SeedDevOrganization(); err != nil {
		t.Fatal(err)
	}
	var alice store.User
	st.View(func(tx *store.Tx) error { alice, err = tx.UserByEmail("alice@example.com"); return err })
	// Stored without the field (omitempty), as records older than it are.
	if alice.NtfyTopic != "" {
		t.Fatalf("a new account already has a topic: %q", alice.NtfyTopic)
	}
	topic, err := svc.NtfyTopic(alice)
	if err != nil || len(topic) != ntfyTopicLength || !svc.NtfyTopicActive(topic) {
		t.Fatalf("first ask: %q %v", topic, err)
	}
	st.Close()

	st, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc = New(st, Config{})
	if again, err := svc.NtfyTopic(alice); err != nil || again != topic || !svc.NtfyTopicActive(topic) {
		t.Fatalf("after a restart: %q %v, want %q", again, err, topic)
	}
	renewed, err := svc.RegenerateNtfyTopic(alice)
	if err != nil || renewed == topic || svc.NtfyTopicActive(topic) || !svc.NtfyTopicActive(renewed) {
		t.Fatalf("regenerated %q from %q: %v", renewed, topic, err)
	}
}

func TestNotificationText(t *testing.T) {
	stream := store.Message{StreamID: 1, Topic: "lunch", Rendered: "<p>Hi <strong>all</strong> &amp; you</p><ul><li>one</li><li>two</li></ul>"}
	for _, tc := range []struct {
		name        string
		m           store.Message
		show        bool
		title, body string
	}{
		{"a stream message", stream, true, "Bob (#general › lunch)", "Hi all & you one two"},
		{"a direct message", store.Message{PrivateUserIDs: []int64{1, 2}, Rendered: "<p>line<br>break</p>"}, true, "Bob", "line break"},
		{"content hidden", stream, false, "Bob (#general › lunch)", "New message"},
		{"a long message", store.Message{PrivateUserIDs: []int64{1, 2}, Rendered: "<p>" + strings.Repeat("é", 300) + "</p>"}, true, "Bob", strings.Repeat("é", 149) + "…"},
	} {
		title, body := notificationText(tc.m, "Bob", "general", tc.show)
		if title != tc.title || body != tc.body {
			t.Errorf("%s: %q %q, want %q %q", tc.name, title, body, tc.title, tc.body)
		}
	}
	for in, want := range map[string]string{"lunch": "lunch", "a b.c": "a.20b.2Ec", "café/100%": "caf.C3.A9.2F100.25"} {
		if got := hashPart(in); got != want {
			t.Errorf("hashPart(%q) = %q, want %q", in, got, want)
		}
	}
}
