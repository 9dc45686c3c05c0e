package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lanchat/backend/store"
)

// crashRounds is how many times the crash test kills the server: a few in
// make test, many in make crash-test (CRASH_ROUNDS=50).
func crashRounds() int {
	if n, err := strconv.Atoi(os.Getenv("CRASH_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 3
}

type acked struct {
	id      int64
	content string
}

// TestCrashLosesNoAcknowledgedMessage kills a real lanchatd with SIGKILL at
// random moments under concurrent sends, restarts it on the same data, and
// checks that every send answered with success survived with its content
// and the sender's flags, that IDs strictly increase, and that the store
// passes bbolt's consistency check.
func TestCrashLosesNoAcknowledgedMessage(t *testing.T) {
	dataDir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	const senders = 16
	var mu sync.Mutex
	var all []acked
	lastID := int64(0)
	for round := range crashRounds() {
		cmd, base := startServer(t, dataDir, "--dev")
		keys := devKeys(t, base)
		halt := make(chan struct{})
		var wg sync.WaitGroup
		for w := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				email := []string{"admin@example.com", "alice@example.com", "bob@example.com"}[w%3]
				prev := int64(0)
				for i := 0; ; i++ {
					select {
					case <-halt:
						return
					default:
					}
					content := fmt.Sprintf("round %d sender %d message %d", round, w, i)
					id, ok := sendOnce(base, email, keys[email], content)
					if !ok {
						return // the server died mid-request: not acknowledged
					}
					if id <= prev {
						t.Errorf("sender %d: id %d after %d", w, id, prev)
					}
					prev = id
					mu.Lock()
					all = append(all, acked{id, content})
					mu.Unlock()
				}
			}()
		}
		time.Sleep(time.Duration(100+rng.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		close(halt)
		wg.Wait()

		// Every acknowledged message is in the store, which is consistent.
		st, err := store.Open(dataDir)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		if err := st.Check(); err != nil {
			t.Fatalf("round %d: consistency check: %v", round, err)
		}
		roundMax := lastID
		err = st.View(func(tx *store.Tx) error {
			for _, a := range all {
				m, err := tx.Message(a.id)
				if err != nil {
					return fmt.Errorf("acknowledged message %d lost: %v", a.id, err)
				}
				if m.Content != a.content {
					return fmt.Errorf("message %d content %q, want %q", a.id, m.Content, a.content)
				}
				if f, ok := tx.Flags(m.SenderID, m.ID); !ok || f&store.FlagRead == 0 {
					return fmt.Errorf("message %d lost its sender's flags", a.id)
				}
				roundMax = max(roundMax, a.id)
			}
			return nil
		})
		st.Close()
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		t.Logf("round %d: %d acknowledged messages so far, newest id %d", round, len(all), roundMax)
		lastID = roundMax
	}
	// After the last crash the server still starts and hands out new, higher IDs.
	cmd, base := startServer(t, dataDir, "--dev")
	keys := devKeys(t, base)
	id, ok := sendOnce(base, "alice@example.com", keys["alice@example.com"], "after the storm")
	if !ok || id <= lastID {
		t.Errorf("send after crashes: id %d ok %v, want > %d", id, ok, lastID)
	}
	stop(t, cmd)
}

func devKeys(t *testing.T, base string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for _, email := range []string{"admin@example.com", "alice@example.com", "bob@example.com"} {
		res := post(t, base, "/api/v1/dev_fetch_api_key", url.Values{"username": {email}})
		keys[email], _ = res["api_key"].(string)
	}
	return keys
}

// sendOnce posts a stream message; ok means the server acknowledged it.
func sendOnce(base, email, key, content string) (int64, bool) {
	form := url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"crash"}, "content": {content}}
	req, _ := http.NewRequest("POST", base+"/api/v1/messages", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	var body struct {
		Result string `json:"result"`
		ID     int64  `json:"id"`
	}
	if json.NewDecoder(resp.Body).Decode(&body) != nil || resp.StatusCode != 200 || body.Result != "success" {
		return 0, false
	}
	return body.ID, true
}

// TestCrashMidUploadLeavesNoPartialFile: an upload whose server is killed
// while its body arrives left its temporary file (up to the whole upload)
// under uploads/ for ever, in every backup after; the next start removes
// it.
func TestCrashMidUploadLeavesNoPartialFile(t *testing.T) {
	dataDir := t.TempDir()
	cmd, base := startServer(t, dataDir, "--dev")
	keys := devKeys(t, base)
	body, sending := io.Pipe()
	go func() {
		req, _ := http.NewRequest("POST", base+"/api/v1/user_uploads", body)
		req.Header.Set("Content-Type", "multipart/form-data; boundary=B")
		req.ContentLength = 1 << 20
		req.SetBasicAuth("alice@example.com", keys["alice@example.com"])
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	io.WriteString(sending, "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"half.bin\"\r\n\r\n")
	sending.Write(make([]byte, 256<<10))
	partials := func() []string {
		found, _ := filepath.Glob(filepath.Join(dataDir, "uploads", "*", ".*.tmp"))
		return found
	}
	for deadline := time.Now().Add(5 * time.Second); len(partials()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the upload wrote no temporary file within 5 s")
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	sending.Close()

	cmd, _ = startServer(t, dataDir, "--dev")
	if left := partials(); len(left) > 0 {
		t.Errorf("after a restart, partial uploads remain: %v", left)
	}
	stop(t, cmd)
}
