package archive

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tarSlack is what any tar.gz may expand to beyond MaxRatio times its
// size: small archives of text expand more than large ones.
const tarSlack = 64 << 20

// OpenTarGz opens a tar.gz export (Zulip's) by unpacking it into dir, a
// new folder that Close removes: a tar has no index to read files from in
// place. It refuses what OpenZip refuses (names that leave the archive or
// repeat, an entry or a total over limits, an archive expanding more than
// MaxRatio times its size, checked as it is read) and links of any kind.
func OpenTarGz(name, dir string, limits Limits) (*Archive, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	unpacked, err := unpackTarGz(f, st.Size(), dir, limits)
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

// unpackTarGz writes a tarball's files under dir and returns their size.
// A cut or damaged archive is named by the last entry read before it
// broke; one cut after the tar's end is caught by gzip's trailer.
func unpackTarGz(r io.Reader, size int64, dir string, limits Limits) (int64, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return 0, fmt.Errorf("not a readable tar.gz archive: %w", err)
	}
	tr := tar.NewReader(gz)
	budget := min(limits.MaxTotal, limits.MaxRatio*size+tarSlack)
	var total int64
	seen := map[string]bool{}
	last := "the archive's start"
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			_, err = io.Copy(io.Discard, gz)
		}
		if errors.Is(err, io.EOF) || (err == nil && h == nil) {
			return total, nil
		}
		if err != nil {
			return 0, Errorf(last, "not a readable tar.gz archive after this entry (cut short or damaged): %v", err)
		}
		last = h.Name
		name := strings.TrimPrefix(h.Name, "./")
		if name == "" || name == "." {
			continue
		}
		if err := CheckName(name); err != nil {
			return 0, err
		}
		clean := strings.TrimSuffix(name, "/")
		if seen[clean] {
			return 0, Errorf(name, "appears twice in the archive")
		}
		seen[clean] = true
		target := filepath.Join(dir, filepath.FromSlash(clean))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return 0, err
			}
			continue
		case tar.TypeReg:
		default:
			return 0, Errorf(name, "is a link or a device, which an export never holds")
		}
		if limits.MaxEntry > 0 && h.Size > limits.MaxEntry {
			return 0, Errorf(name, "claims %d bytes, more than the %d one file of an export may have", h.Size, limits.MaxEntry)
		}
		if total += h.Size; total > budget {
			return 0, Errorf(name, "the archive expands past %d bytes from %d: refused as a bomb", budget, size)
		}
		if err := unpackFile(target, tr, h.Size); err != nil {
			return 0, Errorf(name, "cannot be unpacked: %v", err)
		}
	}
}

// unpackFile writes one entry's n bytes to a new file.
func unpackFile(path string, r io.Reader, n int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, r, n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
