package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `lanchatd import --from mattermost` takes Mattermost's import.jsonl on
// its own (exported without attachments), and says what it left out.
func TestImportMattermostJSONL(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "data")
	out, err := exec.Command(binary, "import", "--data", dataDir, "--from", "mattermost",
		"../../backend/archive/mattermost/testdata/guest/import.jsonl").Output()
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "6 users, 5 streams, 21 messages") ||
		!strings.Contains(string(out), "import.jsonl line 36 (emoji) tick: its image exported_emoji/7u7x8ytgp78q8jir81o9ejwwnr/image.png is not in the archive") {
		t.Errorf("summary:\n%s", out)
	}
}
