package app

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/domain"
	"lanchat/backend/server"
)

// The host panel's addresses are those that reach the server: every LAN
// address when it listens on all of them, else only the one it is bound
// to, the others listed apart (on loopback: none reaches).
func TestJoinAddresses(t *testing.T) {
	cidr := func(s string) net.Addr { ip, n, _ := net.ParseCIDR(s); n.IP = ip; return n }
	addrs := []net.Addr{cidr("127.0.0.1/8"), cidr("fe80::1/64"), cidr("2001:db8::5/64"), cidr("192.168.1.20/24"), cidr("::1/128"), cidr("10.0.0.5/8")}
	for _, tc := range []struct {
		bound              string
		scheme             string
		reach, unreachable []string
	}{
		{"0.0.0.0:9991", "http://", []string{"http://192.168.1.20:9991", "http://10.0.0.5:9991", "http://[2001:db8::5]:9991"}, nil},
		{"[::]:9991", "https://", []string{"https://192.168.1.20:9991", "https://10.0.0.5:9991", "https://[2001:db8::5]:9991"}, nil},
		{"127.0.0.1:9991", "http://", nil, []string{"http://192.168.1.20:9991", "http://10.0.0.5:9991", "http://[2001:db8::5]:9991"}},
		{"10.0.0.5:9991", "http://", []string{"http://10.0.0.5:9991"}, []string{"http://192.168.1.20:9991", "http://[2001:db8::5]:9991"}},
	} {
		bound, _ := net.ResolveTCPAddr("tcp", tc.bound)
		reach, unreachable := joinAddresses(addrs, bound, tc.scheme)
		if !slices.Equal(reach, tc.reach) || !slices.Equal(unreachable, tc.unreachable) {
			t.Errorf("bound to %s: reach %v, unreachable %v; want %v, %v", tc.bound, reach, unreachable, tc.reach, tc.unreachable)
		}
	}
}

