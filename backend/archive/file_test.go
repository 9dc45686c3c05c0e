package archive

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "import.jsonl")
	if err := os.WriteFile(name, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A neighbour of the file is not part of the archive.
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := OpenFile(name)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Size != 3 {
		t.Errorf("size %d", a.Size)
	}
	entries, err := fs.ReadDir(a, ".")
	if err != nil || len(entries) != 1 || entries[0].Name() != "import.jsonl" {
		t.Fatalf("entries %v, %v", entries, err)
	}
	f, err := a.Open("import.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "{}\n" {
		t.Errorf("content %q", b)
	}
	for _, other := range []string{"secret", "../secret", "dir/import.jsonl"} {
		if _, err := a.Open(other); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q): %v, want not found", other, err)
		}
	}
	if _, err := OpenFile(dir); err == nil {
		t.Errorf("a folder opened as a file")
	}
}
