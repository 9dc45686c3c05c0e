package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"lanchat/backend/isolate"
	"lanchat/backend/store"
)

// A person closes the hosting app's window with the window manager's close
// button (WM_DELETE_WINDOW) while the window's page follows its event
// queue and others' clients are connected: the app ends within 5 s with
// its store closed, and the next launch opens straight into the chat.
func TestDesktopQuitsWhenItsWindowIsClosed(t *testing.T) {
	testDesktopQuit(t, func(r *desktopRun) {
		if out, err := onDisplay(r.display, "wmctrl", "-i", "-c", r.window()).CombinedOutput(); err != nil {
			t.Fatalf("wmctrl -c: %v %s", err, out)
		}
	})
}

// The same with SIGTERM, as a session's end or a service manager stops it.
func TestDesktopQuitsOnSIGTERM(t *testing.T) {
	testDesktopQuit(t, func(r *desktopRun) {
		if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
	})
}

// SIGTERM while the app is still starting (its server listens, its window
// is not up yet) ends it too: Wails runs OnStartup before GTK's main loop,
// and a quit asked for then was lost.
func TestDesktopQuitsOnSIGTERMDuringStartUp(t *testing.T) {
	desktopBinary(t)
	display := startXvfb(t)
	for round := range 3 {
		r := launchDesktop(t, display, []string{"HOME=" + t.TempDir()},
			"--addr", "127.0.0.1:0", "--data", t.TempDir(), "--dev", "--advertise=false")
		r.url()
		start := time.Now()
		r.cmd.Process.Signal(syscall.SIGTERM)
		if took, ok := r.waitExit(5 * time.Second); !ok {
			t.Fatalf("round %d: still running %s after SIGTERM during start-up", round, took.Round(time.Millisecond))
		}
		if r.err != nil {
			t.Errorf("round %d: %v", round, r.err)
		}
		r.waitHelpers()
		t.Logf("round %d: its helpers ended %s after SIGTERM", round, time.Since(start).Round(time.Millisecond))
	}
}

// SIGTERM while GTK is still building the window, here held up by a
// display that does not answer (its X server stopped), ends the app
// within 5 s too: until GTK's main loop runs, the window cannot be asked
// to close, and on a loaded machine building it took over 6 s.
func TestDesktopQuitsOnSIGTERMWhileItsWindowIsStillStarting(t *testing.T) {
	desktopBinary(t)
	display, xvfb := startXvfbProcess(t)
	data := t.TempDir()
	r := launchDesktop(t, display, []string{"HOME=" + t.TempDir()},
		"--addr", "127.0.0.1:0", "--data", data, "--dev", "--advertise=false")
	r.url()
	if err := xvfb.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer xvfb.Signal(syscall.SIGCONT)
	r.cmd.Process.Signal(syscall.SIGTERM)
	r.endedCleanly("SIGTERM", data) // as it does with its window
}

