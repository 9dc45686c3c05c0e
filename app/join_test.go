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
	teams, err := member.Teams()
	if want := []discovery.Team{{Name: "Lanchat Dev", URL: teamURL}}; err != nil || !slices.Equal(teams, want) {
		t.Fatalf("Teams: %+v %v, want %+v", teams, err, want)
	}
	if err := member.JoinTeam(teams[0].URL); err != nil {
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
	if info := member.HostInfo(); info.Running || info.Joined != teamURL {
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
		if err := a.JoinTeam(address); err == nil {
			t.Errorf("joined %q", address)
		}
	}
	if m, err := loadMembership(dir); m != nil || err != nil {
		t.Errorf("remembered %+v %v", m, err)
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
