package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// ControlSocket is the Unix socket inside the data directory through which
// host tools (lanchatd backup, lanchatd export) reach a running server. The data directory
// and the socket are private to their owner (privateDir), so the socket
// needs no other authentication.
const ControlSocket = "control.sock"

// privateDir creates the data directory, or makes an existing one, the
// owner's alone: it holds the database and the control socket, which hands
// out backups. One others may enter is tightened, or refused if it cannot
// be.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("the data directory %s is open to other users (mode %o) and cannot be made private: %w", dir, perm, err)
		}
		slog.Warn("the data directory was open to other users: made it the owner's alone", "dir", dir, "mode", fmt.Sprintf("%o", perm))
	}
	return nil
}

// listenControl serves host-only commands on the data directory's socket.
// A socket left by a crashed server is replaced: holding the database lock
// proves no other server owns this directory.
func (s *Server) listenControl() error {
	path := filepath.Join(s.cfg.DataDir, ControlSocket)
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	// The socket's mode follows the umask; the directory already keeps
	// others out, this keeps them out of the socket too.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		if err := s.Backup(w, nil); err != nil {
			s.abortControlAnswer("backup over the control socket", err)
		}
	})
	mux.HandleFunc("GET /export/zulip", func(w http.ResponseWriter, r *http.Request) {
		folder := r.URL.Query().Get("folder")
		if folder == "" || strings.ContainsAny(folder, "/\\") || folder == "." || folder == ".." {
			http.Error(w, "folder is one plain name", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/gzip")
		if err := s.ExportZulip(w, folder); err != nil {
			s.abortControlAnswer("Zulip export over the control socket", err)
		}
	})
	s.control = &http.Server{Handler: mux}
	go s.control.Serve(ln)
	return nil
}

// abortControlAnswer logs what failed and cuts the connection: a cleanly
// ended answer would pass for a whole archive, which the host tools would
// then save.
func (s *Server) abortControlAnswer(what string, err error) {
	s.log.Error(what, "err", err)
	panic(http.ErrAbortHandler)
}
