package api_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
	"lanchat/backend/store"
)

// tinyDisk mounts a small tmpfs for the test, or skips where mounting is
// not allowed (not root).
func tinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes a file until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}

func TestDiskFullAnswersClearlyAndKeepsServingReads(t *testing.T) {
	disk := tinyDisk(t, "8m")
	dataDir := filepath.Join(disk, "data")
	s := apitest.StartConfig(t, server.Config{DataDir: dataDir, Dev: true})
	alice := s.Login("alice@example.com")
	before := send(t, alice, streamMsg("general", "disk", "written before the disk filled"))
	fill(t, filepath.Join(disk, "filler"))

	// Writes fail with a clear JSON error, again and again, never a crash.
	var failures int
	for i := range 50 {
		res := alice.Post("/api/v1/messages", streamMsg("general", "disk", "payload "+string(rune('a'+i%26))+string(make([]byte, 0))))
		if res.Status == 200 {
			continue // bbolt may still have free pages
		}
		failures++
		if res.Status != 507 || res.Body["code"] != "STORAGE_FULL" || res.Msg() == "" {
			t.Fatalf("send on a full disk: %d %s", res.Status, res.Raw)
		}
	}
	if failures == 0 {
		// Force growth: a large message per send until the file must grow.
		for range 200 {
			if res := alice.Post("/api/v1/messages", streamMsg("general", "disk", string(make([]byte, 0))+bigText())); res.Status != 200 {
				failures++
				if res.Status != 507 || res.Body["code"] != "STORAGE_FULL" {
					t.Fatalf("send on a full disk: %d %s", res.Status, res.Raw)
				}
				break
			}
		}
	}
	if failures == 0 {
		t.Fatal("the disk never filled up")
	}
	// Reads keep working.
	alice.Get(msgPath(before, ""), nil).OK()
	history(t, alice, narrowed(`[["stream","general"]]`))

	// Free the space: writes work again, and nothing was half-written.
	os.Remove(filepath.Join(disk, "filler"))
	send(t, alice, streamMsg("general", "disk", "written after space came back"))
	s.Stop()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		t.Fatalf("store after a full disk: %v", err)
	}
}

func bigText() string {
	b := make([]byte, 9000)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return string(b)
}

func TestReadOnlyDataDirServesReadsAndRefusesWrites(t *testing.T) {
	disk := tinyDisk(t, "16m")
	dataDir := filepath.Join(disk, "data")
	s := apitest.StartConfig(t, server.Config{DataDir: dataDir, Dev: true})
	key := s.Login("alice@example.com").Key()
	before := send(t, s.As("alice@example.com", key), streamMsg("general", "ro", "written while writable"))
	s.Stop()
	if out, err := exec.Command("mount", "-o", "remount,ro", disk).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v %s", err, out)
	}
	s = apitest.StartConfig(t, server.Config{DataDir: dataDir, Dev: true})
	alice := s.As("alice@example.com", key)
	alice.Get(msgPath(before, ""), nil).OK()
	history(t, alice, narrowed(`[["stream","general"]]`))
	res := alice.Post("/api/v1/messages", streamMsg("general", "ro", "refused"))
	if res.Status != 507 || res.Body["code"] != "STORAGE_READ_ONLY" || res.Msg() == "" {
		t.Fatalf("send on a read-only data dir: %d %s", res.Status, res.Raw)
	}
	alice.Post("/api/v1/messages/flags", apitest.Form{"messages": []int64{before}, "op": "add", "flag": "starred"}).Fails(507, "STORAGE_READ_ONLY")
}
