package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
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
			err := Restore(tc.archive, t.TempDir()+"/data")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Restore: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
