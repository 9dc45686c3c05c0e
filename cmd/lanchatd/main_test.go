package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/store"
)

// These tests run the real binary, as an operator would.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lanchatd-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "lanchatd")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build lanchatd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var listening = regexp.MustCompile(`^listening on (http://127\.0\.0\.1:\d+)$`)

// startServer runs `lanchatd serve` and waits for its ready line.
func startServer(t *testing.T, dataDir string, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	return startServerLogging(t, dataDir, io.Discard, extra...)
}

// startServerLogging is startServer copying what the server logs after
// its ready line to log.
func startServerLogging(t *testing.T, dataDir string, log io.Writer, extra ...string) (*exec.Cmd, string) {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dataDir}, extra...)
	cmd := exec.Command(binary, args...)
	// A writer, not StderrPipe: Wait then returns only once the last line
	// (the "stopped" written at exit) is copied, where with a pipe it may
	// close the pipe before a reader has drained it.
	watch := &listeningWatcher{found: make(chan string, 1)}
	cmd.Stderr = io.MultiWriter(log, watch)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	select {
	case base := <-watch.found:
		return cmd, base
	case <-time.After(15 * time.Second):
		t.Fatal("no 'listening on' line within 15 s")
	}
	return nil, ""
}

// listeningWatcher finds the server's "listening on" line in what is
// written to it, and sends its address once.
type listeningWatcher struct {
	partial []byte
	found   chan string
	done    bool
}

func (w *listeningWatcher) Write(p []byte) (int, error) {
	if w.done {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		end := bytes.IndexByte(w.partial, '\n')
		if end < 0 {
			return len(p), nil
		}
		line := string(w.partial[:end])
		w.partial = w.partial[end+1:]
		if m := listening.FindStringSubmatch(line); m != nil {
			w.found <- m[1]
			w.done, w.partial = true, nil
			return len(p), nil
		}
	}
}

func post(t *testing.T, base, path string, form url.Values) map[string]any {
	t.Helper()
	resp, err := http.PostForm(base+path, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return body
}

func stop(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("lanchatd did not exit cleanly on SIGTERM: %v", err)
	}
}

func TestServeCreatesDataDirAndSurvivesRestart(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "fresh", "data")
	cmd, base := startServer(t, dataDir, "--dev")
	login := post(t, base, "/api/v1/dev_fetch_api_key", url.Values{"username": {"alice@example.com"}})
	key, _ := login["api_key"].(string)
	if key == "" {
		t.Fatalf("dev login: %v", login)
	}
	stop(t, cmd)
	if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); err != nil {
		t.Fatalf("database file: %v", err)
	}

	cmd, base = startServer(t, dataDir, "--dev")
	again := post(t, base, "/api/v1/dev_fetch_api_key", url.Values{"username": {"alice@example.com"}})
	if again["api_key"] != key {
		t.Errorf("key changed across restart: %v vs %v", again["api_key"], key)
	}
	stop(t, cmd)
}