func testDesktopQuit(t *testing.T, quit func(*desktopRun)) {
	desktopBinary(t)
	display := startXvfb(t)
	startWindowManager(t, display)
	env := []string{"HOME=" + t.TempDir()}
	data := filepath.Join(t.TempDir(), "data")
	args := []string{"--addr", "127.0.0.1:0", "--data", data, "--dev", "--advertise=false"}

	r := launchDesktop(t, display, env, args...)
	base := r.url()
	r.signInWindow("admin@example.com", "lanchat-dev")

	// Others: a WebSocket and three long-pollers.
	alice := newAPIClient(t, base, "alice@example.com", "lanchat-dev")
	heard := make(chan string, 16)
	socketURL := "ws" + strings.TrimPrefix(base, "http") + "/api/v1/events/socket?queue_id=" + url.QueryEscape(alice.register(t))
	ws, _, err := websocket.DefaultDialer.Dial(socketURL, http.Header{"Authorization": {basicAuth(alice)}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	go func() {
		for {
			var frame struct{ Events []json.RawMessage }
			if ws.ReadJSON(&frame) != nil {
				return
			}
			if len(frame.Events) > 0 {
				heard <- "the WebSocket"
			}
		}
	}()
	for i := range 3 {
		queue := alice.register(t)
		poller := &apiClient{base: base, email: alice.email, key: alice.key, http: &http.Client{Transport: &http.Transport{}}}
		go func() {
			last := "-1"
			for {
				req, _ := poller.request("GET", "/api/v1/events", url.Values{"queue_id": {queue}, "last_event_id": {last}})
				resp, err := poller.http.Do(req)
				if err != nil {
					return
				}
				var answer struct {
					Result string
					Events []struct{ ID int64 }
				}
				err = json.NewDecoder(resp.Body).Decode(&answer)
				resp.Body.Close()
				if err != nil || answer.Result != "success" {
					return
				}
				for _, ev := range answer.Events {
					last = fmt.Sprint(ev.ID)
					heard <- fmt.Sprintf("long-poller %d", i)
				}
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // the pollers' first polls
	// A message reaches every one of them, and the window's page, which
	// then all wait for the next.
	mark := len(r.output())
	alice.call(t, "POST", "/api/v1/messages", url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"quitting"}, "content": {"still here"}}, nil)
	r.waitLine(mark, windowRequest("/api/v1/events", "admin@example.com"), 20*time.Second)
	for range 4 {
		select {
		case <-heard:
		case <-time.After(10 * time.Second):
			t.Fatal("a client did not hear the message")
		}
	}
	time.Sleep(time.Second)

	quit(r)
	r.endedCleanly("being asked to quit", data)
	r.waitHelpers() // before the next launch uses the same web data

	// The next launch on the same data serves the team, and its window
	// opens into the chat with the sign-in it kept.
	again := launchDesktop(t, display, env, args...)
	resp, err := http.Get(again.url() + "/api/v1/server_settings")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, i := again.waitLine(0, windowRequest("/api/v1/register", "admin@example.com"), 60*time.Second)
	for _, line := range again.output()[:i] {
		if strings.Contains(line, "route=/api/v1/fetch_api_key") {
			t.Errorf("the relaunched window signed in again: %s", line)
		}
	}
	// The chat reports the person present once it is on screen (its landing
	// page, the Inbox, fetches no messages).
	again.waitLine(i, windowRequest("/api/v1/users/me/presence", "admin@example.com"), 30*time.Second)
	time.Sleep(2 * time.Second) // the page renders what it fetched
	waitRendered(t, display, "desktop-relaunch.png")
}

// endedCleanly checks that the app ended within 5 s of what asked it to,
// with status 0, its store closed: the lock free and the file consistent.
func (r *desktopRun) endedCleanly(asked, data string) {
	r.t.Helper()
	took, ok := r.waitExit(5 * time.Second)
	if !ok {
		r.t.Fatalf("the app was still running %s after %s", took.Round(time.Millisecond), asked)
	}
	r.t.Logf("the app ended %s after %s", took.Round(time.Millisecond), asked)
	if r.err != nil {
		r.t.Errorf("the app ended with %v", r.err)
	}
	st, err := store.Open(data)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := st.Check(); err != nil {
		r.t.Error(err)
	}
	st.Close()
}

func basicAuth(c *apiClient) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(c.email, c.key)
	return req.Header.Get("Authorization")
}

// SIGTERM while a file chooser is open (Host from an export's, on the
// first launch's page) ends the app too: the chooser runs a main loop of
// its own (gtk_dialog_run), inside which GTK's main loop cannot end until
// the chooser is answered. In a network namespace, as the page looks for
// teams.
func TestDesktopQuitsOnSIGTERMWithAFileChooserOpen(t *testing.T) {
	desktopBinary(t)
	if !isolate.Network(t) {
		return
	}
	display := startXvfb(t)
	startWindowManager(t, display)
	r := launchDesktop(t, display, []string{"HOME=" + t.TempDir()}, "--data", t.TempDir())
	win := r.window()
	waitFor(t, "the first launch's page", func() bool { return windowTitle(display, win) == "Lanchat: no teams on this network" })
	// Tab to "Choose the export file…" (after Host a new team and the
	// formats) and press it.
	if out, err := onDisplay(display, "xdotool", "windowactivate", "--sync", win, "key", "--delay", "100", "Tab", "Tab", "Tab", "Return").CombinedOutput(); err != nil {
		t.Fatalf("xdotool: %v %s", err, out)
	}
	waitFor(t, "the file chooser", func() bool {
		out, _ := onDisplay(display, "wmctrl", "-l").Output()
		return strings.Contains(string(out), "Choose the slack export to host")
	})
	r.cmd.Process.Signal(syscall.SIGTERM)
	took, ok := r.waitExit(5 * time.Second)
	if !ok {
		t.Fatalf("the app was still running %s after SIGTERM", took.Round(time.Millisecond))
	}
	if r.err != nil {
		t.Errorf("the app ended with %v", r.err)
	}
}

// windowTitle is the title the window manager shows for window.
func windowTitle(display, window string) string {
	out, _ := onDisplay(display, "wmctrl", "-l").Output()
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 3 && f[0] == window {
			return strings.Join(f[3:], " ")
		}
	}
	return ""
}
