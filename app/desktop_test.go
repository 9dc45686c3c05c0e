package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanchat/backend/isolate"
)

// TestDesktopWindowUnderXvfb starts the desktop binary on a virtual display,
// checks it serves the API, and takes a screenshot of the rendered window
// (docs/screenshots/desktop.png). `make test-desktop` builds the binary and
// sets LANCHAT_DESKTOP_BIN; plain `go test` has no binary to run.
func TestDesktopWindowUnderXvfb(t *testing.T) {
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	display := startXvfb(t)

	app := exec.Command(bin, "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--dev", "--advertise=false")
	stderr, _ := app.StderrPipe()
	startDesktop(t, app, display)
	url := readListening(t, stderr)

	resp, err := http.Get(url + "/api/v1/server_settings")
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	json.NewDecoder(resp.Body).Decode(&settings)
	resp.Body.Close()
	if settings["realm_name"] != "Lanchat Dev" {
		t.Fatalf("server_settings: %v", settings)
	}

	waitRendered(t, display, "desktop.png")
}

// On first launch the window offers to host a new team or join one, and
// until one is chosen the app opens no port. It runs in a network
// namespace of its own: the page looks for teams by DNS-SD.
func TestDesktopFirstLaunchOffersHostOrJoin(t *testing.T) {
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	if !isolate.Network(t) {
		return
	}
	display := startXvfb(t)
	startDesktop(t, exec.Command(bin, "--data", t.TempDir()), display)
	// The page's bound methods work: it looked for teams (there are none in
	// this namespace) and named the window after what it found.
	waitFor(t, "the search for teams", func() bool {
		out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
		return strings.Contains(string(out), `"Lanchat: no teams on this network"`)
	})
	waitRendered(t, display, "desktop-welcome.png")
	if n := listeningSockets(t); n != 0 {
		t.Errorf("before choosing, %d sockets listen", n)
	}
}

// startDesktop starts the desktop app on display with a home of its own, in
// a process group of its own. Its cleanup, which runs before the temporary
// folders are removed, stops the app and then every WebKit helper it
// spawned: a helper left running went on writing into the home's
// .local/share/lanchat and made the folder's removal fail.
func startDesktop(t *testing.T, app *exec.Cmd, display string) {
	t.Helper()
	app.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+t.TempDir())
	app.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	group := -app.Process.Pid
	t.Cleanup(func() {
		app.Process.Signal(os.Interrupt)
		exited := make(chan struct{})
		go func() { app.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			t.Error("the desktop app did not stop on an interrupt within 15 s")
		}
		syscall.Kill(group, syscall.SIGKILL)
		<-exited
		for deadline := time.Now().Add(15 * time.Second); syscall.Kill(group, 0) == nil; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Error("the desktop app's helpers outlived a kill of its process group")
				return
			}
		}
	})
}

// startXvfb starts a virtual display and returns its name. Xvfb picks a
// free display and writes its number once it accepts clients
// (-displayfd): a fixed number per test process was taken again by each
// test while the last one's server was going, or by another process's.
// It never resets (-noreset): by default an X server resets when its last
// client leaves, and a client that connects meanwhile cannot open the
// display; a probe (wmctrl -m) leaving as openbox connected lost openbox.
func startXvfb(t *testing.T) string {
	t.Helper()
	display, _ := startXvfbProcess(t)
	return display
}

// startXvfbProcess is startXvfb that also returns the X server's process.
func startXvfbProcess(t *testing.T) (string, *os.Process) {
	t.Helper()
	ready, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer ready.Close()
	xvfb := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp", "-noreset")
	xvfb.ExtraFiles = []*os.File{w}
	err = xvfb.Start()
	w.Close()
	if err != nil {
		t.Fatalf("Xvfb: %v", err)
	}
	t.Cleanup(func() { xvfb.Process.Kill(); xvfb.Wait() })
	number := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(ready).ReadString('\n')
		number <- strings.TrimSpace(line)
	}()
	select {
	case n := <-number:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb did not start (it wrote %q)", n)
		}
		return ":" + n, xvfb.Process
	case <-time.After(60 * time.Second):
		t.Fatal("Xvfb did not start within 60 s")
		return "", nil
	}
}

// waitRendered waits until the window has rendered a page and keeps its
// screenshot as docs/screenshots/name: the screen is no longer one flat
// colour (WebKit takes a few seconds to start on a virtual display).
func waitRendered(t *testing.T, display, name string) {
	t.Helper()
	shot := filepath.Join("..", "docs", "screenshots", name)
	waitFor(t, "a rendered window", func() bool {
		if exec.Command("import", "-display", display, "-window", "root", shot).Run() != nil {
			return false
		}
		out, err := exec.Command("convert", shot, "-format", "%k", "info:").Output()
		colours, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return err == nil && colours > 50
	})
}

func readListening(t *testing.T, stderr interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`listening on (http://\S+)`)
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			if m := re.FindStringSubmatch(s.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("the desktop app did not print its address")
		return ""
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatal(fmt.Sprintf("timed out waiting for %s", what))
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