// A request whose body is still arriving when SIGTERM comes is answered
// before the server exits.
func TestGracefulShutdownFinishesInFlightRequests(t *testing.T) {
	cmd, base := startServer(t, t.TempDir(), "--dev")
	bodyReader, bodyWriter := io.Pipe()
	type result struct {
		status int
		body   string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.Post(base+"/api/v1/fetch_api_key", "application/x-www-form-urlencoded", bodyReader)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- result{status: resp.StatusCode, body: string(b)}
	}()
	io.WriteString(bodyWriter, "username=alice%40example.com&")
	time.Sleep(200 * time.Millisecond) // the request is now in flight
	cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(200 * time.Millisecond)
	io.WriteString(bodyWriter, "password=lanchat-dev")
	bodyWriter.Close()
	r := <-done
	if r.err != nil || r.status != 200 || !strings.Contains(r.body, `"api_key"`) {
		t.Fatalf("in-flight request: %d %q %v", r.status, r.body, r.err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
}

func TestUserAddPrintsAWorkingKey(t *testing.T) {
	dataDir := t.TempDir()
	out, err := exec.Command(binary, "user", "add", "--data", dataDir, "--email", "boss@corp.lan",
		"--name", "The Boss", "--admin", "--password", "s3cret-pass").Output()
	if err != nil {
		t.Fatalf("user add: %v", err)
	}
	key := strings.TrimSpace(string(out))
	if len(key) != 32 {
		t.Fatalf("printed %q, want a 32-character key", out)
	}
	dup := exec.Command(binary, "user", "add", "--data", dataDir, "--email", "BOSS@corp.lan", "--name", "Again")
	if msg, err := dup.CombinedOutput(); err == nil || !strings.Contains(string(msg), "already in use") {
		t.Errorf("duplicate email: %v %s", err, msg)
	}

	cmd, base := startServer(t, dataDir) // production: no --dev
	req, _ := http.NewRequest("GET", base+"/api/v1/users/me", nil)
	req.SetBasicAuth("boss@corp.lan", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var me map[string]any
	json.NewDecoder(resp.Body).Decode(&me)
	resp.Body.Close()
	if me["is_admin"] != true || me["full_name"] != "The Boss" {
		t.Errorf("users/me as the new admin: %v", me)
	}
	login := post(t, base, "/api/v1/fetch_api_key", url.Values{"username": {"boss@corp.lan"}, "password": {"s3cret-pass"}})
	if login["api_key"] != key {
		t.Errorf("password login: %v", login)
	}
	dev := post(t, base, "/api/v1/dev_fetch_api_key", url.Values{"username": {"boss@corp.lan"}})
	if dev["result"] != "error" {
		t.Errorf("dev login on a production server: %v", dev)
	}
	stop(t, cmd)
}

// `lanchatd help` prints the usage, each command's flags, and succeeds.
func TestHelp(t *testing.T) {
	out, err := exec.Command(binary, "help").Output()
	if err != nil || !strings.Contains(string(out), "lanchatd import --data DIR --from slack|mattermost|zulip [--name NAME] FILE") {
		t.Errorf("help: %v\n%s", err, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"serve"},
		{"serve", "--data"},
		{"serve", "--data", "x", "--log-format", "xml"},
		{"serve", "--data", "x", "--tls", "on"},
		{"serve", "--data", "x", "--tls-cert", "c.pem"},
		{"serve", "--data", "x", "--tls", "auto", "--tls-cert", "c.pem", "--tls-key", "k.pem"},
		{"user", "add", "--data", "x"},
		{"user", "add", "--data", "x", "--email", "a@b.c", "--name", "A", "--admin", "--guest"},
		{"import", "--data", "x", "export.zip"},
		{"import", "--from", "slack", "export.zip"},
		{"import", "--data", "x", "--from", "slack"},
		{"import", "--data", "x", "--from", "slack", "--name", " ", "export.zip"},
		{"import", "--data", "x", "--from", "slack", "--name", strings.Repeat("n", 41), "export.zip"},
	} {
		err := exec.Command(binary, args...).Run()
		if exitErr, ok := err.(*exec.ExitError); !ok || exitErr.ExitCode() != 2 {
			t.Errorf("lanchatd %v: %v, want exit status 2", args, err)
		}
	}
}

// Every request gets a log line, as text by default and as JSON with
// --log-format json.
func TestServeLogsEachRequest(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			log := &apitest.SyncBuffer{}
			var extra []string
			if format == "json" {
				extra = []string{"--log-format", "json"}
			}
			cmd, base := startServerLogging(t, t.TempDir(), log, extra...)
			resp, err := http.Get(base + "/api/v1/server_settings")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			// The line is written as the answer goes: wait for the pipe.
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(log.String(), "server_settings") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			stop(t, cmd)
			var line string // from its msg on: time and level vary
			for _, l := range strings.Split(log.String(), "\n") {
				if strings.Contains(l, "server_settings") {
					line = l[strings.Index(l, "msg"):]
				}
			}
			switch format {
			case "text":
				if !regexp.MustCompile(`^msg=request method=GET route=/api/v1/server_settings status=200 duration_ms=[0-9.]+ client=127\.0\.0\.1 client_name=Go-http-client$`).MatchString(line) {
					t.Errorf("text line %q in\n%s", line, log)
				}
			case "json":
				var got map[string]any
				if err := json.Unmarshal([]byte(`{"`+line), &got); err != nil || got["msg"] != "request" || got["route"] != "/api/v1/server_settings" || got["status"] != 200.0 {
					t.Errorf("json line %q (%v) in\n%s", line, err, log)
				}
				// A duration with its unit: slog's JSON writes a
				// time.Duration as bare nanoseconds.
				if _, ok := got["duration_ms"].(float64); !ok {
					t.Errorf("json line %q (%v) in\n%s", line, err, log)
				}
			}
		})
	}
}