func TestDefaultDataDir(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANCHAT_DATA": "/srv/chat", "XDG_DATA_HOME": "/x", "HOME": "/home/a"}, "/srv/chat"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/home/a"}, "/x/lanchat"},
		{map[string]string{"HOME": "/home/a"}, "/home/a/.local/share/lanchat"},
	} {
		if got := DefaultDataDir(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
	if hasDisplay(func(string) string { return "" }) || !hasDisplay(func(k string) string { return map[string]string{"WAYLAND_DISPLAY": "wayland-0"}[k] }) {
		t.Error("hasDisplay")
	}
}

func openApp(t *testing.T) *App {
	dir := t.TempDir()
	srv, err := server.Open(server.Config{DataDir: dir, Dev: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(t.Context()) })
	return &App{srv: srv, dataDir: dir, bound: &net.TCPAddr{IP: net.IPv4zero, Port: 9991}}
}

func TestCreateAccount(t *testing.T) {
	a := openApp(t)
	svc := a.srv.Service()
	// Alice is online: she must see Nina arrive.
	login, err := svc.FetchAPIKey("alice@example.com", "lanchat-dev")
	if err != nil {
		t.Fatal(err)
	}
	alice, err := svc.Authenticate("alice@example.com", login.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := svc.Register(alice, domain.RegisterRequest{EventTypes: []string{"realm_user"}})
	if err != nil {
		t.Fatal(err)
	}
	acct, err := a.CreateAccount("Nina New", "nina@example.com", "member")
	if err != nil || len(acct.Password) < 16 {
		t.Fatalf("CreateAccount: %+v %v", acct, err)
	}
	evs, err := svc.Events(t.Context(), alice, reg.QueueID, -1, true)
	if err != nil || len(evs) != 1 || !strings.Contains(string(evs[0].AppendJSON(nil)), `"op":"add"`) || !strings.Contains(string(evs[0].AppendJSON(nil)), "nina@example.com") {
		t.Errorf("alice's queue after the account was created: %v %+v", err, evs)
	}
	if _, err := a.srv.Service().FetchAPIKey("nina@example.com", acct.Password); err != nil {
		t.Errorf("the generated password does not sign in: %v", err)
	}
	if _, err := a.CreateAccount("Nina Again", "nina@example.com", "member"); err == nil || err.Error() != "Email 'nina@example.com' already in use" {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := a.CreateAccount("X", "x@example.com", "emperor"); err == nil {
		t.Error("unknown role accepted")
	}
}

func TestBackupWritesTheArchiveWithProgress(t *testing.T) {
	a := openApp(t)
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	var events []map[string]int64
	a.saveDialog = func(string) (string, error) { return out, nil }
	a.emit = func(name string, data any) {
		if name == "backup:progress" {
			events = append(events, data.(map[string]int64))
		}
	}
	path, err := a.Backup()
	if err != nil || path != out {
		t.Fatalf("Backup: %q %v", path, err)
	}
	if info, err := os.Stat(out); err != nil || info.Size() == 0 {
		t.Fatalf("archive: %v", err)
	}
	if len(events) == 0 || events[len(events)-1]["done"] != events[len(events)-1]["total"] || events[0]["total"] == 0 {
		t.Errorf("progress: %v", events)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".lanchat-backup-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	a.saveDialog = func(string) (string, error) { return "", nil }
	if path, err := a.Backup(); path != "" || err != nil {
		t.Errorf("cancelled: %q %v", path, err)
	}
}

// The host panel's list of recent errors is what the server logged: a
// webhook refused, with why, and not the requests that went well.
func TestRecentErrors(t *testing.T) {
	a := openApp(t)
	if got := a.RecentErrors(); len(got) != 0 {
		t.Fatalf("a fresh host has errors: %+v", got)
	}
	login, err := a.srv.Service().DevFetchAPIKey("webhook-bot@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{`{"ok": true}`, `{"ok": `} {
		req := httptest.NewRequest("POST", "/api/v1/external/json?stream=general&api_key="+login.APIKey, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		a.srv.Handler().ServeHTTP(httptest.NewRecorder(), req)
	}
	got := a.RecentErrors()
	if len(got) != 1 || got[0].Level != "WARN" || got[0].Message != "request" ||
		!strings.Contains(got[0].Attrs, `route=/api/v1/external/{integration} status=400`) || !strings.Contains(got[0].Attrs, `error="Malformed JSON"`) {
		t.Errorf("recent errors %+v", got)
	}
	if strings.Contains(got[0].Attrs, login.APIKey) {
		t.Errorf("the key is in %q", got[0].Attrs)
	}
}

// A host listening on loopback only offers its own address to join, and
// lists none as reaching it from the network.
func TestHostInfoOnLoopback(t *testing.T) {
	a := openApp(t)
	a.bound = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9991}
	info := a.HostInfo()
	if len(info.Addresses) != 0 || info.JoinURL != "http://127.0.0.1:9991" || info.Listen != "127.0.0.1:9991" {
		t.Errorf("host info %+v", info)
	}
}

// The host panel acts on the host's authority, an owner's: it issues an
// administrator's password, which one administrator may not do for
// another (domain.IssuePassword).
func TestIssuePasswordOnTheHostsAuthority(t *testing.T) {
	a := openApp(t)
	svc := a.srv.Service()
	second, err := a.CreateAccount("Ari Admin", "ari@example.com", "admin")
	if err != nil {
		t.Fatal(err)
	}
	login, err := svc.FetchAPIKey("admin@example.com", "lanchat-dev")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := svc.Authenticate("admin@example.com", login.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	ari, err := svc.FetchAPIKey("ari@example.com", second.Password)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.IssuePassword(admin, ari.UserID); !errors.Is(err, domain.ErrNotOwner) {
		t.Errorf("an administrator issued another's password: %v", err)
	}
	acct, err := a.IssuePassword("ari@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.FetchAPIKey("ari@example.com", acct.Password); err != nil {
		t.Errorf("the host's issued password does not sign in: %v", err)
	}
}

// Quitting the app logs the host's shutdown, as lanchatd does on a
// signal: that it is stopping, why, and how long stopping took.
func TestQuittingLogsTheShutdown(t *testing.T) {
	log := &strings.Builder{}
	srv, err := server.Open(server.Config{DataDir: t.TempDir(), Dev: true, Log: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(Options{}, io.Discard)
	a.srv = srv
	if err := a.shutdown(); err != nil {
		t.Fatal(err)
	}
	if text := log.String(); !strings.Contains(text, `msg=stopping reason="the app is quitting"`) || !strings.Contains(text, "msg=stopped took=") {
		t.Errorf("the log of the app quitting:\n%s", text)
	}
}
