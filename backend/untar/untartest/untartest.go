// Package untartest writes tar.gz archives for tests, among them the
// hostile ones every caller of untar.Unpack must refuse.
package untartest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// Entry is one entry of a test archive: a file unless Type says otherwise.
type Entry struct {
	Name, Content string
	Type          byte   // tar.TypeReg when 0
	Link          string // a link's target
	Zeros         int64  // zero bytes after Content, for bombs
}

// TarGz is a tar.gz of entries, in order.
func TarGz(t testing.TB, entries ...Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.Name, Mode: 0o600, Size: int64(len(e.Content)) + e.Zeros, Typeflag: e.Type, Linkname: e.Link}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.Content)); err != nil {
			t.Fatal(err)
		}
		if _, err := io.CopyN(tw, zeros{}, e.Zeros); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Hostile is an archive any unpacking must refuse, whatever its limits,
// with an error containing Want.
type Hostile struct {
	Name    string
	Entries []Entry
	Want    string
}

// HostileArchives escape the folder they are unpacked into, plant links
// or devices, or expand as a gzip bomb (100 MiB of zeros, about 100 KiB
// compressed: a thousand times).
var HostileArchives = []Hostile{
	{"dot-dot", []Entry{{Name: "../evil", Content: "x"}}, "../evil: leaves the archive"},
	{"dot-dot inside", []Entry{{Name: "uploads/../../evil", Content: "x"}}, "uploads/../../evil: leaves the archive"},
	{"absolute", []Entry{{Name: "/etc/evil", Content: "x"}}, "/etc/evil: leaves the archive"},
	{"backslash", []Entry{{Name: `..\evil`, Content: "x"}}, `..\evil: has a backslash`},
	{"symlink out", []Entry{{Name: "uploads/link", Type: tar.TypeSymlink, Link: "/etc"}, {Name: "uploads/link/evil", Content: "x"}}, "uploads/link: is a link or a device"},
	{"symlink within", []Entry{{Name: "uploads/a", Content: "x"}, {Name: "uploads/link", Type: tar.TypeSymlink, Link: "a"}}, "uploads/link: is a link or a device"},
	{"hardlink", []Entry{{Name: "uploads/hard", Type: tar.TypeLink, Link: "/etc/passwd"}}, "uploads/hard: is a link or a device"},
	{"character device", []Entry{{Name: "tty", Type: tar.TypeChar}}, "tty: is a link or a device"},
	{"block device", []Entry{{Name: "sda", Type: tar.TypeBlock}}, "sda: is a link or a device"},
	{"fifo", []Entry{{Name: "pipe", Type: tar.TypeFifo}}, "pipe: is a link or a device"},
	{"repeated", []Entry{{Name: "a.json", Content: "1"}, {Name: "./a.json", Content: "2"}}, "a.json: appears twice"},
	{"folder then file of one name", []Entry{{Name: "uploads/", Type: tar.TypeDir}, {Name: "uploads", Content: "x"}}, "uploads: appears twice"},
	{"bomb", []Entry{{Name: "zeros", Zeros: 100 << 20}}, "zeros: the archive expands past"},
}
