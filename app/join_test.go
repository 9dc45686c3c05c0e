package app

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"lanchat/backend/discovery"
	"lanchat/backend/isolate"
	"lanchat/backend/server"
)

// On a network of its own (a stand-in LAN), a second app on first launch finds the host by
// DNS-SD, joins it (over HTTPS, trusting the host's authority), and its
// window then talks to that team: it signs in and reads, hosts nothing and
// opens no port; its next launch returns to the same team.
func TestSecondAppFindsTheHostAndJoins(t *testing.T) {
	if !isolate.LAN(t) {
		return
	}
	// On all addresses: a host bound to loopback is not announced.
	host := newApp(Options{Addr: "0.0.0.0:0", DataDir: t.TempDir(), Dev: true, TLS: server.TLSAuto, Advertise: true}, io.Discard)
	if err := host.HostTeam(); err != nil {
		t.Fatal(err)
	}
	defer host.shutdown()
	teamURL := "https://" + net.JoinHostPort(isolate.LANAddr.String(), strconv.Itoa(host.bound.Port))
	listening := listeningSockets(t)

	dir := t.TempDir()
	member := newApp(Options{Addr: "127.0.0.1:0", DataDir: dir}, io.Discard)
	member.show(welcome)
	if body := get(t, member, "/", ""); !strings.Contains(body, "Host a new team") || !strings.Contains(body, "Join a team") {
		t.Fatalf("first launch shows %q", body)
	}
	// The host's panel shows its authority's fingerprint, and so do its
	// answers, the list and the join dialog: the person compares them.
	fingerprint := host.HostInfo().Authority
	if len(fingerprint) != 19 {
		t.Fatalf("the host panel's fingerprint %q", fingerprint)
	}
	// Spoofers answer for it too: one reusing its instance name (the same
	// port on the same machine) with an authority of its own, listed beside
	// it and both flagged; one whose URL names a user (it reads as the
	// host's address and joins another), not listed.
	spoof := func(team discovery.Team) {
		ad, err := discovery.Advertise(host.bound.Port, func() (discovery.Team, []net.IP) { return team, []net.IP{isolate.LANAddr} })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ad.Stop() })
	}
	spoof(discovery.Team{Name: "Lanchat Dev", URL: "https://10.99.0.66:9991", Authority: "0000 1111 2222 3333"})
	spoof(discovery.Team{Name: "Lanchat Dev", URL: teamURL + "@10.99.0.66:9991", Authority: fingerprint})
	teams, err := member.Teams()
	if want := []discovery.Team{{Name: "Lanchat Dev", URL: teamURL, Authority: fingerprint, Conflict: true},
		{Name: "Lanchat Dev", URL: "https://10.99.0.66:9991", Authority: "0000 1111 2222 3333", Conflict: true}}; err != nil || !slices.Equal(teams, want) {
		t.Fatalf("Teams: %+v %v, want %+v", teams, err, want)
	}
	check, err := member.CheckTeam(teams[0].URL)
	if want := (TeamCheck{URL: teamURL, Address: teamURL[len("https://"):], Name: "Lanchat Dev", Authority: fingerprint}); err != nil || check != want {
		t.Fatalf("CheckTeam: %+v %v, want %+v", check, err, want)
	}
	if err := member.JoinTeam(check.URL, check.Authority); err != nil {
		t.Fatal(err)
	}
	signedIn := func(a *App) {
		t.Helper()
		var key struct {
			APIKey string `json:"api_key"`
		}
		json.Unmarshal([]byte(post(t, a, "/api/v1/fetch_api_key", url.Values{"username": {"alice@example.com"}, "password": {"lanchat-dev"}})), &key)
		if me := get(t, a, "/api/v1/users/me", "alice@example.com:"+key.APIKey); !strings.Contains(me, `"full_name":"Alice`) {
			t.Errorf("the joined team's API through the window: %s", me)
		}
	}
	signedIn(member)
	if got := listeningSockets(t); got != listening {
		t.Errorf("joining opened a port: %d listening sockets, %d before", got, listening)
	}
	if info := member.HostInfo(); info.Running || info.Joined != teamURL || info.Authority != fingerprint {
		t.Errorf("member's host info %+v", info)
	}
	if _, err := member.CreateAccount("X", "x@example.com", "member"); err != errNotHosting {
		t.Errorf("a member created an account: %v", err)
	}
	if err := member.HostTeam(); err == nil || member.hosting() != nil {
		t.Errorf("a member started hosting: %v", err)
	}

	// The next launch goes straight to the team.
	joined, err := loadMembership(dir)
	if err != nil || joined == nil || joined.URL != teamURL || joined.Authority == "" {
		t.Fatalf("remembered %+v %v", joined, err)
	}
	again := newApp(Options{DataDir: dir}, io.Discard)
	if err := again.join(joined); err != nil {
		t.Fatal(err)
	}
	signedIn(again)

	// Leaving forgets the team and offers the choice again.
	if err := again.LeaveTeam(); err != nil {
		t.Fatal(err)
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("still remembered after leaving: %+v %v", m, err)
	}
	if body := get(t, again, "/", ""); !strings.Contains(body, "Join a team") {
		t.Errorf("after leaving the window shows %q", body)
	}
}

