package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanchat/backend/discovery"
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

// Teams lists the teams on the network (DNS-SD), for "Join a team".
func (a *App) Teams() ([]discovery.Team, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return discovery.Browse(ctx, 2*time.Second)
}

// HostTeam makes this app the host of a new team (first-run setup follows
// in the window).
func (a *App) HostTeam() error { return a.startHost() }

// JoinTeam joins the team at address (as typed, listed, or read from the
// join QR code), remembers it, and shows its chat in the window.
func (a *App) JoinTeam(address string) error {
	m, err := reach(address)
	if err != nil {
		return err
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

// reach checks that address is a Lanchat server and returns it as a
// membership. An https address of a host with its own authority is
// trusted through that authority, fetched from the same host and port.
func reach(address string) (*membership, error) {
	address = strings.TrimSpace(address)
	if !strings.Contains(address, "://") {
		address = "http://" + address
	}
	u, err := url.Parse(address)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%q is not a team's address (like http://192.168.1.20:9991)", address)
	}
	m := &membership{URL: u.Scheme + "://" + u.Host}
	if u.Scheme == "https" {
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + u.Host + server.AuthorityPath)
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
		return nil, err
	}
	resp, err := c.Get(m.URL + "/api/v1/server_settings")
	if err != nil {
		return nil, fmt.Errorf("cannot reach %s: %w", m.URL, err)
	}
	defer resp.Body.Close()
	var settings struct {
		Result    string `json:"result"`
		RealmName string `json:"realm_name"`
	}
	if json.NewDecoder(resp.Body).Decode(&settings) != nil || settings.Result != "success" {
		return nil, fmt.Errorf("%s is not a Lanchat or Zulip server", m.URL)
	}
	return m, nil
}

// transport talks to the joined team's server: over HTTPS it trusts the
// system's authorities, plus the host's own when it has one.
func (m *membership) transport() (*http.Transport, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 0
	if m.Authority != "" {
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		if !roots.AppendCertsFromPEM([]byte(m.Authority)) {
			return nil, errors.New("the team's certificate authority is unreadable")
		}
		t.TLSClientConfig = &tls.Config{RootCAs: roots}
	}
	return t, nil
}

func (m *membership) client() (*http.Client, error) {
	t, err := m.transport()
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t, Timeout: 10 * time.Second}, nil
}

// join shows the joined team's UI in the window: the window's requests
// (origin wails://wails, so the bound methods and notifications stay) go
// on to that server. This app hosts nothing and opens no port.
func (a *App) join(m *membership) error {
	a.mu.Lock()
	defer a.mu.Unlock()
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
	}
	a.joined = m.URL
	a.show(proxy)
	return nil
}

// LeaveTeam forgets the joined team and shows the first launch's choice
// again.
func (a *App) LeaveTeam() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.joined == "" {
		return errors.New("this app has joined no team")
	}
	if err := os.Remove(filepath.Join(a.dataDir, MembershipFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	a.joined = ""
	a.show(welcome)
	return nil
}
