package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lanchat/backend/archive"
	"lanchat/backend/domain"
	"lanchat/backend/teamimport"
)

// ExportChoice is the export file the host chose, and the organization's
// name an import of it gives ("" when that is known only once imported),
// for the welcome page to prefill its name field with.
type ExportChoice struct {
	File string `json:"file"` // "": none was chosen
	Name string `json:"name"`
}

// chosenExport is a file ChooseExport asked for.
type chosenExport struct{ format, path string }

// ChooseExport asks for the export file to host and keeps it for
// HostFromExport, which then asks for none, saying the organization's name
// it carries (teamimport.ExportName) for the host to keep or change.
func (a *App) ChooseExport(format string) (ExportChoice, error) {
	if formats := teamimport.Formats(); !slices.Contains(formats, format) {
		return ExportChoice{}, fmt.Errorf("unknown export format %q (this build reads: %s)", format, strings.Join(formats, ", "))
	}
	a.mu.Lock()
	busy := a.srv != nil || a.joined != ""
	a.mu.Unlock()
	if busy {
		return ExportChoice{}, errors.New("this app already hosts or joined a team: an import starts a new one")
	}
	path, err := a.openDialog("Choose the " + format + " export to host")
	if err != nil || path == "" {
		return ExportChoice{}, err
	}
	name, err := teamimport.ExportName(format, path)
	if err != nil {
		return ExportChoice{}, fmt.Errorf("%s is not a readable %s export: %w", filepath.Base(path), format, err)
	}
	a.mu.Lock()
	a.chosen = chosenExport{format, path}
	a.mu.Unlock()
	return ExportChoice{File: filepath.Base(path), Name: name}, nil
}

// HostFromExport makes this app the host of a team brought from another
// chat server: it asks for the export file (unless ChooseExport chose one
// of this format), imports it into the data
// folder (teamimport.Run takes only an empty one: this is first launch),
// sending import:progress events, then hosts the imported organization.
// name names the organization; blank keeps the export's own name
// (teamimport.Options.RealmName). The answer's summary says what was
// imported and what was left out; its state is "none" when no file was
// chosen. Nobody has a password yet: the window issues one
// (IssuePassword).
func (a *App) HostFromExport(format, name string) (domain.ImportStatus, error) {
	if formats := teamimport.Formats(); !slices.Contains(formats, format) {
		return domain.ImportStatus{}, fmt.Errorf("unknown export format %q (this build reads: %s)", format, strings.Join(formats, ", "))
	}
	// A name the import would refuse is said before the file is asked for.
	if name = strings.TrimSpace(name); name != "" {
		if _, err := domain.ValidateRealmName(name); err != nil {
			var bad *domain.Error
			if errors.As(err, &bad) {
				return domain.ImportStatus{}, errors.New(bad.Msg)
			}
			return domain.ImportStatus{}, err
		}
	}
	a.mu.Lock()
	busy, quitting := a.srv != nil || a.joined != "", a.quitting.Err() != nil
	if !busy && !quitting {
		a.imports.Add(1) // under mu: shutdown waits only after it has quit
	}
	chosen := a.chosen
	a.chosen = chosenExport{}
	a.mu.Unlock()
	switch {
	case busy:
		return domain.ImportStatus{}, errors.New("this app already hosts or joined a team: an import starts a new one")
	case quitting:
		return domain.ImportStatus{}, errors.New("the app is quitting")
	}
	defer a.imports.Done()
	path := chosen.path
	if chosen.format != format {
		var err error
		if path, err = a.openDialog("Choose the " + format + " export to host"); err != nil || path == "" {
			return domain.ImportStatus{State: "none"}, err
		}
	}
	var last time.Time
	progress := func(p archive.Progress) {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.Phase == "done" {
			last = now
			a.emit("import:progress", domain.ImportRunning(format, p, now))
		}
	}
	summary, err := teamimport.Run(a.quitting, teamimport.Options{DataDir: a.dataDir, Format: format, Archive: path, RealmName: name, Progress: progress})
	if err != nil {
		return domain.ImportStatus{}, fmt.Errorf("the import failed, and nothing was kept: %w", err)
	}
	if err := a.startHost(); err != nil {
		return domain.ImportStatus{}, err
	}
	return domain.ImportDone(format, summary), nil
}
