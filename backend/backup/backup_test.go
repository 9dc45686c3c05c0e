package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

func archiveOf(t *testing.T, files map[string]string) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, content := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(content)), Typeflag: tar.TypeReg})
		tw.Write([]byte(content))
	}
	tw.Close()
	gz.Close()
	return &buf
}

func TestRestoreRefusesBadArchives(t *testing.T) {
	cases := []struct {
		name    string
		archive *bytes.Buffer
		want    string
	}{
		{"escaping path", archiveOf(t, map[string]string{"../evil": "x"}), "escapes"},
		{"absolute path", archiveOf(t, map[string]string{"/etc/evil": "x"}), "escapes"},
		{"no database", archiveOf(t, map[string]string{"uploads/a": "x"}), "no database"},
		{"not gzip", bytes.NewBufferString("plain text"), "not a Lanchat backup"},
		{"garbage database", archiveOf(t, map[string]string{"lanchat.db": "not bbolt"}), "does not open"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			archive := tc.archive.Bytes()
			for _, existing := range []bool{false, true} {
				dir := t.TempDir() + "/data"
				if existing {
					os.Mkdir(dir, 0o700)
				}
				err := Restore(bytes.NewReader(archive), dir)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Restore: %v, want an error containing %q", err, tc.want)
				}
				leftBehind(t, dir, existing)
			}
		})
	}
}

// leftBehind fails the test if a failed restore left anything: a directory
// it created is gone, one that existed is as empty as before.
func leftBehind(t *testing.T, dir string, existed bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	switch {
	case !existed && !errors.Is(err, fs.ErrNotExist):
		t.Errorf("a failed restore left the directory it created, holding %v", entries)
	case existed && len(entries) > 0:
		t.Errorf("a failed restore left %v behind", entries)
	}
}

// TestRestoreBoundsExpansion: an archive that expands far beyond what a
// backup compresses to (a gzip bomb) is refused once it passes the bound,
// with a clear error and nothing left behind, before filling the disk.
func TestRestoreBoundsExpansion(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	const size = 128 << 20
	tw.WriteHeader(&tar.Header{Name: "uploads/zeros", Mode: 0o600, Size: size, Typeflag: tar.TypeReg})
	zeros := make([]byte, 1<<20)
	for range size / len(zeros) {
		tw.Write(zeros)
	}
	tw.Close()
	gz.Close()
	dir := t.TempDir() + "/data"
	compressed := buf.Len()
	err := Restore(&buf, dir)
	if err == nil || !strings.Contains(err.Error(), "expands") {
		t.Errorf("Restore of %d bytes expanding to %d: %v, want the expansion refused", compressed, size, err)
	}
	leftBehind(t, dir, false)
}
