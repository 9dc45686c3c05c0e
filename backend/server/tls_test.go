package server

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanchat/backend/lantls"
)

// serveTLS opens a development host with cfg's TLS on a free loopback port.
func serveTLS(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	cfg.Addr, cfg.Dev = "127.0.0.1:0", true
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	t.Cleanup(func() {
		if err := s.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, ln.Addr().String()
}

func realmName(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url + "/api/v1/server_settings")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var settings struct {
		RealmName string `json:"realm_name"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&settings); err != nil {
		t.Fatal(err)
	}
	return settings.RealmName
}

func trusting(roots *x509.CertPool) *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
}

// With --tls auto, a client that installed the authority offered over plain
// HTTP reaches the API over HTTPS on the same port; plain HTTP keeps
// working for bots; a client that trusts nothing is refused; and the
// authority is made once, owner-only, and reused by the next start.
func TestAutoTLSIsTrustedThroughTheOfferedAuthority(t *testing.T) {
	dir := t.TempDir()
	s, addr := serveTLS(t, Config{DataDir: dir, TLS: TLSAuto})
	a := s.Addresses(&net.TCPAddr{IP: net.IPv4zero, Port: 9991})
	if a.SecureURL != "https://127.0.0.1:9991" || a.AuthorityURL != "http://127.0.0.1:9991"+AuthorityPath || a.Fingerprint != s.AuthorityFingerprint() {
		t.Errorf("addresses %+v", a)
	}

	resp, err := http.Get("http://" + addr + AuthorityPath)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "application/x-x509-ca-cert" {
		t.Fatalf("authority: %d %s", resp.StatusCode, ct)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil || !ca.IsCA {
		t.Fatalf("the offered certificate is no authority: %v", err)
	}
	if lantls.Fingerprint(der) != a.Fingerprint {
		t.Errorf("the offered authority's fingerprint is %s, the host says %s", lantls.Fingerprint(der), a.Fingerprint)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)

	if got := realmName(t, trusting(roots), "https://"+addr); got != "Lanchat Dev" {
		t.Errorf("over HTTPS: realm %q", got)
	}
	// By name too: the certificate covers localhost.
	_, port, _ := net.SplitHostPort(addr)
	if got := realmName(t, trusting(roots), "https://localhost:"+port); got != "Lanchat Dev" {
		t.Errorf("over HTTPS by name: realm %q", got)
	}
	if got := realmName(t, http.DefaultClient, "http://"+addr); got != "Lanchat Dev" {
		t.Errorf("plain HTTP: realm %q", got)
	}
	if _, err := trusting(x509.NewCertPool()).Get("https://" + addr + "/api/v1/server_settings"); err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Errorf("a client that trusts nothing: %v", err)
	}

	path := filepath.Join(dir, "tls", lantls.AuthorityFile)
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("authority file: %v %v", info, err)
	}
	again, err := lantls.LoadOrCreateAuthority(filepath.Dir(path), "other")
	if err != nil || string(again.CertificateDER()) != string(der) {
		t.Errorf("a second start made another authority: %v", err)
	}
}

// A host with a given certificate and key serves HTTPS with them, and no
// authority to install.
func TestGivenCertificateServesHTTPS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	roots := writeSelfSigned(t, certFile, keyFile)
	_, addr := serveTLS(t, Config{TLS: TLSFiles, TLSCert: certFile, TLSKey: keyFile})
	if got := realmName(t, trusting(roots), "https://"+addr); got != "Lanchat Dev" {
		t.Errorf("over HTTPS: realm %q", got)
	}
	if got := realmName(t, http.DefaultClient, "http://"+addr); got != "Lanchat Dev" {
		t.Errorf("plain HTTP: realm %q", got)
	}
	resp, err := http.Get("http://" + addr + AuthorityPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct == "application/x-x509-ca-cert" {
		t.Errorf("a given certificate still offers an authority: %s", ct)
	}

	if _, err := Open(Config{DataDir: t.TempDir(), TLS: TLSFiles, TLSCert: keyFile, TLSKey: keyFile}); err == nil || !strings.Contains(err.Error(), "TLS certificate") {
		t.Errorf("a key given as the certificate: %v", err)
	}
}

// A client that connects and says nothing holds up nobody: the next one,
// plain or TLS, is answered meanwhile.
func TestSilentClientDoesNotBlockOthers(t *testing.T) {
	_, addr := serveTLS(t, Config{TLS: TLSAuto})
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /api/v1/server_settings HTTP/1.0\r\n\r\n")
	status, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.0 200") {
		t.Errorf("status line %q %v", status, err)
	}
}

// An authority file others can read is refused, with what to do.
func TestAuthorityReadableByOthersIsRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := lantls.LoadOrCreateAuthority(dir, "host"); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, lantls.AuthorityFile), 0o644)
	if _, err := lantls.LoadOrCreateAuthority(dir, "host"); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable authority: %v", err)
	}
}

// A host whose authority was valid for any site (made before authorities
// had name constraints) gets a new one at its next start, and says so
// where its owner looks, with both fingerprints; the old one is offered no
// more.
func TestUnconstrainedAuthorityIsReplacedVisibly(t *testing.T) {
	dir := t.TempDir()
	old, err := os.ReadFile("../lantls/testdata/unconstrained-authority.pem")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "tls"), 0o700)
	os.WriteFile(filepath.Join(dir, "tls", lantls.AuthorityFile), old, 0o600)
	block, _ := pem.Decode(old)
	oldFingerprint := lantls.Fingerprint(block.Bytes)

	s, addr := serveTLS(t, Config{DataDir: dir, TLS: TLSAuto})
	now := s.AuthorityFingerprint()
	if now == "" || now == oldFingerprint {
		t.Fatalf("the host's authority %q, the old one %q", now, oldFingerprint)
	}
	resp, err := http.Get("http://" + addr + AuthorityPath)
	if err != nil {
		t.Fatal(err)
	}
	offered, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if lantls.Fingerprint(offered) != now {
		t.Errorf("offered the authority %s, want %s", lantls.Fingerprint(offered), now)
	}
	var warned bool
	for _, e := range s.RecentErrors() {
		warned = warned || strings.Contains(e.Message, "valid for any site") && strings.Contains(e.Attrs, oldFingerprint) && strings.Contains(e.Attrs, now)
	}
	if !warned {
		t.Errorf("the host's recent errors do not tell of the replaced authority: %+v", s.RecentErrors())
	}
}

func writeSelfSigned(t *testing.T, certFile, keyFile string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "chat.team.lan"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return roots
}
