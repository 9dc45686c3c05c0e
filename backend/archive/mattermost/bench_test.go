package mattermost

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lanchat/backend/archive"
)

// discard is a sink that keeps nothing, so a benchmark measures the
// reader alone.
type discard struct{ messages int }

func (*discard) Realm(archive.Realm) error         { return nil }
func (*discard) User(archive.User) error           { return nil }
func (*discard) Stream(archive.Stream) error       { return nil }
func (*discard) UserGroup(archive.UserGroup) error { return nil }
func (*discard) Linkifier(archive.Linkifier) error { return nil }
func (*discard) Emoji(archive.Emoji) error         { return nil }
func (*discard) File(archive.File) (string, error) { return "/user_uploads/x", nil }
func (d *discard) Message(archive.Message) error   { d.messages++; return nil }
func (*discard) Skip(string, string)               {}

// writeExport writes an import.jsonl of posts root posts (every tenth
// with three replies) spread over 20 channels, their times shuffled so
// the reader has to sort them.
func writeExport(tb testing.TB, dir string, posts int) {
	f, err := os.Create(filepath.Join(dir, importJSONL))
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, version)
	fmt.Fprintln(w, aTeam)
	for c := range 20 {
		fmt.Fprintf(w, `{"type":"channel","channel":{"team":"t","name":"c%d","display_name":"Channel %d","type":"O"}}`+"\n", c, c)
	}
	for u := range 50 {
		fmt.Fprintf(w, `{"type":"user","user":{"username":"u%d","email":"u%d@example.com","first_name":"User","last_name":"%d","teams":[{"name":"t","channels":[{"name":"c%d"}]}]}}`+"\n", u, u, u, u%20)
	}
	for i := range posts {
		at := 1_600_000_000_000 + int64(i*7919%posts)*1000
		replies := "null"
		if i%10 == 0 {
			replies = fmt.Sprintf(`[{"user":"u1","message":"reply one to @u%d","create_at":%d},{"user":"u2","message":"reply _two_","create_at":%d},{"user":"u3","message":"reply three","create_at":%d}]`, i%50, at+100, at+200, at+300)
		}
		fmt.Fprintf(w, `{"type":"post","post":{"team":"t","channel":"c%d","user":"u%d","message":"message %d mentions @u%d in ~c%d with some more words to make it a typical chat line","create_at":%d,"reactions":[{"user":"u4","emoji_name":"smile"}],"replies":%s}}`+"\n",
			i%20, i%50, i, (i+1)%50, (i+2)%20, at, replies)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
}

// BenchmarkRead reads an export of 100,000 posts (and 30,000 replies).
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	writeExport(b, dir, 100_000)
	b.ResetTimer()
	for b.Loop() {
		a, err := archive.OpenDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		d := &discard{}
		if err := Read(a, d); err != nil {
			b.Fatal(err)
		}
		if d.messages != 130_000 {
			b.Fatalf("%d messages", d.messages)
		}
	}
	b.ReportMetric(float64(130_000*b.N)/b.Elapsed().Seconds(), "messages/s")
}
