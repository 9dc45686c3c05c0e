package bench

import (
	"context"
	"path/filepath"
	"testing"

	"lanchat/backend/teamimport"
)

// The generated export is one Slack's reader takes whole: every message,
// in threads and with reactions, is imported.
func TestGeneratedSlackExportImports(t *testing.T) {
	shape := SlackShape{Users: 20, Channels: 4, Messages: 500, Days: 7}
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "slack.zip")
	if err := WriteSlackExport(zipPath, shape); err != nil {
		t.Fatal(err)
	}
	summary, err := teamimport.Run(context.Background(), teamimport.Options{DataDir: filepath.Join(dir, "data"), Format: "slack", Archive: zipPath})
	if err != nil {
		t.Fatal(err)
	}
	if summary.Users != 20 || summary.Streams != 4 || summary.Messages != 500 || summary.Reactions == 0 || len(summary.Skipped) != 0 {
		t.Errorf("summary %+v", summary)
	}
	if _, err := DirectSends(filepath.Join(dir, "direct"), shape); err != nil {
		t.Fatal(err)
	}
}
