package app

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"lanchat/backend/archive/archivetest"
	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// importingApp is an app on first launch whose open-file dialog answers
// chosen, and which records the events it sends.
func importingApp(t *testing.T, chosen string) (*App, func() []domain.ImportStatus) {
	a := newApp(Options{Addr: "127.0.0.1:0", DataDir: filepath.Join(t.TempDir(), "lanchat")}, io.Discard)
	t.Cleanup(func() { a.shutdown() })
	a.openDialog = func(string) (string, error) { return chosen, nil }
	var mu sync.Mutex
	var sent []domain.ImportStatus
	a.emit = func(name string, data any) {
		mu.Lock()
		defer mu.Unlock()
		if s, ok := data.(domain.ImportStatus); ok && name == "import:progress" {
			sent = append(sent, s)
		}
	}
	return a, func() []domain.ImportStatus { mu.Lock(); defer mu.Unlock(); return sent }
}

// slackExportFile is a Slack export of two people and 40 messages in
// #general, as a file.
func slackExportFile(t *testing.T) string {
	export, err := archivetest.SlackExport([]archivetest.SlackPerson{{ID: "U01", Name: "Ana Lima", Email: "ana@slack.test"},
		{ID: "U02", Name: "Ben Okoro", Email: "ben@slack.test"}}, 40)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "slack-export.zip")
	if err := os.WriteFile(file, export, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestHostFromExport(t *testing.T) {
	a, sent := importingApp(t, slackExportFile(t))
	status, err := a.HostFromExport("slack", "")
	if err != nil {
		t.Fatal(err)
	}
	if status.State != "done" || status.Summary.Users != 2 || status.Summary.Streams != 1 || status.Summary.Messages != 40 || status.Summary.Reactions != 1 {
		t.Errorf("summary: %+v %+v", status, status.Summary)
	}
	if len(sent()) == 0 {
		t.Error("no import:progress event")
	}
	if a.hosting() == nil || !hosted(a.dataDir) {
		t.Fatal("the imported organization is not hosted")
	}

	// Imported people have no password until the host issues one.
	svc := a.hosting().Service()
	if _, err := svc.FetchAPIKey("ana@slack.test", ""); err == nil {
		t.Error("an imported person signs in with no password")
	}
	acct, err := a.IssuePassword(" ana@slack.test ")
	if err != nil || len(acct.Password) < 16 {
		t.Fatalf("IssuePassword: %+v %v", acct, err)
	}
	if _, err := svc.FetchAPIKey("ana@slack.test", acct.Password); err != nil {
		t.Errorf("the issued password does not sign in: %v", err)
	}
	if _, err := a.IssuePassword("nobody@slack.test"); err == nil || err.Error() != "No account has the email nobody@slack.test" {
		t.Errorf("unknown email: %v", err)
	}
	// A second import has no empty folder to go to.
	if _, err := a.HostFromExport("slack", ""); err == nil {
		t.Error("a second import over a hosted team")
	}
}

func TestHostFromExportRefusals(t *testing.T) {
	broken := filepath.Join(t.TempDir(), "broken.zip")
	if err := os.WriteFile(broken, []byte("not a zip"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, format, chosen string
		state                string // the answer's, when it is no error
	}{
		{"no file chosen", "slack", "", "none"},
		{"an unknown format", "hipchat", broken, ""},
		{"a broken archive", "slack", broken, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := importingApp(t, tc.chosen)
			status, err := a.HostFromExport(tc.format, "")
			if (err == nil) != (tc.state != "") || status.State != tc.state {
				t.Errorf("%+v, %v", status, err)
			}
			if a.hosting() != nil {
				t.Error("hosting after a refused import")
			}
			if _, err := os.Stat(filepath.Join(a.dataDir, store.FileName)); err == nil {
				t.Error("a refused import left a store")
			}
			// Hosting a new team is still possible.
			if err := a.HostTeam(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestQuittingDuringAnImportLeavesNothing: quitting the app while it
// imports ends the import, which removes its scratch folders before the
// app exits, and the data folder stays empty for the next launch.
func TestQuittingDuringAnImportLeavesNothing(t *testing.T) {
	a, _ := importingApp(t, slackExportFile(t))
	quitOnce := sync.OnceFunc(func() { go a.shutdown() })
	a.emit = func(name string, data any) {
		// The first progress report quits the app and holds the import
		// until the quit has reached it.
		quitOnce()
		<-a.quitting.Done()
	}
	if _, err := a.HostFromExport("slack", ""); err == nil {
		t.Fatal("the import went on after the app quit")
	}
	a.shutdown()
	if hosted(a.dataDir) || a.hosting() != nil {
		t.Error("an interrupted import is hosted")
	}
	left, err := os.ReadDir(filepath.Dir(a.dataDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left beside the data folder: %s", e.Name())
	}
}

// The welcome page's name field names the imported organization; left
// blank, the export's own name is kept (for Slack, the workspace's name in
// the export's file name); a name the API would refuse is refused before
// the file is asked for.
func TestHostFromExportNamesTheOrganization(t *testing.T) {
	slackExport := slackExportFile(t)
	asSlackNames := filepath.Join(t.TempDir(), "Acme Slack export Jan 1 2020 - Mar 5 2021.zip")
	if err := os.Rename(slackExport, asSlackNames); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"  Acme Engineering ", "Acme Engineering"},
		{"", "Acme"},
		{" ", "Acme"},
	} {
		a, _ := importingApp(t, asSlackNames)
		status, err := a.HostFromExport("slack", tc.name)
		if err != nil || status.State != "done" {
			t.Fatalf("%q: %+v %v", tc.name, status, err)
		}
		settings, err := a.hosting().Service().ServerSettings("")
		if err != nil || settings["realm_name"] != tc.want {
			t.Errorf("%q: realm_name %v (%v), want %q", tc.name, settings["realm_name"], err, tc.want)
		}
		a.shutdown()
	}

	a, _ := importingApp(t, asSlackNames)
	asked := false
	a.openDialog = func(string) (string, error) { asked = true; return asSlackNames, nil }
	if _, err := a.HostFromExport("slack", strings.Repeat("n", 41)); err == nil || err.Error() != "Organization name must be 1 to 40 characters." {
		t.Errorf("a 41-character name: %v", err)
	}
	if asked || a.hosting() != nil {
		t.Errorf("asked for the file %v, hosting %v", asked, a.hosting() != nil)
	}
}

// Choosing the file first tells the page the organization's name the
// export gives, to prefill its field with; the import then takes that file
// without asking again, under the name the host kept or typed.
func TestChooseExportPrefillsTheName(t *testing.T) {
	file := filepath.Join(t.TempDir(), "Acme Slack export Jan 1 2020 - Mar 5 2021.zip")
	if err := os.Rename(slackExportFile(t), file); err != nil {
		t.Fatal(err)
	}
	a, _ := importingApp(t, file)
	dialogs := 0
	a.openDialog = func(string) (string, error) { dialogs++; return file, nil }
	choice, err := a.ChooseExport("slack")
	if err != nil || choice != (ExportChoice{File: filepath.Base(file), Name: "Acme"}) {
		t.Fatalf("choice %+v %v", choice, err)
	}
	status, err := a.HostFromExport("slack", "Acme Engineering")
	if err != nil || status.State != "done" || dialogs != 1 {
		t.Fatalf("%+v %v, %d dialogs", status, err, dialogs)
	}
	settings, err := a.hosting().Service().ServerSettings("")
	if err != nil || settings["realm_name"] != "Acme Engineering" {
		t.Errorf("realm_name %v (%v)", settings["realm_name"], err)
	}
	if _, err := a.ChooseExport("slack"); err == nil {
		t.Error("an export chosen while hosting")
	}

	// No file chosen, or one that is no export: nothing is kept, and the
	// import asks for its file.
	broken := filepath.Join(t.TempDir(), "broken.zip")
	if err := os.WriteFile(broken, []byte("not a zip"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, chosen := range []string{"", broken} {
		a, _ := importingApp(t, chosen)
		choice, err := a.ChooseExport("zulip")
		if choice != (ExportChoice{}) || (err == nil) != (chosen == "") {
			t.Errorf("%q: %+v %v", chosen, choice, err)
		}
		asked := false
		a.openDialog = func(string) (string, error) { asked = true; return "", nil }
		if status, err := a.HostFromExport("zulip", ""); err != nil || status.State != "none" || !asked {
			t.Errorf("%q: import after: %+v %v, asked %v", chosen, status, err, asked)
		}
	}
}
