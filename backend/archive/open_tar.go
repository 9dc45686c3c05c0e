package archive

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
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
	if err := unpackTarGz(f, st.Size(), dir, limits); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	a, err := OpenDir(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	a.Size, a.closer = st.Size(), removeOnClose(dir)
	return a, nil
}

type removeOnClose string

func (d removeOnClose) Close() error { return os.RemoveAll(string(d)) }

func unpackTarGz(r io.Reader, size int64, dir string, limits Limits) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not a readable tar.gz archive: %w", err)
	}
	tr := tar.NewReader(gz)
	budget := min(limits.MaxTotal, limits.MaxRatio*size+tarSlack)
	var total int64
	seen := map[string]bool{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not a readable tar.gz archive (cut short or damaged): %w", err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		if name == "" || name == "." {
			continue
		}
		if err := CheckName(name); err != nil {
			return err
		}
		clean := strings.TrimSuffix(name, "/")
		if seen[clean] {
			return Errorf(name, "appears twice in the archive")
		}
		seen[clean] = true
		target := filepath.Join(dir, filepath.FromSlash(clean))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			continue
		case tar.TypeReg:
		default:
			return Errorf(name, "is a link or a device, which an export never holds")
		}
		if limits.MaxEntry > 0 && h.Size > limits.MaxEntry {
			return Errorf(name, "claims %d bytes, more than the %d one file of an export may have", h.Size, limits.MaxEntry)
		}
		if total += h.Size; total > budget {
			return Errorf(name, "the archive expands past %d bytes from %d: refused as a bomb", budget, size)
		}
		if err := unpackFile(target, tr, h.Size); err != nil {
			return Errorf(name, "cannot be unpacked: %v", err)
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
