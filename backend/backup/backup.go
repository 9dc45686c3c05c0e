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
	"time"

	"lanchat/backend/store"
	"lanchat/backend/untar"
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
// yet, and checks that the restored database opens and is consistent. It
// unpacks into a staging folder inside dataDir and moves the files into
// place only once all is well, so a failed restore leaves nothing behind
// (and removes dataDir if it made it); an archive that expands far more
// than a backup does (a gzip bomb) is refused before it fills the disk.
func Restore(r io.Reader, dataDir string) (err error) {
	if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); err == nil {
		return fmt.Errorf("%s already holds a database: restore into an empty directory", dataDir)
	}
	_, statErr := os.Stat(dataDir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(dataDir, ".restore-*")
	if err != nil {
		return err
	}
	defer func() {
		os.RemoveAll(stage)
		if err != nil && created {
			os.Remove(dataDir)
		}
	}()
	if err := unpack(r, stage); err != nil {
		return err
	}
	st, err := store.Open(stage)
	if err != nil {
		return fmt.Errorf("restored database does not open: %w", err)
	}
	err = st.Check()
	if closeErr := st.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return err
	}
	return moveInto(stage, dataDir)
}

// limits bound what a restore unpacks: a backup is a database and mostly
// compressed user files, so it expands a few times at most.
var limits = untar.Limits{MaxTotal: 1 << 40, MaxEntries: 4 << 20, MaxRatio: 100}

// unpack writes the archive's files under dir (through backend/untar,
// which refuses names leaving dir, links, devices and bombs) and syncs
// them, for the move into place to keep them.
func unpack(r io.Reader, dir string) error {
	if _, err := untar.Unpack(r, dir, limits); err != nil {
		return fmt.Errorf("not a Lanchat backup: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, store.FileName)); err != nil {
		return errors.New("the backup holds no database")
	}
	return syncFiles(dir)
}

// syncFiles syncs the files under dir to disk.
func syncFiles(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// moveInto renames the staged entries into dataDir; if one cannot move,
// those already moved go back, leaving dataDir as it was.
func moveInto(stage, dataDir string) error {
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	var moved []string
	for _, e := range entries {
		if err := os.Rename(filepath.Join(stage, e.Name()), filepath.Join(dataDir, e.Name())); err != nil {
			for _, name := range moved {
				os.Rename(filepath.Join(dataDir, name), filepath.Join(stage, name))
			}
			return fmt.Errorf("move the restored %s into place: %w", e.Name(), err)
		}
		moved = append(moved, e.Name())
	}
	return nil
}
