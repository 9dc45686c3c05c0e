// Package backup writes and restores a whole Lanchat data directory as one
// tar.gz archive: a consistent snapshot of the database, taken inside one
// read transaction while the server keeps running, plus the files users
// uploaded (uploads, custom emoji, avatars).
package backup

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
	"time"

	"lanchat/backend/store"
)

// FileDirs are the data directory's folders of user files, archived whole.
var FileDirs = []string{"uploads", "emoji", "avatars"}

// Progress is told how many bytes of the archive's content are written out
// of the total known so far.
type Progress func(done, total int64)

// Write archives the store and the data directory's files to w.
func Write(w io.Writer, st *store.Store, dataDir string, progress Progress) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	files, total, err := userFiles(dataDir)
	if err != nil {
		return err
	}
	counter := &countingWriter{progress: progress}
	err = st.Snapshot(func(size int64, write func(io.Writer) error) error {
		counter.total = total + size
		hdr := &tar.Header{Name: store.FileName, Mode: 0o600, Size: size, ModTime: time.Now()}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		counter.w = tw
		return write(counter)
	})
	if err != nil {
		return fmt.Errorf("snapshot database: %w", err)
	}
	for _, rel := range files {
		if err := addFile(tw, counter, dataDir, rel); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// userFiles lists the files under FileDirs, relative to dataDir.
func userFiles(dataDir string) ([]string, int64, error) {
	var out []string
	var total int64
	for _, dir := range FileDirs {
		root := filepath.Join(dataDir, dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dataDir, path)
			out = append(out, filepath.ToSlash(rel))
			total += info.Size()
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

func addFile(tw *tar.Writer, counter *countingWriter, dataDir, rel string) error {
	f, err := os.Open(filepath.Join(dataDir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: 0o600, Size: info.Size(), ModTime: info.ModTime()}); err != nil {
		return err
	}
	_, err = io.CopyN(counter, f, info.Size())
	return err
}

type countingWriter struct {
	w        io.Writer
	done     int64
	total    int64
	progress Progress
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.done += int64(n)
	if c.progress != nil {
		c.progress(c.done, c.total)
	}
	return n, err
}

// Restore unpacks an archive into dataDir, which must not hold a database
// yet, and checks that the restored database opens and is consistent.
func Restore(r io.Reader, dataDir string) error {
	if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); err == nil {
		return fmt.Errorf("%s already holds a database: restore into an empty directory", dataDir)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not a Lanchat backup: %w", err)
	}
	tr := tar.NewReader(gz)
	sawDB := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read backup: %w", err)
		}
		target, err := safeTarget(dataDir, hdr.Name)
		if err != nil {
			return err
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		sawDB = sawDB || hdr.Name == store.FileName
		if err := writeFile(target, tr); err != nil {
			return err
		}
	}
	if !sawDB {
		return errors.New("the backup holds no database")
	}
	st, err := store.Open(dataDir)
	if err != nil {
		return fmt.Errorf("restored database does not open: %w", err)
	}
	defer st.Close()
	return st.Check()
}

// safeTarget keeps every archive entry inside dataDir: names are ours, but
// an archive is still input.
func safeTarget(dataDir, name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("backup entry %q escapes the data directory", name)
	}
	return filepath.Join(dataDir, clean), nil
}

func writeFile(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
