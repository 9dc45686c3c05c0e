package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type tarEntry struct {
	name, content string
	kind          byte
}

func writeTarGz(t *testing.T, entries []tarEntry) string {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o600, Size: int64(len(e.content)), Typeflag: e.kind}
		switch e.kind {
		case 0:
			h.Typeflag = tar.TypeReg
		case tar.TypeSymlink, tar.TypeLink:
			h.Linkname, h.Size = "/etc/passwd", 0
		case tar.TypeDir:
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.content))
	}
	tw.Close()
	gz.Close()
	path := filepath.Join(t.TempDir(), "export.tar.gz")
	os.WriteFile(path, b.Bytes(), 0o600)
	return path
}

func TestOpenTarGzUnpacksAndRemovesOnClose(t *testing.T) {
	path := writeTarGz(t, []tarEntry{{name: "export/", kind: tar.TypeDir}, {name: "./export/realm.json", content: `{"a":1}`}, {name: "export/uploads/1/x.txt", content: "hi"}})
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

func TestOpenTarGzRefusesHostileArchives(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []tarEntry
		limits  Limits
		want    string
	}{
		{"dot-dot", []tarEntry{{name: "../evil", content: "x"}}, DefaultLimits, "../evil: leaves the archive"},
		{"absolute", []tarEntry{{name: "/etc/evil", content: "x"}}, DefaultLimits, "/etc/evil: leaves the archive"},
		{"symlink", []tarEntry{{name: "export/link", kind: tar.TypeSymlink}}, DefaultLimits, "export/link: is a link or a device"},
		{"hardlink", []tarEntry{{name: "export/hard", kind: tar.TypeLink}}, DefaultLimits, "export/hard: is a link or a device"},
		{"device", []tarEntry{{name: "export/tty", kind: tar.TypeChar}}, DefaultLimits, "export/tty: is a link or a device"},
		{"repeated", []tarEntry{{name: "a.json", content: "1"}, {name: "./a.json", content: "2"}}, DefaultLimits, "a.json: appears twice"},
		{"entry over the limit", []tarEntry{{name: "big", content: strings.Repeat("x", 100)}}, Limits{MaxTotal: 1 << 40, MaxRatio: 200, MaxEntry: 10}, "big: claims 100 bytes"},
		{"bomb", []tarEntry{{name: "zeros", content: strings.Repeat("\x00", 100<<20)}}, DefaultLimits, "zeros: the archive expands past"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "unpacked")
			_, err := OpenTarGz(writeTarGz(t, c.entries), dir, c.limits)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("unpacked folder left: %v", err)
			}
		})
	}
	// Cut anywhere, even in the gzip trailer after the tar's end (whose
	// checksum is then all that tells), the archive is refused naming the
	// last entry read.
	entries := []tarEntry{{name: "a.json", content: strings.Repeat("abc", 10000)}, {name: "b.json", content: "{}"}}
	full, _ := os.ReadFile(writeTarGz(t, entries))
	for _, cut := range []int{len(full) / 2, len(full) - 4} {
		t.Run(fmt.Sprintf("truncated at %d of %d", cut, len(full)), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cut.tar.gz")
			os.WriteFile(path, full[:cut], 0o600)
			_, err := OpenTarGz(path, filepath.Join(t.TempDir(), "u"), DefaultLimits)
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), "not a readable tar.gz") {
				t.Fatalf("error %v, want an archive.Error", err)
			}
		})
	}
}

// An unpacked tarball's size is what it unpacked to, and reading its files
// counts toward BytesRead, for an import's progress.
func TestOpenTarGzCountsWhatIsRead(t *testing.T) {
	path := writeTarGz(t, []tarEntry{{name: "export/realm.json", content: `{"a":1}`}, {name: "export/big", content: strings.Repeat("x", 1000)}})
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
