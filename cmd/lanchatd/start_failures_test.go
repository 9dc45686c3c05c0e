package main

import (
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanchat/backend/store"
)

// TestStartFailuresSayWhy: a server that cannot start says why in one
// line naming what it could not use, once, and exits with status 1 within
// a few seconds, without a panic trace; a second server on the data
// directory of a running one leaves that one serving, its control socket
// included.
func TestStartFailuresSayWhy(t *testing.T) {
	running := t.TempDir()
	first, base := startServer(t, running)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()

	for _, c := range []struct {
		name string
		// data prepares the data directory and returns it; addr is
		// where to listen ("": a free port).
		data func(t *testing.T) string
		addr string
		// want is the line, %s standing for the data directory.
		want string
	}{
		{"the data directory is a file", func(t *testing.T) string {
			path := filepath.Join(t.TempDir(), "data")
			os.WriteFile(path, []byte("not a directory"), 0o600)
			return path
		}, "", "lanchatd: mkdir %s: not a directory"},
		{"the database is a directory", func(t *testing.T) string {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, store.FileName), 0o700)
			return dir
		}, "", "lanchatd: open %s/lanchat.db: is a directory"},
		{"the database is not one", func(t *testing.T) string {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, store.FileName), []byte("some other file, long enough to hold a header"), 0o600)
			return dir
		}, "", "lanchatd: open %s/lanchat.db: invalid database"},
		{"another server runs on the data directory", func(t *testing.T) string { return running }, "",
			"lanchatd: open %s/lanchat.db: the database is in use by another process"},
		{"the port is taken", func(t *testing.T) string { return t.TempDir() }, busy.Addr().String(),
			"lanchatd: listen on " + busy.Addr().String() + ": bind: address already in use"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.data(t)
			addr := c.addr
			if addr == "" {
				addr = "127.0.0.1:0"
			}
			start := time.Now()
			out, err := exec.Command(binary, "serve", "--addr", addr, "--data", dir).CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Errorf("exit %v, want status 1", err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v to fail", took)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if want := strings.ReplaceAll(c.want, "%s", dir); lines[len(lines)-1] != want {
				t.Errorf("last line %q, want %q; all:\n%s", lines[len(lines)-1], want, out)
			}
		})
	}

	resp, err := http.Get(base + "/api/v1/server_settings")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the first server after a second tried its data directory: %v %v", resp, err)
	}
	resp.Body.Close()
	backup := filepath.Join(t.TempDir(), "backup.tar.gz")
	if out, err := exec.Command(binary, "backup", "--data", running, backup).CombinedOutput(); err != nil {
		t.Errorf("backup through the first server's control socket: %v\n%s", err, out)
	}
	stop(t, first)
}
