package app

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanchat/backend/discovery"
	"lanchat/backend/lantls"
	"lanchat/backend/safefile"
	"lanchat/backend/server"
)

// MembershipFile, in the data folder, remembers the team this app joined.
const MembershipFile = "member.json"

// membership is a joined team: its URL and, for HTTPS with the host's own
// authority, that authority (PEM), trusted from the moment of joining.
type membership struct {
	URL       string `json:"url"`
	Authority string `json:"authority,omitempty"`
}

func loadMembership(dir string) (*membership, error) {
	data, err := os.ReadFile(filepath.Join(dir, MembershipFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m membership
	if err := json.Unmarshal(data, &m); err != nil || m.URL == "" {
		return nil, fmt.Errorf("%s: not a team's address (%v): remove it to choose again", filepath.Join(dir, MembershipFile), err)
	}
	return &m, nil
}

// Teams lists the teams on the network (DNS-SD): one question, answered
// within 2 s.
func (a *App) Teams() ([]discovery.Team, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return discovery.Browse(ctx, 2*time.Second)
}

// TeamsSeen is the welcome page's list of the teams on the network (the
// "teams" event).
type TeamsSeen struct {
	Teams []discovery.Team `json:"teams"`
	// Error is why the network cannot be asked ("" when it can).
	Error string `json:"error"`
}

// WatchTeams keeps the welcome page's list of teams live: until the page
// is replaced (a team hosted or joined) or the app quits, it asks the
// network every 2 s and emits "teams" with the list after the first
// question's wait and at each change. A page that calls it again (it was
// reloaded) gets the current list at once.
func (a *App) WatchTeams() {
	a.watchMu.Lock()
	defer a.watchMu.Unlock()
	if a.stopWatch != nil {
		if a.seen != nil {
			a.emit("teams", *a.seen)
		}
		return
	}
	ctx, cancel := context.WithCancel(a.quitting)
	a.stopWatch = cancel
	go discovery.Watch(ctx, 2*time.Second, func(teams []discovery.Team, err error) {
		seen := TeamsSeen{Teams: teams}
		if err != nil {
			seen.Error = err.Error()
		}
		a.watchMu.Lock()
		defer a.watchMu.Unlock()
		if ctx.Err() == nil {
			a.seen = &seen
			a.emit("teams", seen)
		}
	})
}

func (a *App) stopWatchingTeams() {
	a.watchMu.Lock()
	defer a.watchMu.Unlock()
	if a.stopWatch != nil {
		a.stopWatch()
		a.stopWatch, a.seen = nil, nil
	}
}

// HostTeam makes this app the host of a new team (first-run setup follows
// in the window).
func (a *App) HostTeam() error { return a.startHost() }

// TeamCheck is what the join dialog shows before joining: where the app
// would connect, as it parsed the address, and the fingerprint of the
// authority the host presented, for the person to compare with the host's
// screen. Nothing is remembered yet.
type TeamCheck struct {
	URL string `json:"url"`
	// Address is the host and port joined: what the person compares.
	Address string `json:"address"`
	// Name is the organization's name, as its server gives it.
	Name string `json:"name"`
	// Authority is the fingerprint of the host's own certificate
	// authority (lantls.Fingerprint); "" over plain HTTP, or for a host
	// whose certificate the system's authorities vouch for.
	Authority string `json:"authority"`
}

// CheckTeam reaches the team at address (as typed, listed, or read from
// the join QR code) and says what joining it would trust, for the join
// dialog.
func (a *App) CheckTeam(address string) (TeamCheck, error) {
	m, name, err := reach(address)
	if err != nil {
		return TeamCheck{}, err
	}
	u, _ := url.Parse(m.URL)
	return TeamCheck{URL: m.URL, Address: u.Host, Name: name, Authority: m.fingerprint()}, nil
}

// JoinTeam joins the team at address, whose host must present the
// authority with the fingerprint the person checked (CheckTeam: "" for
// none), remembers it, and shows its chat in the window. From then on the
// app trusts that authority alone for the team (member.json keeps it): a
// host presenting another is refused (authorityChanged).
func (a *App) JoinTeam(address, authority string) error {
	m, _, err := reach(address)
	if err != nil {
		return err
	}
	if got := m.fingerprint(); got != authority {
		return fmt.Errorf("the host at %s now presents the authority %s, not the %s you checked: check again before joining", m.URL, orNone(got), orNone(authority))
	}
	data, _ := json.Marshal(m)
	if err := os.MkdirAll(a.dataDir, 0o700); err != nil {
		return err
	}
	if err := safefile.WriteData(filepath.Join(a.dataDir, MembershipFile), data); err != nil {
		return err
	}
	return a.join(m)
}

func orNone(fingerprint string) string { return cmp.Or(fingerprint, "none") }

// reach checks that address is a Lanchat server and returns it as a
// membership, with the organization's name. An https address of a host
// with its own authority is trusted through that authority, fetched from
// the same host and port over plain HTTP: anyone in between could swap
// it, which is why the person compares its fingerprint before joining.
func reach(address string) (*membership, string, error) {
	teamURL, err := discovery.TeamURL(address)
	if err != nil {
		return nil, "", err
	}
	m := &membership{URL: teamURL}
	if host, ok := strings.CutPrefix(teamURL, "https://"); ok {
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + host + server.AuthorityPath)
		if err == nil {
			der, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			if _, perr := x509.ParseCertificate(der); resp.StatusCode == 200 && perr == nil {
				m.Authority = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
			}
		}
	}
	c, err := m.client()
	if err != nil {
		return nil, "", err
	}
	resp, err := c.Get(m.URL + "/api/v1/server_settings")
	if err != nil {
		return nil, "", fmt.Errorf("cannot reach %s: %w", m.URL, err)
	}
	defer resp.Body.Close()
	var settings struct {
		Result    string `json:"result"`
		RealmName string `json:"realm_name"`
	}
	if json.NewDecoder(resp.Body).Decode(&settings) != nil || settings.Result != "success" {
		return nil, "", fmt.Errorf("%s is not a Lanchat or Zulip server", m.URL)
	}
	return m, settings.RealmName, nil
}

// fingerprint is the fingerprint of the team's pinned authority, "" for
// none.
func (m *membership) fingerprint() string {
	if block, _ := pem.Decode([]byte(m.Authority)); block != nil {
		return lantls.Fingerprint(block.Bytes)
	}
	return ""
}

// presentedAuthority tells whether err is the joined host's certificate
// failing for want of the pinned authority, and the fingerprint of the
// authority it presented instead ("unknown" when its chain has none).
func presentedAuthority(err error) (string, bool) {
	var cve *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &cve) || !errors.As(err, &unknown) {
		return "", false
	}
	if chain := cve.UnverifiedCertificates; len(chain) > 0 && chain[len(chain)-1].IsCA {
		return lantls.Fingerprint(chain[len(chain)-1].Raw), true
	}
	return "unknown", true
}

