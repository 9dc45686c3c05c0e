package server

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestControlSocketIsPrivate: the control socket hands out full backups
// (API keys, password hashes), so whatever the umask it is the owner's
// alone, and so is a data directory created or left open to others.
func TestControlSocketIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o775); err != nil { // a group-writable folder
		t.Fatal(err)
	}
	old := syscall.Umask(0)
	s, err := Open(Config{DataDir: dir, Addr: "127.0.0.1:0"})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, ControlSocket): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
}
