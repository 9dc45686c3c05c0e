package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// What the desktop tests of quitting, relaunching and single instances
// share: a window manager on the virtual display, so that windows are
// closed and focused as a person's are, and a desktop app whose standard
// error is followed line by line and whose end is observed.

// desktopBinary is the app `make test-desktop` built, or a skip.
func desktopBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	return bin
}

// startWindowManager runs openbox on display: it closes windows by
// WM_DELETE_WINDOW (wmctrl -c) and tracks the active one.
func startWindowManager(t *testing.T, display string) {
	t.Helper()
	var out strings.Builder
	wm := exec.Command("openbox")
	wm.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+t.TempDir())
	wm.Stdout, wm.Stderr = &out, &out
	if err := wm.Start(); err != nil {
		t.Fatalf("openbox (make deps-system installs it): %v", err)
	}
	ended := make(chan struct{})
	go func() { wm.Wait(); close(ended) }()
	t.Cleanup(func() { wm.Process.Kill(); <-ended })
	waitFor(t, "the window manager", func() bool {
		select {
		case <-ended:
			t.Fatalf("openbox ended: %s", out.String())
		default:
		}
		return onDisplay(display, "wmctrl", "-m").Run() == nil
	})
}

// onDisplay is an X client's command on display.
func onDisplay(display, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	return cmd
}

// desktopRun is one launch of the desktop app.
type desktopRun struct {
	t       *testing.T
	cmd     *exec.Cmd
	display string
	exited  chan struct{} // closed once the app's own process has ended
	err     error         // its Wait, once exited
	// closed once nothing holds its standard error open: the app and the
	// WebKit helpers it started, which inherit it, have all ended
	helpersEnded chan struct{}

	mu    sync.Mutex
	lines []string // its standard error so far
	more  chan struct{}
}

// launchDesktop starts the app on display with env added to the test's
// own, in a process group of its own. The cleanup kills what is left of
// the group: the app and WebKit's helpers.
func launchDesktop(t *testing.T, display string, env []string, args ...string) *desktopRun {
	t.Helper()
	cmd := exec.Command(desktopBinary(t), args...)
	// Without Mesa's shader cache: each test's fresh home made it cold at
	// every launch, and a process ended during start-up stayed a zombie
	// for seconds on a loaded machine while the cache's writer thread
	// (disk$0) was still being torn down.
	cmd.Env = append(append(os.Environ(), "DISPLAY="+display, "MESA_SHADER_CACHE_DISABLE=true"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A pipe of the test's own rather than StderrPipe, whose Wait waits
	// until every holder of the pipe has closed it: WebKit's helpers
	// inherit it and, while still starting, outlived an app that had
	// ended in time by seconds, which then counted as the app's.
	stderr, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		stderr.Close()
		t.Fatal(err)
	}
	r := &desktopRun{t: t, cmd: cmd, display: display, exited: make(chan struct{}), helpersEnded: make(chan struct{}), more: make(chan struct{})}
	go func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			r.mu.Lock()
			r.lines = append(r.lines, s.Text())
			close(r.more)
			r.more = make(chan struct{})
			r.mu.Unlock()
		}
		stderr.Close()
		close(r.helpersEnded)
	}()
	go func() {
		r.err = cmd.Wait()
		close(r.exited)
	}()
	group := -cmd.Process.Pid
	t.Cleanup(func() {
		syscall.Kill(group, syscall.SIGKILL)
		<-r.exited
		for deadline := time.Now().Add(15 * time.Second); syscall.Kill(group, 0) == nil; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Error("the desktop app's helpers outlived a kill of its process group")
				return
			}
		}
		<-r.helpersEnded
		if t.Failed() {
			t.Logf("the desktop app's standard error:\n%s", strings.Join(r.output(), "\n"))
		}
	})
	return r
}

func (r *desktopRun) output() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...)
}

// waitLine waits for a line of standard error after the first `from`
// lines that matches re, and returns its submatches and its index.
func (r *desktopRun) waitLine(from int, re *regexp.Regexp, within time.Duration) ([]string, int) {
	r.t.Helper()
	deadline := time.After(within)
	for {
		r.mu.Lock()
		for i := from; i < len(r.lines); i++ {
			if m := re.FindStringSubmatch(r.lines[i]); m != nil {
				r.mu.Unlock()
				return m, i
			}
		}
		from = len(r.lines)
		more := r.more
		r.mu.Unlock()
		select {
		case <-more:
		case <-r.helpersEnded: // every line is in
			<-r.exited
			r.t.Fatalf("the app ended (%v) before printing a line matching %s", r.err, re)
		case <-deadline:
			r.t.Fatalf("no line matching %s within %s", re, within)
		}
	}
}

