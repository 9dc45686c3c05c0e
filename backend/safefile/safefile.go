// Package safefile writes a file whole or not at all. Its content goes to a
// temporary file created exclusively beside it (a new name, never one
// another local user could have prepared, readable by the owner only), is
// synced, and only then renamed into place; on failure the temporary file
// is removed and the target is left as it was.
package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A temporary file is named "." + the target's name + a random part +
// tempSuffix.
const tempSuffix = ".tmp"

// Write creates or replaces path with what fill writes.
func Write(path string, fill func(io.Writer) error) error {
	tmp, err := writeTemp(path, fill)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeTemp writes what fill writes to a new, synced temporary file beside
// path and returns its name (to remove if anything fails).
func writeTemp(path string, fill func(io.Writer) error) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*"+tempSuffix)
	if err != nil {
		return "", err
	}
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return f.Name(), err
}

// WriteData is Write for content already in memory.
func WriteData(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Create writes path whole, but only if it does not exist yet: the synced
// temporary file is hard-linked into place, which fails when path exists,
// so two processes creating the same secret cannot both win and a crash
// never leaves a half-written one.
func Create(path string, data []byte) error {
	tmp, err := writeTemp(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if tmp != "" {
		defer os.Remove(tmp)
	}
	if err != nil {
		return err
	}
	return os.Link(tmp, path)
}

// RemoveLeftovers removes the temporary files under dir that writes cut
// short by a crash left there (a killed upload's, up to its whole size),
// and counts them; an absent dir has none. Only for a process that alone
// writes under dir: another's write in progress would lose its file.
func RemoveLeftovers(dir string) (removed int, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case path == dir && errors.Is(err, fs.ErrNotExist):
			return fs.SkipAll
		case err != nil:
			return err
		case !d.Type().IsRegular() || !strings.HasPrefix(d.Name(), ".") || !strings.HasSuffix(d.Name(), tempSuffix):
			return nil
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		removed++
		return nil
	})
	return removed, err
}