// transport talks to the joined team's server: over HTTPS it trusts the
// host's own authority alone when the team has one (pinned: no other
// authority, the system's included, vouches for the team), else the
// system's authorities.
func (m *membership) transport() (*http.Transport, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 0
	// A host that moved (DHCP) left an address nobody may answer at: the
	// window says so after a few seconds rather than the 30 of the default.
	t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	if m.Authority != "" {
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM([]byte(m.Authority)) {
			return nil, errors.New("the team's certificate authority is unreadable")
		}
		t.TLSClientConfig = &tls.Config{RootCAs: roots}
	}
	return t, nil
}

// dialTimeout bounds connecting to the joined team's host: on a LAN a host
// that is there answers in milliseconds.
const dialTimeout = 5 * time.Second

func (m *membership) client() (*http.Client, error) {
	t, err := m.transport()
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t, Timeout: 10 * time.Second}, nil
}

// join shows the joined team's UI in the window: the window's requests
// (origin wails://wails, so the bound methods and notifications stay) go
// on to that server. This app hosts nothing and opens no port. While the
// host cannot be reached, the window's page says so (unreachable).
func (a *App) join(m *membership) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.joinLocked(m)
}

func (a *App) joinLocked(m *membership) error {
	if a.srv != nil {
		return errors.New("this app hosts a team: it cannot join another")
	}
	target, err := url.Parse(m.URL)
	if err != nil {
		return err
	}
	t, err := m.transport()
	if err != nil {
		return err
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = target.Host
		},
		Transport:     t,
		FlushInterval: -1, // long-polls and event streams pass at once
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if presented, ok := presentedAuthority(err); ok {
				authorityChanged(m.URL, m.fingerprint(), presented).ServeHTTP(w, r)
				return
			}
			unreachable(m.URL, err).ServeHTTP(w, r)
		},
	}
	a.joined, a.member, a.unreadable = m.URL, m, nil
	a.show(proxy)
	return nil
}

// membershipUnreadable shows, instead of a team, what is wrong with the
// membership file (err, from loadMembership), with Retry and Choose
// another team.
func (a *App) membershipUnreadable(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.unreadable = err
	a.show(unreadableMembership(err))
}

// Reconnect is the window's Retry when the saved team cannot be shown: it
// asks the joined team's host again, or reads an unreadable membership
// file again (and then shows its team, or the first launch's choice once
// the file is gone). The error says what still fails.
func (a *App) Reconnect() error {
	a.mu.Lock()
	m, unreadable := a.member, a.unreadable
	a.mu.Unlock()
	if m != nil {
		c, err := m.client()
		if err != nil {
			return err
		}
		resp, err := c.Get(m.URL + "/api/v1/server_settings")
		if presented, ok := presentedAuthority(err); ok {
			return fmt.Errorf("the host at %s still presents the authority %s, not the %s this app joined", m.URL, presented, m.fingerprint())
		}
		if err != nil {
			return fmt.Errorf("still no answer at %s: %s", m.URL, plainNetError(err))
		}
		resp.Body.Close()
		return nil
	}
	if unreadable == nil {
		return nil
	}
	m, err := loadMembership(a.dataDir)
	if err != nil {
		a.membershipUnreadable(err)
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if m == nil {
		a.unreadable = nil
		a.show(welcome)
		return nil
	}
	return a.joinLocked(m)
}

// LeaveTeam forgets the joined team and shows the first launch's choice
// again; the page has signed out first, and the first launch's page
// clears what is left of the team's session in the window (welcome.html).
// It is also "Choose another team" when the membership file is unreadable:
// the file is then kept aside as member.json.unreadable, not deleted.
func (a *App) LeaveTeam() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	path := filepath.Join(a.dataDir, MembershipFile)
	switch {
	case a.joined != "":
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	case a.unreadable != nil:
		if err := os.Rename(path, path+".unreadable"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	default:
		return errors.New("this app has joined no team")
	}
	a.joined, a.member, a.unreadable = "", nil, nil
	a.show(welcome)
	return nil
}