// url is where the app's server listens, from its "listening on" line.
func (r *desktopRun) url() string {
	r.t.Helper()
	m, _ := r.waitLine(0, regexp.MustCompile(`listening on (http://\S+)`), 60*time.Second)
	return m[1]
}

// window is the X id of the app's top-level window, as the window manager
// lists it.
func (r *desktopRun) window() string {
	r.t.Helper()
	var id string
	waitFor(r.t, "the app's window", func() bool {
		out, _ := onDisplay(r.display, "wmctrl", "-l", "-p").Output()
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) > 2 && f[2] == strconv.Itoa(r.cmd.Process.Pid) {
				id = f[0]
				return true
			}
		}
		return false
	})
	return id
}

// waitExit waits at most within for the app to end and returns how long
// it took.
func (r *desktopRun) waitExit(within time.Duration) (time.Duration, bool) {
	start := time.Now()
	select {
	case <-r.exited:
		return time.Since(start), true
	case <-time.After(within):
		return time.Since(start), false
	}
}

// waitHelpers waits for WebKit's helpers to end after the app has: they
// end on their own once they find it gone, which while they were still
// starting took seconds on a loaded machine.
func (r *desktopRun) waitHelpers() {
	r.t.Helper()
	select {
	case <-r.helpersEnded:
	case <-time.After(30 * time.Second):
		r.t.Fatal("the app's helpers still ran 30 s after it ended")
	}
}

// windowRequest matches a request line the window's own page made: the
// in-process asset server gives its requests the address 192.0.2.1.
func windowRequest(route, user string) *regexp.Regexp {
	return regexp.MustCompile(`route=` + regexp.QuoteMeta(route) + ` status=200 .*client=192\.0\.2\.1 (.* )?user=` + regexp.QuoteMeta(user) + `$`)
}

// signInWindow signs the window in as a person does: it types the email
// and password into the sign-in page (its email field has the focus) and
// presses Enter. It returns when the page has registered its event queue.
func (r *desktopRun) signInWindow(email, password string) {
	r.t.Helper()
	_, i := r.waitLine(0, regexp.MustCompile(`route=/api/v1/server_settings status=200 .*client=192\.0\.2\.1`), 60*time.Second)
	win := r.window()
	// The form renders after that answer, focused on its first field, and
	// then titles the window: keys typed before were lost on a busy machine.
	waitFor(r.t, "the sign-in form", func() bool { return strings.HasPrefix(windowTitle(r.display, win), "Sign in · ") })
	xdo := func(args ...string) {
		if out, err := onDisplay(r.display, "xdotool", args...).CombinedOutput(); err != nil {
			r.t.Fatalf("xdotool %v: %v %s", args, err, out)
		}
	}
	xdo("windowactivate", "--sync", win)
	xdo("type", "--delay", "20", email)
	xdo("key", "Tab")
	xdo("type", "--delay", "20", password)
	xdo("key", "Return")
	r.waitLine(i, windowRequest("/api/v1/register", email), 30*time.Second)
}

// apiClient is a Zulip API client of the app's server with its own
// connections.
type apiClient struct {
	base, email, key string
	http             *http.Client
}

func newAPIClient(t *testing.T, base, email, password string) *apiClient {
	t.Helper()
	c := &apiClient{base: base, email: email, http: &http.Client{Transport: &http.Transport{}}}
	var key struct {
		APIKey string `json:"api_key"`
	}
	c.call(t, "POST", "/api/v1/fetch_api_key", url.Values{"username": {email}, "password": {password}}, &key)
	c.key = key.APIKey
	return c
}

func (c *apiClient) request(method, path string, form url.Values) (*http.Request, error) {
	var body *strings.Reader
	if method == "GET" {
		path += "?" + form.Encode()
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if c.key != "" {
		req.SetBasicAuth(c.email, c.key)
	}
	return req, nil
}

func (c *apiClient) call(t *testing.T, method, path string, form url.Values, answer any) {
	t.Helper()
	req, err := c.request(method, path, form)
	if err == nil {
		var resp *http.Response
		if resp, err = c.http.Do(req); err == nil {
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				err = fmt.Errorf("status %s", resp.Status)
			} else if answer != nil {
				err = json.NewDecoder(resp.Body).Decode(answer)
			}
		}
	}
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

// register makes an event queue and returns its ID.
func (c *apiClient) register(t *testing.T) string {
	t.Helper()
	var q struct {
		QueueID string `json:"queue_id"`
	}
	c.call(t, "POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}}, &q)
	return q.QueueID
}
