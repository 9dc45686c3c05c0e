package backup

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"lanchat/backend/untar/untartest"
)

func archiveOf(t *testing.T, entries ...untartest.Entry) *bytes.Buffer {
	return bytes.NewBuffer(untartest.TarGz(t, entries...))
}

func TestRestoreRefusesBadArchives(t *testing.T) {
	type refused struct {
		name    string
		archive *bytes.Buffer
		want    string
	}
	cases := []refused{
		{"no database", archiveOf(t, untartest.Entry{Name: "uploads/a", Content: "x"}), "no database"},
		{"not gzip", bytes.NewBufferString("plain text"), "not a Lanchat backup"},
		{"garbage database", archiveOf(t, untartest.Entry{Name: "lanchat.db", Content: "not bbolt"}), "does not open"},
	}
	// The hostile archives every unpacking refuses (untar's), after a
	// database, so that nothing but their hostile entries refuses them.
	for _, h := range untartest.HostileArchives {
		cases = append(cases, refused{h.Name, archiveOf(t, append([]untartest.Entry{{Name: "lanchat.db", Content: "x"}}, h.Entries...)...), h.Want})
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
