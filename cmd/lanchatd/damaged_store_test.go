package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanchat/backend/store"
)

// TestCutShortStoreIsRefusedClearly starts lanchatd on copies of a store
// cut short (a partial copy or restore), at pages its meta still counts
// and in the middle of one: each start fails at once with a line
// that says so and what to do, exit status 1 and no panic trace, and leaves
// the file as it found it.
func TestCutShortStoreIsRefusedClearly(t *testing.T) {
	source := t.TempDir()
	cmd, base := startServer(t, source, "--dev")
	keys := devKeys(t, base)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				sendOnce(base, "alice@example.com", keys["alice@example.com"], fmt.Sprintf("sender %d message %d %s", w, i, strings.Repeat("x", 200)))
			}
		})
	}
	wg.Wait()
	stop(t, cmd)
	whole, err := os.ReadFile(filepath.Join(source, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(filepath.Join(source, store.FileName), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var needed int64
	db.View(func(tx *bolt.Tx) error { needed = tx.Size(); return nil })
	pageSize := int64(db.Info().PageSize)
	db.Close()

	// About a dozen cuts, through the freelist and the pages it counts.
	cuts := []int64{needed - pageSize/2}
	for cut := 2 * pageSize; cut < needed; cut += pageSize * max(1, needed/pageSize/12) {
		cuts = append(cuts, cut)
	}
	for _, cut := range cuts {
		dataDir := t.TempDir()
		path := filepath.Join(dataDir, store.FileName)
		if err := os.WriteFile(path, whole[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		serve := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--data", dataDir)
		serve.Stderr = &stderr
		if err := serve.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- serve.Wait() }()
		select {
		case err = <-exited:
		case <-time.After(10 * time.Second):
			serve.Process.Kill()
			<-exited
			t.Errorf("cut at %d of %d bytes: still running after 10 s: %s", cut, needed, stderr.String())
			continue
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("cut at %d of %d bytes: exit %v, want status 1", cut, needed, err)
		}
		if out := stderr.String(); !strings.Contains(out, "lanchatd: open "+path) || !strings.Contains(out, "restore it from a backup") ||
			strings.Contains(out, "goroutine ") {
			t.Errorf("cut at %d of %d bytes: stderr %q, want one line naming the file and the remedy", cut, needed, out)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, whole[:cut]) {
			t.Errorf("cut at %d of %d bytes: the file changed (now %d bytes)", cut, needed, len(after))
		}
	}
}
