package untar_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/untar"
	"lanchat/backend/untar/untartest"
)

var bounds = untar.Limits{MaxTotal: 1 << 40, MaxEntry: 4 << 30, MaxEntries: 1000, MaxRatio: 200}

func TestUnpackWritesFilesAndFolders(t *testing.T) {
	dir := t.TempDir()
	n, err := untar.Unpack(bytes.NewReader(untartest.TarGz(t,
		untartest.Entry{Name: "./", Type: tar.TypeDir},
		untartest.Entry{Name: "export/", Type: tar.TypeDir},
		untartest.Entry{Name: "./export/realm.json", Content: `{"a":1}`},
		untartest.Entry{Name: "export/uploads/1/x.txt", Content: "hi"},
		untartest.Entry{Name: "export/empty/", Type: tar.TypeDir},
	)), dir, bounds)
	if err != nil || n != 9 {
		t.Fatalf("unpacked %d bytes, %v; want 9", n, err)
	}
	for name, want := range map[string]string{"export/realm.json": `{"a":1}`, "export/uploads/1/x.txt": "hi"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != want {
			t.Errorf("%s: %q %v, want %q", name, data, err, want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "export/empty")); err != nil || !st.IsDir() {
		t.Errorf("empty folder: %v", err)
	}
}

// Every hostile archive is refused, naming its entry, and nothing lands
// outside the folder.
func TestUnpackRefusesHostileArchives(t *testing.T) {
	for _, c := range untartest.HostileArchives {
		t.Run(c.Name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "a", "b")
			os.MkdirAll(dir, 0o700)
			_, err := untar.Unpack(bytes.NewReader(untartest.TarGz(t, c.Entries...)), dir, bounds)
			var ue *untar.Error
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.Want) {
				t.Fatalf("error %v, want an untar.Error with %q", err, c.Want)
			}
			for _, outside := range []string{"evil", "a/evil", "etc/evil"} {
				if _, err := os.Lstat(filepath.Join(parent, outside)); err == nil {
					t.Errorf("%s written outside the folder", outside)
				}
			}
		})
	}
}

// Each bound refuses the first entry past it.
func TestUnpackKeepsToLimits(t *testing.T) {
	three := []untartest.Entry{{Name: "a", Content: "12345"}, {Name: "b", Content: "12345"}, {Name: "c", Content: "12345"}}
	for _, c := range []struct {
		name   string
		limits untar.Limits
		want   string
	}{
		{"one file", untar.Limits{MaxEntry: 4}, "a: claims 5 bytes, more than the 4"},
		{"total", untar.Limits{MaxTotal: 12}, "c: the archive claims more than 12 bytes"},
		{"entries", untar.Limits{MaxEntries: 2}, "c: is past the 2 entries"},
		{"none", untar.Limits{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := untar.Unpack(bytes.NewReader(untartest.TarGz(t, three...)), t.TempDir(), c.limits)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// Cut anywhere, even in the gzip trailer after the tar's end (whose
// checksum is then all that tells), the archive is refused naming the
// last entry read.
func TestUnpackRefusesCutArchives(t *testing.T) {
	full := untartest.TarGz(t, untartest.Entry{Name: "a.json", Content: strings.Repeat("abc", 10000)}, untartest.Entry{Name: "b.json", Content: "{}"})
	for _, cut := range []int{len(full) / 2, len(full) - 4} {
		t.Run(fmt.Sprintf("at %d of %d", cut, len(full)), func(t *testing.T) {
			_, err := untar.Unpack(bytes.NewReader(full[:cut]), t.TempDir(), bounds)
			var ue *untar.Error
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not a readable tar.gz") {
				t.Fatalf("error %v, want an untar.Error", err)
			}
		})
	}
	if _, err := untar.Unpack(strings.NewReader("plain text"), t.TempDir(), bounds); err == nil || !strings.Contains(err.Error(), "not a readable tar.gz") {
		t.Errorf("not gzip: %v", err)
	}
}
