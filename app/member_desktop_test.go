package app

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/isolate"
)

// A member's app whose saved team cannot be shown no longer opens a blank
// window (host gone) or exits (unreadable member.json): the window says
// what happened and offers Retry and Choose another team. The page names
// the window, which shows it rendered with its bound methods; the
// screenshots are docs/screenshots/desktop-unreachable.png and
// desktop-unreadable.png. `make test-desktop` builds the binary.
func TestDesktopMemberTroubleIsExplained(t *testing.T) {
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	display := startXvfb(t)
	for _, tc := range []struct {
		name, membership, title, shot string
	}{
		// Nothing listens there: the host's computer is off, or it moved.
		{"unreachable", `{"url":"http://` + freeAddr(t) + `"}`, "Lanchat: cannot reach the team", "desktop-unreachable.png"},
		{"unreadable", `{"url": "http://192.168`, "Lanchat: the saved team is unreadable", "desktop-unreadable.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, MembershipFile), []byte(tc.membership), 0o600)
			app := exec.Command(bin, "--data", dir)
			startDesktop(t, app, display)
			waitFor(t, "the window titled "+tc.title, func() bool {
				out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
				return strings.Contains(string(out), `"`+tc.title+`"`)
			})
			waitRendered(t, display, tc.shot)
			if app.ProcessState != nil {
				t.Errorf("the app exited: %v", app.ProcessState)
			}
		})
	}
}

// On first launch the window's list of teams is live: a team that starts
// advertising while the window is open is listed without anyone pressing
// anything, and dropped once it stops (the page names the window after
// what it found). On a stand-in LAN of the test's own: a host bound to
// loopback is not announced.
func TestDesktopWelcomeListsATeamThatStartsLater(t *testing.T) {
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	if !isolate.LAN(t) {
		return
	}
	display := startXvfb(t)
	startDesktop(t, exec.Command(bin, "--data", t.TempDir()), display)
	titled := func(title string) {
		t.Helper()
		waitFor(t, "the window titled "+title, func() bool {
			out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
			return strings.Contains(string(out), `"`+title+`"`)
		})
	}
	titled("Lanchat: no teams on this network")

	host := newApp(Options{Addr: "0.0.0.0:0", DataDir: t.TempDir(), Dev: true, Advertise: true}, io.Discard)
	if err := host.HostTeam(); err != nil {
		t.Fatal(err)
	}
	titled("Lanchat: 1 team on this network")
	waitRendered(t, display, "desktop-welcome-team.png")
	if err := host.shutdown(); err != nil {
		t.Fatal(err)
	}
	titled("Lanchat: no teams on this network")
}
