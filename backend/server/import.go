package server

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lanchat/backend/archive"
	"lanchat/backend/domain"
	"lanchat/backend/store"
	"lanchat/backend/teamimport"
)

// ErrImportRunning refuses a second import while one runs.
var ErrImportRunning = domain.BadRequest("An import is already running.")

// importer is the state of the import replacing the organization: one at
// a time, watched by polling ImportStatus.
type importer struct {
	// swapping is set while the organization is replaced: requests are
	// answered 503 (serveOrganization).
	swapping atomic.Bool
	// running counts the import goroutine, which Shutdown waits for.
	running sync.WaitGroup

	mu       sync.Mutex
	busy     bool
	format   string
	progress archive.Progress
	status   domain.ImportStatus // once not running
}

// StartImport receives an export archive and imports it in the
// background into a new folder, then replaces the organization with it
// (replaceOrganization), for owner, who keeps their access. The caller has
// checked owner's right to (domain.BeginImport).
func (s *Server) StartImport(owner domain.ImportingOwner, format string, body io.Reader, size int64) error {
	if formats := teamimport.Formats(); !slices.Contains(formats, format) {
		return domain.InvalidArgument("format", fmt.Sprintf("%q is not an export format Lanchat reads (%s)", format, strings.Join(formats, ", ")))
	}
	im := &s.imports
	im.mu.Lock()
	if im.busy {
		im.mu.Unlock()
		return ErrImportRunning
	}
	im.busy, im.format, im.progress = true, format, archive.Progress{Phase: "upload", TotalBytes: max(size, 0), Started: time.Now()}
	im.mu.Unlock()
	path, err := s.receiveArchive(&uploadCounter{r: body, im: im})
	if err != nil {
		im.finish(domain.ImportStatus{State: "failed", Format: format, Error: "The archive could not be received: " + err.Error()})
		return err
	}
	im.running.Add(1)
	go func() {
		defer im.running.Done()
		defer os.Remove(path)
		summary, err := s.importOrganization(owner, format, path)
		if err != nil {
			s.log.Error("import", "format", format, "err", err)
			im.finish(domain.ImportStatus{State: "failed", Format: format, Error: err.Error()})
			return
		}
		im.finish(domain.ImportDone(format, summary))
	}()
	return nil
}

// ImportStatus is how the last import since the server started goes.
func (s *Server) ImportStatus() domain.ImportStatus {
	im := &s.imports
	im.mu.Lock()
	defer im.mu.Unlock()
	switch {
	case im.busy:
		return domain.ImportRunning(im.format, im.progress, time.Now())
	case im.status.State == "":
		return domain.ImportStatus{State: "none"}
	}
	return im.status
}

func (im *importer) report(p archive.Progress) {
	im.mu.Lock()
	defer im.mu.Unlock()
	im.progress = p
}

func (im *importer) finish(status domain.ImportStatus) {
	im.mu.Lock()
	defer im.mu.Unlock()
	im.busy, im.status = false, status
}

// uploadCounter reports an upload's bytes as they arrive.
type uploadCounter struct {
	r  io.Reader
	im *importer
}

func (c *uploadCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.im.mu.Lock()
	c.im.progress.Bytes += int64(n)
	c.im.mu.Unlock()
	return n, err
}

// receiveArchive streams an uploaded archive to a temporary file beside
// the data directory (never inside it, which the import replaces).
func (s *Server) receiveArchive(body io.Reader) (string, error) {
	dir, base := filepath.Split(filepath.Clean(s.cfg.DataDir))
	f, err := os.CreateTemp(dir, base+".upload-*")
	if err != nil {
		return "", err
	}
	_, err = io.Copy(f, body)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// importOrganization imports the archive into a new folder beside the data
// directory, gives the importing owner their access in it, and replaces
// the organization with it. On failure the new folder goes and the
// organization is the one it was.
func (s *Server) importOrganization(owner domain.ImportingOwner, format, path string) (archive.Summary, error) {
	dir, base := filepath.Split(filepath.Clean(s.cfg.DataDir))
	target := filepath.Join(dir, base+".import-"+time.Now().UTC().Format("20060102-150405"))
	summary, err := teamimport.Run(s.ctx, teamimport.Options{DataDir: target, Format: format, Archive: path, Progress: s.imports.report})
	if err == nil {
		err = keepImportingOwner(target, owner)
	}
	if err == nil {
		err = s.replaceOrganization(target)
	}
	if err != nil {
		os.RemoveAll(target)
		return archive.Summary{}, err
	}
	return summary, nil
}

// keepImportingOwner opens the imported store, before it is served, to
// give the owner who imported it their access.
func keepImportingOwner(dir string, owner domain.ImportingOwner) error {
	st, err := store.Open(dir)
	if err != nil {
		return err
	}
	err = domain.New(st, domain.Config{DataDir: dir}).KeepImportingOwner(owner)
	return errors.Join(err, st.Close())
}

// replaceOrganization serves the organization in the folder imported
// instead of the data directory's, which is kept beside it as
// DATA.before-import-TIME. Requests get a 503 meanwhile; long-polls and
// WebSockets end, and their event queues with the old service, so clients
// register again on the new organization.
func (s *Server) replaceOrganization(imported string) error {
	im := &s.imports
	im.swapping.Store(true)
	defer im.swapping.Store(false)
	s.org.end()
	s.phones.hub.RevokeAll() // the topics were the replaced organization's people's
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.control != nil {
		s.control.Close()
		s.control = nil
	}
	defer func() {
		if err := s.listenControl(); err != nil {
			s.log.Warn("no control socket: lanchatd backup cannot reach this server", "err", err)
		}
	}()
	// People may have talked since the import began; no request runs now,
	// so no message can arrive between this check and the swap.
	replaceable := s.org.svc.ReplaceableByImport()
	if err := errors.Join(replaceable, s.org.store.Close()); err != nil {
		return s.reopen(err)
	}
	data := filepath.Clean(s.cfg.DataDir)
	kept := data + ".before-import-" + time.Now().UTC().Format("20060102-150405")
	if err := os.Rename(data, kept); err != nil {
		return s.reopen(err)
	}
	if err := os.Rename(imported, data); err != nil {
		return s.reopen(errors.Join(err, os.Rename(kept, data)))
	}
	// The HTTPS authority is the host's, which devices trust: it stays.
	if err := os.Rename(filepath.Join(kept, "tls"), filepath.Join(data, "tls")); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.log.Warn("the HTTPS authority stayed in the replaced organization's folder", "dir", kept, "err", err)
	}
	err := privateDir(data)
	if err == nil {
		var org *organization
		if org, err = s.openOrganization(); err == nil {
			s.org = org
			s.log.Info("organization replaced by an import; the one before is kept", "dir", kept)
			return nil
		}
	}
	return s.reopen(errors.Join(err, os.Rename(data, imported), os.Rename(kept, data)))
}

// reopen serves the organization of the data directory again after a
// failed replacement, and returns why it failed.
func (s *Server) reopen(why error) error {
	org, err := s.openOrganization()
	if err != nil {
		s.log.Error("the organization could not be opened again after a failed import", "err", err)
		return errors.Join(why, err)
	}
	s.org = org
	return why
}
