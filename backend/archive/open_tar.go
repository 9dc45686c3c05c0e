package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"lanchat/backend/untar"
)

// OpenTarGz opens a tar.gz export (Zulip's) by unpacking it into dir, a
// new folder that Close removes: a tar has no index to read files from in
// place. It refuses what OpenZip refuses (names that leave the archive or
// repeat, an entry, a total or a count over limits, an archive expanding
// more than MaxRatio times its size, checked as it is read) and links and
// devices: the unpacking is backend/untar's.
func OpenTarGz(name, dir string, limits Limits) (*Archive, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	unpacked, err := unpackTarGz(f, dir, limits)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The reader's progress is measured in the unpacked files it reads.
	fsys := &countingFS{FS: os.DirFS(dir), read: &coverage{}}
	return &Archive{FS: fsys, Name: filepath.Base(name), Size: unpacked, Claimed: unpacked, closer: removeOnClose(dir), read: fsys.read}, nil
}

// countingFS counts the bytes read from its files, each once however
// often a file is read.
type countingFS struct {
	fs.FS
	read *coverage
}

func (c *countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, name: name, read: c.read}, nil
}

// countingFile reads its file from the start on (it offers no Seek).
type countingFile struct {
	fs.File
	name string
	off  int64
	read *coverage
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.File.Read(p)
	c.read.add(c.name, c.off, c.off+int64(n))
	c.off += int64(n)
	return n, err
}

// ReadDir passes a folder's listing through, which the wrapper would hide.
func (c *countingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := c.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Path: ".", Err: errors.ErrUnsupported}
}

type removeOnClose string

func (d removeOnClose) Close() error { return os.RemoveAll(string(d)) }

// unpackTarGz unpacks through untar, whose refusals become Errors naming
// the entry.
func unpackTarGz(r io.Reader, dir string, limits Limits) (int64, error) {
	n, err := untar.Unpack(r, dir, untar.Limits{MaxTotal: limits.MaxTotal, MaxEntry: limits.MaxEntry, MaxEntries: limits.MaxEntries, MaxRatio: limits.MaxRatio})
	return n, fromUntar(err)
}

// fromUntar makes an untar.Error an Error, naming the same entry.
func fromUntar(err error) error {
	var e *untar.Error
	if errors.As(err, &e) {
		return &Error{Record: e.Entry, Reason: e.Reason}
	}
	return err
}
