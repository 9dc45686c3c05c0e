package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteIsWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "file")
	if err := WriteData(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("disk gone")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half of the sec")
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("Write: %v, want the fill's error", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "first" {
		t.Errorf("after a failed write the file holds %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("a failed write left %v", entries)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %o, want 600", info.Mode().Perm())
	}
}

func TestCreateNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret")
	if err := Create(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, []byte("second")); !errors.Is(err, os.ErrExist) {
		t.Errorf("second Create: %v, want ErrExist", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "first" {
		t.Errorf("the file holds %q", data)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %o, want 600", info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// RemoveLeftovers removes the temporary files of cut-short writes, at any
// depth, and nothing else; an absent directory has none.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{ // name: a leftover
		"ab/.f00d.123.tmp":  true,
		".top.png.9.tmp":    true,
		"ab/f00d":           false,
		"ab/f00d.tmp":       false,
		"ab/.hidden":        false,
		"cd/.f00d.7.tmp.gz": false,
	}
	for name := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o700)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if removed, err := RemoveLeftovers(dir); removed != 2 || err != nil {
		t.Errorf("RemoveLeftovers: %d, %v; want 2, nil", removed, err)
	}
	for name, leftover := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) == leftover {
			t.Errorf("%s: leftover %v, still there: %v", name, leftover, err == nil)
		}
	}
	if removed, err := RemoveLeftovers(filepath.Join(dir, "absent")); removed != 0 || err != nil {
		t.Errorf("absent directory: %d, %v", removed, err)
	}
}
