package main

import (
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"lanchat/backend/store"
)

// A backup taken while the server runs and messages keep arriving restores
// into a directory a new server opens with everything acknowledged before
// the backup began, uploaded files included.
func TestHotBackupAndRestore(t *testing.T) {
	dataDir := t.TempDir()
	cmd, base := startServer(t, dataDir, "--dev")
	keys := devKeys(t, base)
	var before []acked
	for i := range 20 {
		content := "before backup " + string(rune('a'+i))
		id, ok := sendOnce(base, "alice@example.com", keys["alice@example.com"], content)
		if !ok {
			t.Fatal("send failed")
		}
		before = append(before, acked{id, content})
	}
	// A user file, as uploads leave them.
	os.MkdirAll(filepath.Join(dataDir, "uploads", "ab"), 0o700)
	os.WriteFile(filepath.Join(dataDir, "uploads", "ab", "file.txt"), []byte("uploaded bytes"), 0o600)

	// Keep writing while the backup runs.
	var stopWriting atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stopWriting.Load() {
			sendOnce(base, "bob@example.com", keys["bob@example.com"], "during backup")
		}
	}()
	archive := filepath.Join(t.TempDir(), "lanchat-backup.tar.gz")
	out, err := exec.Command(binary, "backup", "--data", dataDir, archive).CombinedOutput()
	stopWriting.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("backup: %v %s", err, out)
	}
	stop(t, cmd)

	restored := filepath.Join(t.TempDir(), "restored")
	if out, err := exec.Command(binary, "restore", "--data", restored, archive).CombinedOutput(); err != nil {
		t.Fatalf("restore: %v %s", err, out)
	}
	if out, err := exec.Command(binary, "restore", "--data", restored, archive).CombinedOutput(); err == nil {
		t.Errorf("restore over an existing database succeeded: %s", out)
	}
	if data, err := os.ReadFile(filepath.Join(restored, "uploads", "ab", "file.txt")); err != nil || string(data) != "uploaded bytes" {
		t.Errorf("uploaded file after restore: %q %v", data, err)
	}
	st, err := store.Open(restored)
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *store.Tx) error {
		for _, a := range before {
			if m, err := tx.Message(a.id); err != nil || m.Content != a.content {
				t.Errorf("message %d after restore: %+v %v", a.id, m, err)
			}
		}
		return nil
	})
	st.Close()

	// The restored directory serves, and the old keys work.
	cmd, base = startServer(t, restored, "--dev")
	res := post(t, base, "/api/v1/fetch_api_key", url.Values{"username": {"alice@example.com"}, "password": {"lanchat-dev"}})
	if res["api_key"] != keys["alice@example.com"] {
		t.Errorf("restored login: %v", res)
	}
	stop(t, cmd)

	// A stopped server's directory is backed up straight from the store.
	cold := filepath.Join(t.TempDir(), "cold.tar.gz")
	if out, err := exec.Command(binary, "backup", "--data", restored, cold).CombinedOutput(); err != nil {
		t.Fatalf("cold backup: %v %s", err, out)
	}
}

// TestBackupIgnoresAPreparedPartialFile: another local user who creates
// FILE.partial before a backup, and keeps it open, must not end up holding
// the backup (API keys, password hashes): the temporary file is created
// anew, exclusively.
func TestBackupIgnoresAPreparedPartialFile(t *testing.T) {
	dataDir := t.TempDir()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	archive := filepath.Join(t.TempDir(), "lanchat-backup.tar.gz")
	prepared, err := os.OpenFile(archive+".partial", os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	defer prepared.Close()
	prepared.WriteString("the attacker's")
	if out, err := exec.Command(binary, "backup", "--data", dataDir, archive).CombinedOutput(); err != nil {
		t.Fatalf("backup: %v %s", err, out)
	}
	if got, _ := io.ReadAll(io.NewSectionReader(prepared, 0, 1<<20)); string(got) != "the attacker's" {
		t.Errorf("the prepared file now holds %d bytes of something else: the backup went into it", len(got))
	}
	if info, err := os.Stat(archive); err != nil || info.Size() < 100 || info.Mode().Perm() != 0o600 {
		t.Errorf("the archive: %v %v", info, err)
	}
}
