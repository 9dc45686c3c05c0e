package archive

import (
	"archive/tar"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/untar/untartest"
)

// writeTarGz writes a tar.gz of entries to a file.
func writeTarGz(t *testing.T, entries ...untartest.Entry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.tar.gz")
	if err := os.WriteFile(path, untartest.TarGz(t, entries...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenTarGzUnpacksAndRemovesOnClose(t *testing.T) {
	path := writeTarGz(t, untartest.Entry{Name: "export/", Type: tar.TypeDir}, untartest.Entry{Name: "./export/realm.json", Content: `{"a":1}`}, untartest.Entry{Name: "export/uploads/1/x.txt", Content: "hi"})
	dir := filepath.Join(t.TempDir(), "unpacked")
	a, err := OpenTarGz(path, dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(a, "export/uploads/1/x.txt"); err != nil || string(data) != "hi" {
		t.Errorf("read %q %v", data, err)
	}
	a.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("unpacked folder left after Close: %v", err)
	}
}

// The hostile archives every unpacking refuses (untar's), and one past
// the limits given, are Errors naming the entry, and leave no folder.
func TestOpenTarGzRefusesHostileArchives(t *testing.T) {
	type hostile struct {
		untartest.Hostile
		limits Limits
	}
	cases := []hostile{{untartest.Hostile{Name: "entry over the limit", Entries: []untartest.Entry{{Name: "big", Content: strings.Repeat("x", 100)}}, Want: "big: claims 100 bytes"},
		Limits{MaxTotal: 1 << 40, MaxRatio: 200, MaxEntry: 10}}}
	for _, h := range untartest.HostileArchives {
		cases = append(cases, hostile{h, DefaultLimits})
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "unpacked")
			_, err := OpenTarGz(writeTarGz(t, c.Entries...), dir, c.limits)
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.Want) {
				t.Fatalf("error %v, want an archive.Error with %q", err, c.Want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("unpacked folder left: %v", err)
			}
		})
	}
}

// An unpacked tarball's size is what it unpacked to, and reading its files
// counts toward BytesRead, for an import's progress.
func TestOpenTarGzCountsWhatIsRead(t *testing.T) {
	path := writeTarGz(t, untartest.Entry{Name: "export/realm.json", Content: `{"a":1}`}, untartest.Entry{Name: "export/big", Content: strings.Repeat("x", 1000)})
	a, err := OpenTarGz(path, filepath.Join(t.TempDir(), "u"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Size != 1007 {
		t.Errorf("size %d, want the 1007 bytes unpacked", a.Size)
	}
	if _, err := fs.ReadFile(a, "export/realm.json"); err != nil {
		t.Fatal(err)
	}
	if entries, err := fs.ReadDir(a, "export"); err != nil || len(entries) != 2 {
		t.Errorf("read dir: %v %v", entries, err)
	}
	if got := a.BytesRead(); got != 7 {
		t.Errorf("read %d bytes, want 7", got)
	}
}
