package teamimport_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/archive/archivetest"
	"lanchat/backend/domain"
	"lanchat/backend/store"
	"lanchat/backend/teamimport"
)

// realmName is the organization's name in a data folder.
func realmName(t *testing.T, dataDir string) string {
	t.Helper()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var r store.Realm
	if err := st.View(func(tx *store.Tx) (err error) { r, err = tx.Realm(); return err }); err != nil {
		t.Fatal(err)
	}
	return r.Name
}

// slackExportNamed makes a small Slack export and returns a function that
// saves a copy of it under a file name (where Slack puts the workspace's).
func slackExportNamed(t *testing.T) func(name string) string {
	t.Helper()
	slack, err := archivetest.SlackExport([]archivetest.SlackPerson{{ID: "U1", Name: "Ada", Email: "ada@acme.test"},
		{ID: "U2", Name: "Bob", Email: "bob@acme.test"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	return func(name string) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, slack, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
}

// The organization is named as the host says, else as the archive does:
// Zulip's export by its realm, Slack's by the workspace's name in the
// export's file name (the only place it has one), else Lanchat's default.
func TestRunNamesTheOrganization(t *testing.T) {
	slackFile := slackExportNamed(t)
	zulip := tarGzDir(t, "../archive/zulip/testdata/server-export")
	for _, c := range []struct {
		name, format, archive, realmName, want string
	}{
		{"zulip's own", "zulip", zulip, "", "Acme"},
		{"zulip renamed", "zulip", zulip, "  Acme on the LAN ", "Acme on the LAN"},
		{"slack by its file name", "slack", slackFile("Acme Corp Slack export Jan 1 2020 - Mar 5 2021.zip"), "", "Acme Corp"},
		{"slack renamed file", "slack", slackFile("export.zip"), "", domain.DefaultRealmName},
		{"slack named", "slack", slackFile("Acme Corp Slack export Jan 1 2020 - Mar 5 2021.zip"), "Acme Engineering", "Acme Engineering"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "data")
			summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: dataDir, Format: c.format, Archive: c.archive, RealmName: c.realmName})
			if err != nil {
				t.Fatal(err)
			}
			if got := realmName(t, dataDir); got != c.want || summary.RealmName != c.want {
				t.Errorf("organization %q (summary %q), want %q", got, summary.RealmName, c.want)
			}
		})
	}
}

// A name the API would refuse is refused before anything is written.
func TestRunRefusesABadName(t *testing.T) {
	zulip := tarGzDir(t, "../archive/zulip/testdata/server-export")
	for _, name := range []string{"   ", "An organization name of more than forty runes"} {
		parent := t.TempDir()
		_, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(parent, "data"), Format: "zulip", Archive: zulip, RealmName: name})
		if err == nil || err.Error() != "Organization name must be 1 to 40 characters." {
			t.Errorf("%q: %v", name, err)
		}
		if left, _ := os.ReadDir(parent); len(left) != 0 {
			t.Errorf("%q: left behind %v", name, left)
		}
	}
}

// ExportName says, before an import, the name the import gives the
// organization, reading only what holds it; a tar.gz, which would have to
// be unpacked whole, says nothing.
func TestExportNameIsTheImportsName(t *testing.T) {
	slackFile := slackExportNamed(t)
	for _, c := range []struct{ format, archive, want string }{
		{"slack", slackFile("Acme Corp Slack export Jan 1 2020 - Mar 5 2021.zip"), "Acme Corp"},
		{"slack", slackFile("export.zip"), domain.DefaultRealmName},
		{"mattermost", archivetest.ZipDir(t, "../archive/mattermost/testdata/export"), "Iago Realm"},
		{"mattermost", "../archive/mattermost/testdata/guest/import.jsonl", "Iago Realm"},
		{"zulip", archivetest.ZipDir(t, "../archive/zulip/testdata/server-export"), "Acme"},
		{"zulip", "../archive/zulip/testdata/server-export", "Acme"},
		{"zulip", tarGzDir(t, "../archive/zulip/testdata/server-export"), ""},
	} {
		got, err := teamimport.ExportName(c.format, c.archive)
		if err != nil || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", c.format, filepath.Base(c.archive), got, err, c.want)
		}
		if c.want == "" {
			continue
		}
		summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(t.TempDir(), "data"), Format: c.format, Archive: c.archive})
		if err != nil || summary.RealmName != got {
			t.Errorf("%s %s: imported as %q (%v), said %q", c.format, filepath.Base(c.archive), summary.RealmName, err, got)
		}
	}
	for _, format := range teamimport.Formats() {
		if _, err := teamimport.ExportName(format, slackFile("export.zip")); err != nil && strings.Contains(err.Error(), "unknown archive format") {
			t.Errorf("no name for the format %s", format)
		}
	}
	broken := filepath.Join(t.TempDir(), "broken.zip")
	os.WriteFile(broken, []byte("not a zip"), 0o600)
	if _, err := teamimport.ExportName("zulip", broken); err == nil {
		t.Error("a broken archive has a name")
	}
}
