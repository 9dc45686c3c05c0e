package main

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"lanchat/backend/archive/zulip"
	"lanchat/backend/safefile"
	"lanchat/backend/store"
)

// exportCmd writes DIR's organization to FILE in Zulip's export format,
// for `./manage.py import` on a Zulip server: through the running server's
// control socket when there is one, or straight from the store.
func exportCmd(args []string, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	dataDir := fs.String("data", "", "data directory")
	format := fs.String("format", "zulip", "the export's format (zulip: Zulip's ./manage.py export)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case *dataDir == "" || fs.NArg() != 1:
		return fmt.Errorf("%w: export needs --data DIR and one FILE", errUsage)
	case *format != "zulip":
		return fmt.Errorf("%w: --format is zulip, not %q", errUsage, *format)
	}
	// Zulip's tarball holds one folder named as the file is.
	folder := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(fs.Arg(0)), ".gz"), ".tar")
	return safefile.Write(fs.Arg(0), func(w io.Writer) error {
		return fromStore(w, *dataDir, "/export/zulip?folder="+url.QueryEscape(folder), func(st *store.Store) error {
			return zulip.Write(w, st, *dataDir, folder)
		})
	})
}
