package app

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanchat/backend/isolate"
	"lanchat/backend/store"
)

// One copy of the app per data folder. A second launch on a hosting app's
// folder, while another window has the focus, leaves at once with status 0
// and brings the first window forward, which goes on serving; so does a
// second launch of a member's app. An app on another data folder runs
// beside them. On a session bus of the test's own.
func TestDesktopSecondLaunchBringsTheFirstForward(t *testing.T) {
	desktopBinary(t)
	if !isolate.SessionBus(t) {
		return
	}
	display := startXvfb(t)
	startWindowManager(t, display)
	env := []string{"HOME=" + t.TempDir()}
	hostData := filepath.Join(t.TempDir(), "host")
	hostArgs := []string{"--addr", "127.0.0.1:0", "--data", hostData, "--dev", "--advertise=false"}
	host := launchDesktop(t, display, env, hostArgs...)
	base := host.url()
	secondLaunchComesForward(t, host, env, hostArgs)
	if resp, err := http.Get(base + "/api/v1/server_settings"); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the first app stopped serving: %v", err)
	} else {
		resp.Body.Close()
	}

	// A member's app on its own folder, joined to that host, runs beside
	// it, and is alone on its folder too.
	memberData := t.TempDir()
	joined, _ := json.Marshal(membership{URL: base})
	if err := os.WriteFile(filepath.Join(memberData, MembershipFile), joined, 0o600); err != nil {
		t.Fatal(err)
	}
	memberArgs := []string{"--data", memberData}
	member := launchDesktop(t, display, env, memberArgs...)
	secondLaunchComesForward(t, member, env, memberArgs)

	// Another host on another folder runs beside both.
	other := launchDesktop(t, display, env, "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--dev", "--advertise=false")
	other.url()
	other.window()
	for _, r := range []*desktopRun{host, member, other} {
		select {
		case <-r.exited:
			t.Errorf("%v ended: %v", r.cmd.Args, r.err)
		default:
		}
	}
}

// secondLaunchComesForward puts another window over first's and focuses
// it, launches the app again with first's arguments, and checks that the
// launch ends at once with status 0 and first's window is then the active
// one, on top.
func secondLaunchComesForward(t *testing.T, first *desktopRun, env, args []string) {
	t.Helper()
	win := xid(t, first.window())
	cover := onDisplay(first.display, "xmessage", "-geometry", "1200x800+0+0", "covering the first window")
	if err := cover.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cover.Process.Kill(); cover.Wait() }()
	waitFor(t, "the covering window to take the focus", func() bool {
		active := activeWindow(first.display)
		return active != 0 && active != win
	})

	second := launchDesktop(t, first.display, env, args...)
	if took, ok := second.waitExit(5 * time.Second); !ok {
		t.Fatalf("a second launch on %v was still running after %s", args, took.Round(time.Millisecond))
	}
	if second.err != nil {
		t.Errorf("the second launch ended with %v:\n%s", second.err, strings.Join(second.output(), "\n"))
	}
	waitFor(t, "the first window to come forward", func() bool {
		stacking := windowList(first.display, "_NET_CLIENT_LIST_STACKING")
		return activeWindow(first.display) == win && len(stacking) > 0 && stacking[len(stacking)-1] == win
	})
	select {
	case <-first.exited:
		t.Fatalf("the first app ended: %v", first.err)
	default:
	}
}

// xid reads a window ID as wmctrl or xprop prints it.
func xid(t *testing.T, s string) uint64 {
	t.Helper()
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSuffix(s, ","), "0x"), 16, 64)
	if err != nil {
		t.Fatalf("window ID %q: %v", s, err)
	}
	return id
}

// windowList is a window-list property of the root window, such as
// _NET_CLIENT_LIST_STACKING (bottom to top).
func windowList(display, property string) []uint64 {
	out, err := onDisplay(display, "xprop", "-root", property).Output()
	_, ids, found := strings.Cut(string(out), "window id #")
	if err != nil || !found {
		return nil
	}
	var list []uint64
	for _, f := range strings.Fields(strings.ReplaceAll(ids, ",", " ")) {
		if id, err := strconv.ParseUint(strings.TrimPrefix(f, "0x"), 16, 64); err == nil {
			list = append(list, id)
		}
	}
	return list
}

// activeWindow is the window manager's active window, or 0.
func activeWindow(display string) uint64 {
	if l := windowList(display, "_NET_ACTIVE_WINDOW"); len(l) == 1 {
		return l[0]
	}
	return 0
}

// When the app cannot start, here because another process (a lanchatd, or
// a copy the session bus could not reach) holds the data folder's store,
// its window says why until the person closes it; it then ends with
// status 1.
func TestDesktopSaysWhyItCannotStart(t *testing.T) {
	desktopBinary(t)
	display := startXvfb(t)
	startWindowManager(t, display)
	data := t.TempDir()
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := launchDesktop(t, display, []string{"HOME=" + t.TempDir()}, "--addr", "127.0.0.1:0", "--data", data, "--dev", "--advertise=false")
	var win string
	waitFor(t, "a window that says the app cannot start", func() bool {
		out, _ := onDisplay(display, "wmctrl", "-l", "-p").Output()
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) > 4 && f[2] == strconv.Itoa(r.cmd.Process.Pid) && strings.Join(f[4:], " ") == "Lanchat cannot start" {
				win = f[0]
				return true
			}
		}
		return false
	})
	waitRendered(t, display, "desktop-cannot-start.png")
	if out, err := onDisplay(display, "wmctrl", "-i", "-c", win).CombinedOutput(); err != nil {
		t.Fatalf("wmctrl -c: %v %s", err, out)
	}
	if took, ok := r.waitExit(5 * time.Second); !ok {
		t.Fatalf("still running %s after its window was closed", took.Round(time.Millisecond))
	}
	if exit, ok := r.err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Errorf("ended with %v, want status 1", r.err)
	}
	if out := strings.Join(r.output(), "\n"); !strings.Contains(out, "in use by another process") {
		t.Errorf("standard error does not say why:\n%s", out)
	}
}
