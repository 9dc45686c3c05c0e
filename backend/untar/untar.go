// Package untar is the one way Lanchat unpacks a tar.gz into a folder (a
// backup's restore, a Zulip export's import): an archive is input, so it
// refuses any name that could land outside the folder (absolute, "..",
// backslashes, repeated), any entry but files and folders (links, devices)
// and archives past its bounds (total size, one file's size, the count of
// entries, and bytes unpacked per compressed byte read: a gzip bomb is
// caught as it expands, before it fills the disk).
package untar

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits bound what an archive may unpack to; a zero field sets no bound.
type Limits struct {
	// MaxTotal is the most its files may add up to.
	MaxTotal int64
	// MaxEntry is the most one file may hold.
	MaxEntry int64
	// MaxEntries is the most files and folders it may hold: empty files
	// expand by no bytes, yet each costs the disk an inode.
	MaxEntries int
	// MaxRatio is the most bytes unpacked per compressed byte read, past
	// the first Slack bytes (small archives of text expand more than
	// large ones).
	MaxRatio int64
}

// Slack is what any archive may expand to beyond MaxRatio times the
// compressed bytes read.
const Slack = 64 << 20

// Error is an archive refused or unreadable, naming the entry at fault
// (or the last one read before the archive broke).
type Error struct {
	Entry  string
	Reason string
}

func (e *Error) Error() string { return e.Entry + ": " + e.Reason }

func errorf(entry, format string, args ...any) error {
	return &Error{Entry: entry, Reason: fmt.Sprintf(format, args...)}
}

// CheckName refuses a file name that could land outside the folder an
// archive is unpacked into: empty, with a NUL or a backslash, absolute, or
// with "." or ".." parts. A folder's name may end in "/".
func CheckName(name string) error {
	switch {
	case name == "" || strings.ContainsRune(name, 0):
		return errorf(fmt.Sprintf("%q", name), "is not a file name")
	case strings.Contains(name, `\`):
		return errorf(name, "has a backslash: refused as a path that could leave the archive")
	case path.IsAbs(name) || !fs.ValidPath(strings.TrimSuffix(name, "/")):
		return errorf(name, "leaves the archive (absolute or with ..)")
	}
	return nil
}

// Unpack reads the tar.gz r and writes its files and folders under dir,
// which exists, returning the bytes unpacked. A leading "./" of a name is
// dropped. A cut or damaged archive is named by the last entry read
// before it broke; one cut after the tar's end is caught by gzip's
// trailer. What an error leaves under dir is the caller's to remove.
func Unpack(r io.Reader, dir string, limits Limits) (int64, error) {
	in := &countingReader{r: r}
	gz, err := gzip.NewReader(in)
	if err != nil {
		return 0, fmt.Errorf("not a readable tar.gz archive: %w", err)
	}
	tr := tar.NewReader(gz)
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
			return 0, errorf(last, "not a readable tar.gz archive after this entry (cut short or damaged): %v", err)
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
			return 0, errorf(name, "appears twice in the archive")
		}
		seen[clean] = true
		if limits.MaxEntries > 0 && len(seen) > limits.MaxEntries {
			return 0, errorf(name, "is past the %d entries an archive may hold", limits.MaxEntries)
		}
		target := filepath.Join(dir, filepath.FromSlash(clean))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return 0, err
			}
			continue
		case tar.TypeReg:
		default:
			return 0, errorf(name, "is a link or a device, which is refused")
		}
		if limits.MaxEntry > 0 && h.Size > limits.MaxEntry {
			return 0, errorf(name, "claims %d bytes, more than the %d one file may hold", h.Size, limits.MaxEntry)
		}
		if total += h.Size; limits.MaxTotal > 0 && total > limits.MaxTotal {
			return 0, errorf(name, "the archive claims more than %d bytes", limits.MaxTotal)
		}
		body := io.Reader(tr)
		if limits.MaxRatio > 0 {
			body = &expansionGuard{r: tr, in: in, out: total - h.Size, ratio: limits.MaxRatio}
		}
		if err := unpackFile(target, body, h.Size); err != nil {
			var bomb *bombError
			if errors.As(err, &bomb) {
				return 0, errorf(name, "the archive expands past %d bytes from %d: refused as a bomb", bomb.out, bomb.in)
			}
			return 0, errorf(name, "cannot be unpacked: %v", err)
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

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// expansionGuard reads an entry's bytes, failing once all unpacked so far
// passes Slack plus ratio times the compressed bytes read.
type expansionGuard struct {
	r     io.Reader
	in    *countingReader
	out   int64
	ratio int64
}

type bombError struct{ out, in int64 }

func (b *bombError) Error() string { return "expands too far" }

func (g *expansionGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.out += int64(n)
	if g.out > Slack+g.ratio*g.in.n {
		return n, &bombError{out: g.out, in: g.in.n}
	}
	return n, err
}
