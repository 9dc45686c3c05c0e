package app

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/isolate"
)

// A member's app whose saved team cannot be shown no longer opens a blank
// window (host gone) or exits (unreadable member.json): the window says
// what happened and offers Retry and Choose another team, and once the host
// answers again it goes back to the team by itself. The page names the
// window, which shows it rendered with its bound methods; the
// screenshots are docs/screenshots/desktop-unreachable.png and
// desktop-unreadable.png. `make test-desktop` builds the binary.
func TestDesktopMemberTroubleIsExplained(t *testing.T) {
	bin := os.Getenv("LANCHAT_DESKTOP_BIN")
	if bin == "" {
		t.Skip("LANCHAT_DESKTOP_BIN is not set (make test-desktop sets it)")
	}
	display := startXvfb(t)
	away := freeAddr(t)
	for _, tc := range []struct {
		name, membership, title, shot string
	}{
		// Nothing listens there: the host's computer is off, or it moved.
		{"unreachable", `{"url":"http://` + away + `"}`, "Lanchat: cannot reach the team", "desktop-unreachable.png"},
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
			if tc.name != "unreachable" {
				return
			}
			// The host comes back: the window goes back to the team by
			// itself, and the team's page (here one that names the
			// window through the bound methods) loads.
			ln, err := net.Listen("tcp", away)
			if err != nil {
				t.Fatal(err)
			}
			back := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v1/server_settings" {
					io.WriteString(w, `{"result":"success","realm_name":"Back"}`)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, `<title>Back</title><script>const named = setInterval(() => { if (window.go?.app?.App) { `+
					`clearInterval(named); window.go.app.App.SetTitle('Lanchat: the team is back') } }, 100)</script>`)
			})}
			go back.Serve(ln)
			defer back.Close()
			waitFor(t, "the window back on the team", func() bool {
				out, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").Output()
				return strings.Contains(string(out), `"Lanchat: the team is back"`)
			})
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
