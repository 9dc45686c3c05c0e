package server

import (
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"lanchat/backend/backup"
)

// ControlSocket is the Unix socket inside the data directory through which
// host tools (lanchatd backup) reach a running server. The data directory
// is private to its owner, so the socket needs no other authentication.
const ControlSocket = "control.sock"

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
	mux := http.NewServeMux()
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		if err := backup.Write(w, s.Store, s.cfg.DataDir, nil); err != nil {
			s.log.Error("backup over the control socket", "err", err)
		}
	})
	s.control = &http.Server{Handler: mux}
	go s.control.Serve(ln)
	return nil
}
