package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"lanchat/backend/backup"
	"lanchat/backend/safefile"
	"lanchat/backend/server"
	"lanchat/backend/store"
)

// backupCmd writes a backup of DIR to FILE: through the running server's
// control socket when there is one (the database is locked by it), or
// straight from the store when the server is stopped.
func backupCmd(args []string, stderr io.Writer) error {
	fs := newFlags("backup", stderr)
	dataDir := fs.String("data", "", "data directory")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *dataDir == "" || fs.NArg() != 1 {
		return fmt.Errorf("%w: backup needs --data DIR and one FILE", errUsage)
	}
	// Only a complete archive takes the file's name.
	return safefile.Write(fs.Arg(0), func(w io.Writer) error { return writeBackup(w, *dataDir) })
}

func writeBackup(w io.Writer, dataDir string) error {
	return fromStore(w, dataDir, "/backup", func(st *store.Store) error { return backup.Write(w, st, dataDir, nil) })
}

// fromStore writes what the running server's control socket answers at
// path to w or, when no server answers, what write makes from the store,
// which is then ours to open.
func fromStore(w io.Writer, dataDir, path string, write func(*store.Store) error) error {
	socket := filepath.Join(dataDir, server.ControlSocket)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	resp, err := client.Get("http://lanchatd" + path)
	if err == nil {
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the running server refused: %s", resp.Status)
		}
		_, err = io.Copy(w, resp.Body)
		return err
	}
	st, err := store.Open(dataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	return write(st)
}

// restoreCmd unpacks FILE into an empty DIR for a stopped server.
func restoreCmd(args []string, stderr io.Writer) error {
	fs := newFlags("restore", stderr)
	dataDir := fs.String("data", "", "empty data directory to restore into")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *dataDir == "" || fs.NArg() != 1 {
		return fmt.Errorf("%w: restore needs --data DIR and one FILE", errUsage)
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	return backup.Restore(f, *dataDir)
}
