package teamimport_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/teamimport"
)

// Every progress report of a real import says at most all of the archive
// is read, never less than the report before, and the last says all of
// it: zip exports of Slack and Mattermost, and Zulip's tar.gz. Counting
// every byte read had the zip's directory (read twice when it is opened)
// and each entry's header (read again when the entry is stat'ed) pass
// 100%.
func TestProgressStaysWithinTheArchive(t *testing.T) {
	people := []archivetest.SlackPerson{{ID: "U1", Name: "Ada", Email: "ada@acme.test"}, {ID: "U2", Name: "Bob", Email: "bob@acme.test"}}
	slackZip, err := archivetest.SlackExport(people, 300)
	if err != nil {
		t.Fatal(err)
	}
	slackPath := filepath.Join(t.TempDir(), "slack.zip")
	if err := os.WriteFile(slackPath, slackZip, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ format, archive string }{
		{"slack", slackPath},
		{"mattermost", archivetest.ZipDir(t, "../archive/mattermost/testdata/export")},
		{"zulip", tarGzDir(t, "../archive/zulip/testdata/server-export")},
	} {
		t.Run(c.format, func(t *testing.T) {
			var reports []archive.Progress
			_, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(t.TempDir(), "data"),
				Format: c.format, Archive: c.archive, Progress: func(p archive.Progress) { reports = append(reports, p) }})
			if err != nil {
				t.Fatal(err)
			}
			var before int64
			for _, p := range reports {
				if p.TotalBytes <= 0 || p.Bytes < before || p.Bytes > p.TotalBytes {
					t.Errorf("%s: %d of %d bytes read (%d%%), after %d", p.Phase, p.Bytes, p.TotalBytes, p.Bytes*100/max(p.TotalBytes, 1), before)
				}
				before = p.Bytes
			}
			if last := reports[len(reports)-1]; last.Phase != "done" || last.Bytes != last.TotalBytes {
				t.Errorf("last report %+v, want done with all of the archive read", last)
			}
		})
	}
}

// tarGzDir packs a folder into a tar.gz, as Zulip's export does.
func tarGzDir(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	if err := tw.AddFS(os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "export.tar.gz")
	if err := os.WriteFile(name, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}
