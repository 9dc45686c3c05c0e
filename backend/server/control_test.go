package server

import (
	"context"
	"io"
	"net"
	"net/http"
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

// TestFailedBackupIsCutOff: a backup that fails must not reach the client
// as a cleanly ended answer, which `lanchatd backup` would save as a whole
// archive.
func TestFailedBackupIsCutOff(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Config{DataDir: dir, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	s.org.store.Close() // the snapshot fails
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", filepath.Join(dir, ControlSocket))
	}}}
	resp, err := client.Get("http://lanchatd/backup")
	if err != nil {
		return // cut before the status line
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("a failed backup ended cleanly: %s, %d bytes", resp.Status, len(body))
	}
}
