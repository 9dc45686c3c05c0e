package archive

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"lanchat/backend/untar"
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
	// MaxEntries is the most files and folders it may hold; zero means no
	// bound.
	MaxEntries int
}

// DefaultLimits allow any real export: deflate expands text about 5 to 20
// times, no one file of an export is near 4 GiB, nothing honest claims
// more than a terabyte, nor four million files.
var DefaultLimits = Limits{MaxTotal: 1 << 40, MaxRatio: 200, MaxEntry: 4 << 30, MaxEntries: 4 << 20}

// Archive is an export opened for reading: its files as an fs.FS with
// checked names, and the bytes read from it so far (for progress).
type Archive struct {
	fs.FS
	// Name is the export's file (or folder) name, without its folder:
	// Slack names its exports after the workspace.
	Name string
	// Size is the archive's size on disk; for a tarball, what it
	// unpacked to, in which BytesRead counts too.
	Size int64
	// Claimed is what a zip's or tarball's files add up to uncompressed,
	// by their headers; 0 for a folder.
	Claimed int64
	// Scratch is a folder a reader may keep temporary files in while it
	// reads, on the disk the import goes to ("" for the system's
	// temporary folder, which may be memory).
	Scratch string
	closer  io.Closer
	read    *coverage // bytes read so far; nil when not counted
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
	counter := &countingReaderAt{r: f, read: &coverage{}}
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
	return &Archive{FS: zr, Name: filepath.Base(name), Size: st.Size(), Claimed: claimed, closer: f, read: counter.read}, nil
}

// checkZip checks the zip's names and claimed sizes, and returns their
// total.
func checkZip(zr *zip.Reader, limits Limits) (int64, error) {
	if limits.MaxEntries > 0 && len(zr.File) > limits.MaxEntries {
		return 0, Errorf(zr.File[limits.MaxEntries].Name, "is past the %d entries an archive may hold", limits.MaxEntries)
	}
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
// archive is read into (untar.CheckName's rule, for zips too).
func CheckName(name string) error { return fromUntar(untar.CheckName(name)) }

// OpenDir opens an export already unpacked into a folder.
func OpenDir(dir string) (*Archive, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	return &Archive{FS: os.DirFS(dir), Name: filepath.Base(dir)}, nil
}

// countingReaderAt counts the bytes read through it, each once, from any
// goroutine.
type countingReaderAt struct {
	r    io.ReaderAt
	read *coverage
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.read.add("", off, off+int64(n))
	return n, err
}