// Addresses that are not a team are refused, saying why, and nothing is
// remembered.
func TestJoinRefusesWhatIsNoTeam(t *testing.T) {
	notATeam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	defer notATeam.Close()
	dir := t.TempDir()
	a := newApp(Options{DataDir: dir}, io.Discard)
	for _, address := range []string{"ftp://192.168.1.20", "http://", notATeam.URL} {
		if err := a.JoinTeam(address, ""); err == nil {
			t.Errorf("joined %q", address)
		}
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("remembered %+v %v", m, err)
	}
}

// An address with a user name (https://10.99.0.1:9991@HOST reads as
// 10.99.0.1 and reaches HOST) is refused by the join dialog and by
// joining, even where a team answers; the address a dialog shows is the
// host and port joined.
func TestJoinRefusesAUserName(t *testing.T) {
	dir := t.TempDir()
	a := newApp(Options{DataDir: dir}, io.Discard)
	teamURL := startFakeTeam(t)
	spoofed := "http://10.99.0.1:9991@" + strings.TrimPrefix(teamURL, "http://")
	if _, err := a.CheckTeam(spoofed); err == nil || !strings.Contains(err.Error(), "names a user before @") {
		t.Errorf("CheckTeam(%q): %v", spoofed, err)
	}
	if err := a.JoinTeam(spoofed, ""); err == nil {
		t.Errorf("joined %q", spoofed)
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("remembered %+v %v", m, err)
	}
	check, err := a.CheckTeam(teamURL + "/some/path?x#y")
	if want := (TeamCheck{URL: teamURL, Address: strings.TrimPrefix(teamURL, "http://"), Name: "Olive's Bakery"}); err != nil || check != want {
		t.Errorf("CheckTeam: %+v %v, want %+v", check, err, want)
	}
}

// Once joined, the app trusts the authority it checked and no other: when
// another host answers at the team's address with another authority (a
// spoofer, or the host made a new one), the window says so, naming both
// fingerprints, and connects to nothing; Retry says it again; a join
// whose host presents another authority than the one checked is refused.
func TestAnotherAuthorityIsRefused(t *testing.T) {
	hostA := newApp(Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), TLS: server.TLSAuto}, io.Discard)
	if err := hostA.HostTeam(); err != nil {
		t.Fatal(err)
	}
	defer hostA.shutdown()
	addr := hostA.bound.String()
	teamURL := "https://" + addr
	trusted := hostA.HostInfo().Authority

	dir := t.TempDir()
	member := newApp(Options{DataDir: dir}, io.Discard)
	check, err := member.CheckTeam(teamURL)
	if err != nil || check.Authority != trusted || check.Address != addr {
		t.Fatalf("CheckTeam: %+v %v, want the authority %s at %s", check, err, trusted, addr)
	}
	if err := member.JoinTeam(teamURL, "0000 1111 2222 3333"); err == nil || !strings.Contains(err.Error(), "not the 0000 1111 2222 3333 you checked") {
		t.Errorf("joined with another fingerprint than the host's: %v", err)
	}
	if err := member.JoinTeam(teamURL, trusted); err != nil {
		t.Fatal(err)
	}
	if body := get(t, member, "/api/v1/server_settings", ""); !strings.Contains(body, `"result":"success"`) {
		t.Fatalf("the team through the window: %s", body)
	}

	// Another host takes the address, with an authority of its own.
	hostA.shutdown()
	hostB := newApp(Options{Addr: addr, DataDir: t.TempDir(), TLS: server.TLSAuto}, io.Discard)
	if err := hostB.HostTeam(); err != nil {
		t.Fatal(err)
	}
	defer hostB.shutdown()
	if hostB.bound.String() != addr {
		t.Fatalf("the second host listens at %s, not %s", hostB.bound, addr)
	}
	presented := hostB.HostInfo().Authority
	restarted := newApp(Options{DataDir: dir}, io.Discard)
	joined, err := loadMembership(dir)
	if err != nil || restarted.join(joined) != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]*App{"the joined window": member, "the next launch": restarted} {
		page := respond(a, "GET", "/")
		for _, want := range []string{"<title>Lanchat: the team&#39;s host is not the one this app joined</title>", teamURL,
			"This app trusts " + trusted + "; the host presents " + presented + ".", `data-testid="trouble-choose"`, `data-auto-retry="false"`} {
			if !strings.Contains(page.Body.String(), want) {
				t.Errorf("%s: the page lacks %q:\n%s", name, want, page.Body)
			}
		}
		api := respond(a, "GET", "/api/v1/users/me")
		if api.Code != http.StatusBadGateway || !strings.Contains(api.Body.String(), `"code":"HOST_AUTHORITY_CHANGED"`) {
			t.Errorf("%s: an API request: %d %s", name, api.Code, api.Body)
		}
		if err := a.Reconnect(); err == nil || !strings.Contains(err.Error(), "still presents the authority "+presented+", not the "+trusted) {
			t.Errorf("%s: Retry: %v", name, err)
		}
		if info := a.HostInfo(); info.Authority != trusted {
			t.Errorf("%s: the member's panel shows %q, want the pinned %q", name, info.Authority, trusted)
		}
	}
}

func get(t *testing.T, h http.Handler, path, basic string) string {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	if user, pass, ok := strings.Cut(basic, ":"); ok {
		req.SetBasicAuth(user, pass)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.String()
}

func post(t *testing.T, h http.Handler, path string, form url.Values) string {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.String()
}

// listeningSockets counts TCP sockets listening in this network namespace.
func listeningSockets(t *testing.T) int {
	t.Helper()
	n := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			if fields := strings.Fields(line); len(fields) > 3 && fields[3] == "0A" {
				n++
			}
		}
	}
	return n
}
