package slack

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
)

// readBytes reads a zip given as bytes; a reader's only failures are
// archive.Errors naming a record, or the sink's own refusals.
func readBytes(t *testing.T, data []byte) {
	path := filepath.Join(t.TempDir(), "fuzz.zip")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := archive.OpenZip(path, archive.DefaultLimits)
	if err != nil {
		return // refused before reading: OpenZip's own tests
	}
	defer a.Close()
	err = Read(a, &archivetest.Recorder{})
	var ae *archive.Error
	if err != nil && !errors.As(err, &ae) && !strings.HasPrefix(err.Error(), "archivetest:") {
		t.Errorf("Read failed with %v (%T), not an archive.Error", err, err)
	}
}

// FuzzRead mutates whole archives: the fixtures and a small export.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/test_slack_importer.zip", "testdata/test_unicode_slack_importer.zip"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	small, err := os.ReadFile(writeExport(f, f.TempDir(), smallExport))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Fuzz(func(t *testing.T, data []byte) { readBytes(t, data) })
}

// FuzzReadFiles mutates the JSON inside a small export, which mutating a
// compressed zip seldom reaches.
func FuzzReadFiles(f *testing.F) {
	f.Add(smallExport["users.json"], smallExport["channels.json"], smallExport["general/2024-01-01.json"])
	f.Fuzz(func(t *testing.T, users, channels, day string) {
		files := map[string]string{}
		for name, content := range smallExport {
			files[name] = content
		}
		files["users.json"], files["channels.json"], files["general/2024-01-01.json"] = users, channels, day
		data, err := os.ReadFile(writeExport(t, t.TempDir(), files))
		if err != nil {
			t.Fatal(err)
		}
		readBytes(t, data)
	})
}
