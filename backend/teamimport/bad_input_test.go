package teamimport_test

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/teamimport"
)

// slackExport is a small, valid Slack export.
var slackExport = map[string]string{
	"users.json": `[
 {"id": "U1", "name": "ada", "real_name": "Ada", "is_owner": true, "profile": {"email": "ada@acme.test"}},
 {"id": "U2", "name": "bob", "real_name": "Bob", "profile": {"email": "bob@acme.test"}}
]`,
	"channels.json":           `[{"id": "C1", "name": "general", "created": 1700000000, "is_general": true, "members": ["U1", "U2"]}]`,
	"general/2024-01-01.json": `[{"type": "message", "user": "U1", "text": "hello", "ts": "1704100000.000200"}, {"type": "message", "user": "U2", "text": "hi", "ts": "1704100001.000000"}]`,
}

// slackWith is slackExport with some files changed (or, given "", left
// out), as zip entries.
func slackWith(changes map[string]string) []zipEntry {
	files := maps.Clone(slackExport)
	for name, content := range changes {
		if content == "" {
			delete(files, name)
		} else {
			files[name] = content
		}
	}
	var entries []zipEntry
	for _, name := range slices.Sorted(maps.Keys(files)) {
		entries = append(entries, zipEntry{name: name, content: []byte(files[name])})
	}
	return entries
}

// slackWithDay is slackExport with n more channels, each with a message
// file of day claiming size bytes (raw entries: none is read).
func slackWithDay(day string, n int, size uint64) []zipEntry {
	channels := []string{`{"id": "C1", "name": "general", "members": ["U1", "U2"]}`}
	var files []zipEntry
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		channels = append(channels, fmt.Sprintf(`{"id": "C%d", "name": %q, "members": ["U1"]}`, i+2, name))
		files = append(files, zipEntry{name: name + "/" + day, content: []byte("[]"),
			raw: &zip.FileHeader{Name: name + "/" + day, Method: zip.Deflate, CompressedSize64: size / 100, UncompressedSize64: size}})
	}
	return append(slackWith(map[string]string{"channels.json": "[" + strings.Join(channels, ", ") + "]"}), files...)
}

