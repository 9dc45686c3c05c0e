package app

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanchat/backend/discovery"
	"lanchat/backend/isolate"
)

// fakeTeam answers as a Lanchat server would the little a member's app
// asks: server_settings, and a page at /.
func fakeTeam(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/v1/server_settings" {
		io.WriteString(w, `{"result":"success","realm_name":"Olive's Bakery"}`)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	io.WriteString(w, "<p>the team's chat</p>")
}

// serve serves fakeTeam on addr (a port freed earlier) until the test ends.
func serve(t *testing.T, addr string) {
	t.Helper()
	var ln net.Listener
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ln, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(fakeTeam)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
}

// freeAddr is a loopback address where nothing listens (connections are
// refused at once), until someone listens there.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return ln.Addr().String()
}

func respond(h http.Handler, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// A member whose host does not answer sees, in the window, where the app
// tried and why it failed, with Retry and Choose another team; the page
// answers 200 (Wails shows any other status as a blank window, and injects
// the bound methods only into a 200 page), and the API's requests get an
// error that says the same. Retry succeeds once the host is back, and the
// team's page shows again.
func TestUnreachableHostIsExplained(t *testing.T) {
	addr := freeAddr(t)
	teamURL := "http://" + addr
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, MembershipFile), []byte(`{"url":"`+teamURL+`"}`), 0o600)
	a := newApp(Options{DataDir: dir}, io.Discard)
	m, err := loadMembership(dir)
	if err != nil || a.join(m) != nil {
		t.Fatal(err)
	}

	page := respond(a, "GET", "/")
	body := page.Body.String()
	if page.Code != 200 || !strings.HasPrefix(page.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("the page while the host is away: %d %q", page.Code, page.Header().Get("Content-Type"))
	}
	for _, want := range []string{"<title>Lanchat: cannot reach the team</title>", "does not answer at " + teamURL,
		"connect: connection refused", `data-testid="trouble-retry"`, `data-testid="trouble-choose"`, `data-auto-retry="true"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	api := respond(a, "GET", "/api/v1/users/me")
	var answer struct{ Result, Code, Msg string }
	json.Unmarshal(api.Body.Bytes(), &answer)
	if api.Code != http.StatusBadGateway || answer.Result != "error" || answer.Code != "HOST_UNREACHABLE" || !strings.Contains(answer.Msg, teamURL) {
		t.Errorf("an API request while the host is away: %d %s", api.Code, api.Body)
	}
	if err := a.Reconnect(); err == nil || !strings.Contains(err.Error(), "still no answer at "+teamURL) {
		t.Errorf("Retry while the host is away: %v", err)
	}

	serve(t, addr)
	if err := a.Reconnect(); err != nil {
		t.Errorf("Retry once the host is back: %v", err)
	}
	if body := get(t, a, "/", ""); body != "<p>the team's chat</p>" {
		t.Errorf("the page once the host is back: %q", body)
	}
}

// Choose another team, from the page of an unreachable host, forgets the
// team and shows the first launch's choice.
func TestChooseAnotherTeamWhenTheHostIsAway(t *testing.T) {
	dir := t.TempDir()
	a := newApp(Options{DataDir: dir}, io.Discard)
	if err := a.JoinTeam(startFakeTeam(t), ""); err != nil {
		t.Fatal(err)
	}
	// At the next launch the host has moved.
	if err := a.join(&membership{URL: "http://" + freeAddr(t)}); err != nil {
		t.Fatal(err)
	}
	if body := get(t, a, "/", ""); !strings.Contains(body, "cannot reach the team") {
		t.Fatalf("the page: %q", body)
	}
	if err := a.LeaveTeam(); err != nil {
		t.Fatal(err)
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("still remembered: %+v %v", m, err)
	}
	if body := get(t, a, "/", ""); !strings.Contains(body, "Join a team") {
		t.Errorf("after choosing another team the window shows %q", body)
	}
}

func startFakeTeam(t *testing.T) string {
	addr := freeAddr(t)
	serve(t, addr)
	return "http://" + addr
}

// An unreadable membership file no longer ends the app: the window names
// the file and what is wrong with it. Retry reads it again (still broken:
// the error; repaired: the team); Choose another team keeps the file aside
// and shows the first launch's choice.
func TestUnreadableMembershipIsExplained(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, MembershipFile)
	os.WriteFile(file, []byte(`{"url": "http://192.168`), 0o600)
	_, err := loadMembership(dir)
	if err == nil {
		t.Fatal("a truncated file was read")
	}
	a := newApp(Options{DataDir: dir}, io.Discard)
	a.membershipUnreadable(err)
	page := respond(a, "GET", "/")
	body := page.Body.String()
	for _, want := range []string{"<title>Lanchat: the saved team is unreadable</title>", file, "unexpected end of JSON input",
		MembershipFile + ".unreadable", `data-testid="trouble-retry"`, `data-testid="trouble-choose"`, `data-auto-retry="false"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if page.Code != 200 {
		t.Errorf("status %d", page.Code)
	}
	if err := a.Reconnect(); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("Retry with the file still broken: %v", err)
	}

	os.WriteFile(file, []byte(`{"url":"`+startFakeTeam(t)+`"}`), 0o600)
	if err := a.Reconnect(); err != nil {
		t.Fatalf("Retry with the file repaired: %v", err)
	}
	if body := get(t, a, "/", ""); body != "<p>the team's chat</p>" {
		t.Errorf("the page once the file is repaired: %q", body)
	}

	// Broken again at the next launch: Choose another team.
	os.WriteFile(file, []byte("not json"), 0o600)
	b := newApp(Options{DataDir: dir}, io.Discard)
	_, err = loadMembership(dir)
	b.membershipUnreadable(err)
	if err := b.LeaveTeam(); err != nil {
		t.Fatal(err)
	}
	if kept, err := os.ReadFile(file + ".unreadable"); err != nil || string(kept) != "not json" {
		t.Errorf("the unreadable file was not kept aside: %q %v", kept, err)
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("after choosing another team: %+v %v", m, err)
	}
	if body := get(t, b, "/", ""); !strings.Contains(body, "Join a team") {
		t.Errorf("after choosing another team the window shows %q", body)
	}
	if err := b.LeaveTeam(); err == nil {
		t.Error("left a team twice")
	}
}

// A member's panel offers only what a member can do: the team's address
// (to pass on) and Leave. The host's methods refuse, and the panel learns
// no data folder.
func TestMemberHasNoHostMethods(t *testing.T) {
	a := newApp(Options{DataDir: t.TempDir()}, io.Discard)
	teamURL := startFakeTeam(t)
	if err := a.JoinTeam(teamURL, ""); err != nil {
		t.Fatal(err)
	}
	if info := a.HostInfo(); info.Running || info.Joined != teamURL || info.JoinURL != teamURL || info.DataDir != "" || info.AuthorityURL != "" {
		t.Errorf("a member's host info %+v", info)
	}
	a.saveDialog = func(string) (string, error) { t.Error("a member was asked where to save a backup"); return "", nil }
	for name, err := range map[string]error{
		"CreateAccount":  second(a.CreateAccount("X", "x@example.com", "member")),
		"IssuePassword":  second(a.IssuePassword("alice@example.com")),
		"Backup":         second(a.Backup()),
		"OpenDataFolder": a.OpenDataFolder(),
	} {
		if !errors.Is(err, errNotHosting) {
			t.Errorf("%s for a member: %v", name, err)
		}
	}
	if a.SetupToken() != "" || a.RecentErrors() != nil {
		t.Error("a member has a host's setup token or errors")
	}
}

func second[T any](_ T, err error) error { return err }

// While the welcome page shows, its list of teams is live: a team that
// starts after the page opened is listed, one that stops is dropped, and
// once the page is replaced the app stops asking.
func TestWelcomeListsTeamsLive(t *testing.T) {
	if !isolate.LAN(t) {
		return
	}
	a := newApp(Options{DataDir: t.TempDir()}, io.Discard)
	defer a.shutdown()
	seen := make(chan TeamsSeen, 100)
	a.emit = func(name string, data any) {
		if name == "teams" {
			seen <- data.(TeamsSeen)
		}
	}
	next := func(what string) []discovery.Team {
		t.Helper()
		select {
		case s := <-seen:
			if s.Error != "" {
				t.Fatalf("%s: %s", what, s.Error)
			}
			return s.Teams
		case <-time.After(15 * time.Second):
			t.Fatalf("no list %s", what)
			return nil
		}
	}
	a.show(welcome)
	a.WatchTeams()
	if teams := next("at first"); len(teams) != 0 {
		t.Fatalf("teams before any host: %+v", teams)
	}

	host := newApp(Options{Addr: "0.0.0.0:0", DataDir: t.TempDir(), Dev: true, Advertise: true}, io.Discard)
	if err := host.HostTeam(); err != nil {
		t.Fatal(err)
	}
	want := []discovery.Team{{Name: "Lanchat Dev", URL: "http://" + net.JoinHostPort(isolate.LANAddr.String(), strconv.Itoa(host.bound.Port))}}
	if teams := next("once a host starts"); !slices.Equal(teams, want) {
		t.Fatalf("teams once a host started: %+v, want %+v", teams, want)
	}
	// The page loaded again gets the list at once.
	a.WatchTeams()
	if teams := next("for a reloaded page"); !slices.Equal(teams, want) {
		t.Errorf("teams for a reloaded page: %+v", teams)
	}
	host.shutdown()
	if teams := next("once the host stops"); len(teams) != 0 {
		t.Fatalf("teams once the host stopped: %+v", teams)
	}

	// Joining replaces the page: no more lists.
	if err := a.join(&membership{URL: want[0].URL}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-seen:
		t.Errorf("a list after the page was replaced: %+v", s)
	case <-time.After(5 * time.Second):
	}
}
