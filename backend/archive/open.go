package archive

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Limits bound what an archive may claim before any of it is read.
type Limits struct {
	// MaxTotal is the most its files may add up to, uncompressed.
	MaxTotal int64
	// MaxRatio is the most one large file (over 1 MiB) may expand from
	// its compressed size: beyond it, the archive is a zip bomb.
	MaxRatio int64
	// MaxEntry is the most one file may claim, uncompressed; zero means
	// no bound beyond MaxTotal.
	MaxEntry int64
}

// DefaultLimits allow any real export: deflate expands text about 5 to 20
// times, no one file of an export is near 4 GiB, and nothing honest claims
// more than a terabyte.
var DefaultLimits = Limits{MaxTotal: 1 << 40, MaxRatio: 200, MaxEntry: 4 << 30}

// Archive is an export opened for reading: its files as an fs.FS with
// checked names, and the bytes read from it so far (for progress).
type Archive struct {
	fs.FS
	// Size is the archive's size on disk.
	Size int64
	// Claimed is what a zip's files add up to uncompressed, by their
	// headers; 0 for a folder.
	Claimed int64
	closer  io.Closer
	read    *countingReaderAt
}

// BytesRead is how much of the archive has been read.
func (a *Archive) BytesRead() int64 {
	if a.read == nil {
		return 0
	}
	return a.read.n.Load()
}

// Close releases the archive's file.
func (a *Archive) Close() error {
	if a.closer == nil {
		return nil
	}
	return a.closer.Close()
}

// OpenZip opens a zip export, refusing one whose entry names leave the
// archive (absolute, "..", backslashes), repeat, or claim more than limits
// allow. Reading an entry past the size it claims fails (archive/zip checks
// every entry against its header).
func OpenZip(name string, limits Limits) (*Archive, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	counter := &countingReaderAt{r: f}
	zr, err := zip.NewReader(counter, st.Size())
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		f.Close()
		return nil, fmt.Errorf("%s: not a readable zip archive: %w", name, err)
	}
	claimed, err := checkZip(zr, limits)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Archive{FS: zr, Size: st.Size(), Claimed: claimed, closer: f, read: counter}, nil
}

// checkZip checks the zip's names and claimed sizes, and returns their
// total.
func checkZip(zr *zip.Reader, limits Limits) (int64, error) {
	seen := make(map[string]bool, len(zr.File))
	var total uint64
	for _, f := range zr.File {
		if err := CheckName(f.Name); err != nil {
			return 0, err
		}
		clean := strings.TrimSuffix(f.Name, "/")
		if seen[clean] {
			return 0, Errorf(f.Name, "appears twice in the archive")
		}
		seen[clean] = true
		if limits.MaxEntry > 0 && f.UncompressedSize64 > uint64(limits.MaxEntry) {
			return 0, Errorf(f.Name, "claims %d bytes, more than the %d one file of an export may have", f.UncompressedSize64, limits.MaxEntry)
		}
		total += f.UncompressedSize64
		if total > uint64(limits.MaxTotal) {
			return 0, Errorf(f.Name, "the archive claims more than %d bytes uncompressed", limits.MaxTotal)
		}
		if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64 > uint64(limits.MaxRatio)*max(f.CompressedSize64, 1) {
			return 0, Errorf(f.Name, "expands %d bytes into %d: refused as a zip bomb", f.CompressedSize64, f.UncompressedSize64)
		}
	}
	return int64(total), nil
}

// CheckName refuses a file name that could land outside the folder an
// archive is read into.
func CheckName(name string) error {
	switch {
	case name == "" || strings.ContainsRune(name, 0):
		return Errorf(fmt.Sprintf("%q", name), "is not a file name")
	case strings.Contains(name, `\`):
		return Errorf(name, "has a backslash: refused as a path that could leave the archive")
	case path.IsAbs(name) || !fs.ValidPath(strings.TrimSuffix(name, "/")):
		return Errorf(name, "leaves the archive (absolute or with ..)")
	}
	return nil
}

// OpenDir opens an export already unpacked into a folder.
func OpenDir(dir string) (*Archive, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	return &Archive{FS: os.DirFS(dir)}, nil
}

// countingReaderAt counts the bytes read through it, from any goroutine.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// OpenTarGz unpacks a tar.gz export (Zulip's is one) into a new temporary
// folder inside tempParent and opens that: a tar has no index to read
// entries from in any order. Names are checked as OpenZip checks them;
// links, devices and repeated names are refused, and so is content past
// limits.MaxTotal or expanding more than limits.MaxRatio times the
// compressed bytes read. Close removes the folder.
func OpenTarGz(name, tempParent string, limits Limits) (a *Archive, err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tempParent, ".unpack-*")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	if err := unpackTarGz(bufio.NewReader(f), dir, limits); err != nil {
		return nil, err
	}
	return &Archive{FS: os.DirFS(dir), Size: st.Size(), closer: removeDir(dir)}, nil
}

type removeDir string

func (d removeDir) Close() error { return os.RemoveAll(string(d)) }

// freeExpansion is what any archive may expand to before MaxRatio applies
// (a small export of JSON compresses far better than large files do).
const freeExpansion = 1 << 20

func unpackTarGz(r io.Reader, dir string, limits Limits) error {
	in := &countingReader{r: r}
	gz, err := gzip.NewReader(in)
	if err != nil {
		return fmt.Errorf("not a tar.gz archive: %w", err)
	}
	tr := tar.NewReader(gz)
	seen := map[string]bool{}
	var total int64
	guard := &ratioGuard{r: tr, in: in, limits: limits}
	last := "the archive's start"
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			// The gzip trailer's checksum and length catch a cut after
			// the tar's end.
			if _, err := io.Copy(io.Discard, gz); err != nil {
				return Errorf(last, "the archive breaks after this entry (truncated): %v", err)
			}
			return nil
		}
		if err != nil {
			return Errorf(last, "the archive breaks after this entry (truncated or not a tar): %v", err)
		}
		last = hdr.Name
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		if err := CheckName(hdr.Name); err != nil {
			return err
		}
		clean := path.Clean(hdr.Name)
		if seen[clean] {
			return Errorf(hdr.Name, "appears twice in the archive")
		}
		seen[clean] = true
		target := filepath.Join(dir, filepath.FromSlash(clean))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			continue
		case tar.TypeReg:
		default:
			return Errorf(hdr.Name, "is a link or a special file (tar type %q): refused", hdr.Typeflag)
		}
		total += hdr.Size
		if total > limits.MaxTotal {
			return Errorf(hdr.Name, "the archive claims more than %d bytes uncompressed", limits.MaxTotal)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return err
		}
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		guard.name = hdr.Name
		_, err = io.Copy(out, guard)
		if closeErr := out.Close(); err == nil {
			err = closeErr
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Errorf(hdr.Name, "the archive ends inside this file: truncated")
		}
		if err != nil {
			return err
		}
	}
}

// countingReader counts the compressed bytes read.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioGuard refuses an entry once everything unpacked so far outgrows
// the compressed bytes read by more than the limits allow: a gzip bomb.
type ratioGuard struct {
	r      io.Reader
	in     *countingReader
	name   string // the entry being read
	limits Limits
	out    int64 // bytes unpacked, all entries together
}

func (g *ratioGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.out += int64(n)
	if g.out > freeExpansion && g.out > g.limits.MaxRatio*max(g.in.n, 1) {
		return n, Errorf(g.name, "expands %d compressed bytes into more than %d: refused as a gzip bomb", g.in.n, g.out)
	}
	return n, err
}
