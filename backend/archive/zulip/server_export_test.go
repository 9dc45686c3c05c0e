package zulip_test

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/archive/zulip"
)

// A Zulip server's own export (testdata/server-export, in the shape Zulip 8
// writes) reads with what Lanchat has no place for skipped (messages from
// and to Zulip's system bots, files the export lacks, nested groups), and
// the tables it does not model ignored.
func TestReadZulipServerExport(t *testing.T) {
	a, err := archive.OpenDir("testdata/server-export")
	if err != nil {
		t.Fatal(err)
	}
	rec := &archivetest.Recorder{}
	if err := zulip.Read(a, rec); err != nil {
		t.Fatal(err)
	}
	if rec.RealmRecord.Name != "Acme" || rec.RealmRecord.DateCreated != 1600000000 {
		t.Errorf("realm %+v", rec.RealmRecord)
	}
	var users []string
	for _, u := range rec.Users {
		users = append(users, strings.Join([]string{u.Ref, u.Email, itoa(u.Role), itoa(u.BotType), u.BotOwnerRef, boolStr(u.Active)}, " "))
	}
	wantUsers := []string{
		"8 iris@acme.example 100 0  yes", "9 jon@acme.example 400 0  yes", "10 ci-bot@acme.zulipchat.com 400 2 8 yes",
		"11 kim@acme.example 600 0  no", "12 old@acme.example 400 0  no",
	}
	if !slices.Equal(users, wantUsers) {
		t.Errorf("users\n%s\nwant\n%s", strings.Join(users, "\n"), strings.Join(wantUsers, "\n"))
	}
	if got := read(t, rec.Users[0].Avatar); got != "PNGORIGINAL" {
		t.Errorf("owner's avatar %q, want the .original", got)
	}
	if rec.RealmRecord.EmojiAddPolicy != "members" || strings.Join(rec.Users[1].AlertWords, ",") != "deploy" {
		t.Errorf("emoji policy %q, alert words %v", rec.RealmRecord.EmojiAddPolicy, rec.Users[1].AlertWords)
	}
	general := rec.Streams[0].Subscriptions
	if general["9"].Color != "#fae589" || !general["9"].Muted || !general["8"].PinToTop || general["8"].DesktopNotifications == nil || !*general["8"].DesktopNotifications {
		t.Errorf("general's settings %+v", general)
	}
	if _, ok := general["11"]; !ok {
		t.Error("a former member's settings are lost")
	}
	if rec.Users[1].Avatar != nil {
		t.Error("a Gravatar user got an avatar")
	}
	var streams []string
	for _, s := range rec.Streams {
		streams = append(streams, strings.Join([]string{s.Ref, s.Name, boolStr(s.InviteOnly), boolStr(s.Archived), boolStr(s.Default), strings.Join(s.MemberRefs, ",")}, " "))
	}
	wantStreams := []string{"7 general no no yes 8,9,10", "8 ops yes no no 8", "9 !DEACTIVATED:old no yes no "}
	if !slices.Equal(streams, wantStreams) {
		t.Errorf("streams %q, want %q", streams, wantStreams)
	}
	if len(rec.UserGroups) != 2 || rec.UserGroups[0].Name != "backend" || strings.Join(rec.UserGroups[0].MemberRefs, ",") != "8,9" || rec.UserGroups[1].Name != "oncall" {
		t.Errorf("groups %+v", rec.UserGroups)
	}
	if len(rec.Linkifiers) != 2 || rec.Linkifiers[0].Pattern != "#(?P<id>[0-9]+)" || rec.Linkifiers[1].Pattern != "PR(?P<id>[0-9]+)" {
		t.Errorf("linkifiers out of order: %+v", rec.Linkifiers)
	}
	if len(rec.Emojis) != 1 || rec.Emojis[0].Name != "shipit" || rec.Emojis[0].OwnerRef != "8" || read(t, rec.Emojis[0].Open) != "SHIPITPNG" {
		t.Errorf("emoji %+v", rec.Emojis)
	}
	if len(rec.Files) != 1 || string(rec.FileContent["40"]) != "the notes\n" || rec.Files[0].ContentType != "text/plain" || rec.Files[0].Created != 1600000999 {
		t.Errorf("files %+v", rec.Files)
	}
	byRef := map[string]archive.Message{}
	var refs []string
	for _, m := range rec.Messages {
		byRef[m.Ref] = m
		refs = append(refs, m.Ref)
	}
	if !slices.Equal(refs, []string{"300", "301", "302", "303", "304"}) {
		t.Fatalf("messages %v", refs)
	}
	release := byRef["300"]
	if release.Content != "Shipping [the notes](/user_uploads/test/40/notes.txt) today, see #12" || release.EditTimestamp != 1600001060 ||
		release.Timestamp != 1600001000 || release.StreamRef != "7" || release.Topic != "release" {
		t.Errorf("message 300 %+v", release)
	}
	if len(release.Edits) != 1 || release.Edits[0].PrevContent != "Shipping" || release.Edits[0].UserRef != "8" || release.Edits[0].Timestamp != 1600001060 {
		t.Errorf("edits %+v", release.Edits)
	}
	if len(release.Reactions) != 2 || release.Reactions[0].EmojiCode != "1f44d" || release.Reactions[1].EmojiName != "shipit" || release.Reactions[1].EmojiCode != "" {
		t.Errorf("reactions %+v", release.Reactions)
	}
	flags := func(ref, user string) string { return strings.Join(byRef[ref].UserFlags[user], ",") }
	for _, c := range []struct{ ref, user, want string }{
		{"300", "9", "read,starred"}, {"300", "10", ""}, {"301", "8", "mentioned"},
		{"301", "9", "read,wildcard_mentioned,stream_wildcard_mentioned"}, {"303", "8", ""}, {"304", "8", "starred"},
	} {
		if got := flags(c.ref, c.user); got != c.want {
			t.Errorf("message %s user %s flags %q, want %q", c.ref, c.user, got, c.want)
		}
	}
	if _, ok := byRef["300"].UserFlags["11"]; ok {
		t.Error("flags for a user without a row")
	}
	if got := strings.Join(byRef["303"].PrivateRefs, ","); got != "8,9,12" {
		t.Errorf("group message to %s", got)
	}
	if got := strings.Join(byRef["304"].PrivateRefs, ","); got != "9,8" {
		t.Errorf("direct message to %s", got)
	}
	wantSkipped := []string{
		"realm.json zerver_groupgroupmembership id 61", "realm.json zerver_realmemoji id 2",
		"attachment.json zerver_attachment id 41", "messages-000001.json zerver_message id 299",
		"messages-000002.json zerver_message id 305",
	}
	if len(rec.Skipped) != len(wantSkipped) {
		t.Fatalf("skipped %q", rec.Skipped)
	}
	for i, w := range wantSkipped {
		if !strings.HasPrefix(rec.Skipped[i], w+": ") {
			t.Errorf("skipped %q, want %s", rec.Skipped[i], w)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func boolStr(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func read(t *testing.T, open archive.Opener) string {
	t.Helper()
	if open == nil {
		t.Fatal("no file")
	}
	rc, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