// A hostile, malformed or truncated export is refused with a message
// naming the record, and leaves neither the data folder nor a temporary
// folder behind.
func TestImportRefusesBadArchives(t *testing.T) {
	bomb := "[" + strings.Repeat(" ", 20<<20) + "]"
	for _, c := range []struct {
		name    string
		entries []zipEntry
		// archive rewrites the written zip (truncation); nil keeps it.
		archive func(t *testing.T, path string)
		want    string
	}{
		{name: "zip bomb", entries: slackWith(map[string]string{"general/2024-01-01.json": bomb}),
			want: "general/2024-01-01.json: expands"},
		{name: "path leaving the archive", entries: append(slackWith(nil), zipEntry{name: "../users.json", content: []byte("[]")}),
			want: "../users.json: leaves the archive"},
		{name: "backslash in a path", entries: append(slackWith(nil), zipEntry{name: `general\..\..\x.json`, content: []byte("[]")}),
			want: `general\..\..\x.json: has a backslash`},
		{name: "duplicate entry", entries: append(slackWith(nil), zipEntry{name: "users.json", content: []byte("[]")}),
			want: "users.json: appears twice in the archive"},
		{name: "10 GB file claimed", entries: append(slackWith(nil), zipEntry{name: "general/2024-01-02.json", content: []byte("[]"),
			raw: &zip.FileHeader{Name: "general/2024-01-02.json", Method: zip.Store, CompressedSize64: 2, UncompressedSize64: 10 << 30}}),
			want: "general/2024-01-02.json: claims 10737418240 bytes, more than the 4294967296 one file of an export may have"},
		// A day's messages are held together to be sorted: 10 × 20 MiB
		// (each under the zip bomb ratio) is too much for one day.
		{name: "a day too large", entries: slackWithDay("2024-01-02.json", 10, 20<<20),
			want: "2024-01-02.json: the day's message files claim 209715200 bytes together, more than the 128 MiB one day may have"},
		{name: "duplicate user ID", entries: slackWith(map[string]string{"users.json": `[{"id": "U1", "name": "a", "profile": {"email": "a@x.test"}}, {"id": "U1", "name": "b", "profile": {"email": "b@x.test"}}]`}),
			want: "user U1: appears twice"},
		{name: "message from an unknown user", entries: slackWith(map[string]string{"general/2024-01-01.json": `[{"type": "message", "user": "U9", "text": "boo", "ts": "1704100000.000200"}]`}),
			want: `message general/2024-01-01.json[0]: names user "U9", who is not in the archive`},
		{name: "member of no known user", entries: slackWith(map[string]string{"channels.json": `[{"id": "C1", "name": "general", "members": ["U1", "U9"]}]`}),
			want: `stream C1: names user "U9", who is not in the archive`},
		{name: "malformed JSON", entries: slackWith(map[string]string{"users.json": `[{"id": 5}]`}),
			want: "users.json[0]: malformed: "},
		{name: "JSON cut short", entries: slackWith(map[string]string{"general/2024-01-01.json": `[{"type": "message", "user": "U1", "text": "a", "ts": "1.0"},`}),
			want: "general/2024-01-01.json[1]: is cut short"},
		{name: "bad timestamp", entries: slackWith(map[string]string{"general/2024-01-01.json": `[{"type": "message", "user": "U1", "text": "a", "ts": "yesterday"}]`}),
			want: `general/2024-01-01.json[0]: ts "yesterday": not a timestamp`},
		{name: "not a Slack export", entries: slackWith(map[string]string{"users.json": ""}),
			want: "users.json: is missing: not a Slack export"},
		{name: "truncated archive", entries: slackWith(nil), archive: func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, data[:len(data)/2], 0o600)
		}, want: "not a readable zip archive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeZipEntries(t, c.entries)
			if c.archive != nil {
				c.archive(t, path)
			}
			parent := t.TempDir()
			_, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(parent, "data"), Format: "slack", Archive: path})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			var ae *archive.Error
			if c.archive == nil && !errors.As(err, &ae) {
				t.Errorf("%v is not an archive.Error naming the record", err)
			}
			if left, _ := os.ReadDir(parent); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// An interrupted import stops at the next record and leaves nothing.
func TestImportInterruptedLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	parent := t.TempDir()
	_, err := teamimport.Run(ctx, teamimport.Options{DataDir: filepath.Join(parent, "data"), Format: "slack",
		Archive: writeZipEntries(t, slackWith(nil)), Progress: func(p archive.Progress) {
			if p.Phase == "messages" {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// An unknown format is refused before anything is made.
func TestImportUnknownFormat(t *testing.T) {
	parent := t.TempDir()
	_, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(parent, "data"), Format: "irc",
		Archive: writeZipEntries(t, slackWith(nil))})
	if err == nil || !strings.Contains(err.Error(), `unknown archive format "irc"`) {
		t.Fatalf("error %v", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A record far larger than any real one (a 64 MiB name in a 2 MB zip) is
// refused, naming it and the limit, having read no more than the limit of
// it: decoding it whole took gigabytes.
func TestImportBoundsEachRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "export.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, content := range slackExport {
		if name == "users.json" {
			continue
		}
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	// Compressible enough to fit a small zip, not enough to be a bomb.
	const nameSize = 64 << 20
	w, _ := zw.Create("users.json")
	w.Write([]byte(`[{"id": "U1", "name": "ada", "profile": {"email": "ada@acme.test"}}, {"id": "U2", "profile": {"email": "bob@acme.test"}, "real_name": "`))
	rng := rand.New(rand.NewPCG(1, 2))
	block := []byte(strings.Repeat("a", 1024))
	for range nameSize / len(block) {
		for i := range 24 {
			block[i] = byte('a' + rng.IntN(26))
		}
		w.Write(block)
	}
	w.Write([]byte(`"}]`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	parent := t.TempDir()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(parent, "data"), Format: "slack", Archive: path})
	runtime.ReadMemStats(&after)
	if want := "users.json[1]: is larger than the 8 MiB a record of an export may have"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one saying %q", err, want)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated >= nameSize {
		t.Errorf("allocated %d MiB refusing a %d MiB record", allocated>>20, nameSize>>20)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
