package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/archive/archivetest"
	"lanchat/backend/archive/zulip"
)

// lanchatd export writes a Zulip export whether the server runs (through
// its control socket) or not (from the store), which lanchatd import takes
// back; other formats are refused.
func TestExportToZulip(t *testing.T) {
	dataDir := t.TempDir()
	cmd, base := startServer(t, dataDir, "--dev")
	keys := devKeys(t, base)
	id, ok := sendOnce(base, "alice@example.com", keys["alice@example.com"], "before the export")
	if !ok {
		t.Fatal("send failed")
	}
	check := func(name string) {
		t.Helper()
		a, err := archive.OpenTarGz(name, filepath.Join(t.TempDir(), "unpacked"), archive.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if _, err := a.Open("org-export/realm.json"); err != nil {
			t.Errorf("the tarball's folder is not named after the file: %v", err)
		}
		rec := &archivetest.Recorder{}
		if err := zulip.Read(a, rec); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range rec.Messages {
			found = found || (m.Content == "before the export" && m.Ref == strconv.FormatInt(id, 10))
		}
		if !found {
			t.Errorf("message %d is not in the export", id)
		}
	}
	running := filepath.Join(t.TempDir(), "org-export.tar.gz")
	if out, err := exec.Command(binary, "export", "--data", dataDir, "--format", "zulip", running).CombinedOutput(); err != nil {
		t.Fatalf("export while serving: %v %s", err, out)
	}
	check(running)
	stop(t, cmd)
	stopped := filepath.Join(t.TempDir(), "org-export.tar.gz")
	if out, err := exec.Command(binary, "export", "--data", dataDir, stopped).CombinedOutput(); err != nil {
		t.Fatalf("export of a stopped server: %v %s", err, out)
	}
	check(stopped)
	// And back in, as a Zulip export.
	imported := filepath.Join(t.TempDir(), "imported")
	out, err := exec.Command(binary, "import", "--data", imported, "--from", "zulip", stopped).CombinedOutput()
	if err != nil || !strings.Contains(string(out), `imported "Lanchat Dev" into `+imported) {
		t.Fatalf("import --from zulip: %v %s", err, out)
	}
	out, err = exec.Command(binary, "export", "--data", dataDir, "--format", "slack", stopped+"2").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--format is zulip") {
		t.Errorf("export --format slack: %v %s", err, out)
	}
}
