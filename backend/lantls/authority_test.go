package lantls

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"lanchat/backend/safefile"
)

// The authority vouches only for the LAN: its name constraints are
// critical, the server certificates it issues pass verification, and one
// it signed for a public name or address fails it, as a stolen
// authority.pem would for any site of the web.
func TestAuthorityIsValidOnlyOnTheLAN(t *testing.T) {
	ca, err := LoadOrCreateAuthority(t.TempDir(), "Olive")
	if err != nil {
		t.Fatal(err)
	}
	nameConstraints := asn1.ObjectIdentifier{2, 5, 29, 30}
	critical := false
	for _, e := range ca.cert.Extensions {
		if e.Id.Equal(nameConstraints) {
			critical = e.Critical
		}
	}
	if !critical {
		t.Fatal("the authority has no critical name constraints")
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	verify := func(leaf *x509.Certificate, name string) error {
		_, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: name})
		return err
	}

	// The issuer's own certificate, for every address and name it has,
	// public ones left out.
	addrs := []net.IP{net.ParseIP("192.168.1.20"), net.ParseIP("10.0.0.7"), net.ParseIP("172.20.0.3"), net.ParseIP("127.0.0.1"),
		net.ParseIP("169.254.10.1"), net.ParseIP("fd12::5"), net.ParseIP("fe80::1"), net.ParseIP("::1"),
		net.ParseIP("203.0.113.9"), net.ParseIP("2001:db8::7")}
	leaf := issued(t, NewIssuer(ca, func() []net.IP { return addrs }, HostNames("Olive")), "192.168.1.20")
	for _, name := range []string{"192.168.1.20", "10.0.0.7", "172.20.0.3", "127.0.0.1", "169.254.10.1", "fd12::5", "fe80::1", "::1",
		"olive", "olive.local", "localhost"} {
		if err := verify(leaf, name); err != nil {
			t.Errorf("our certificate for %s: %v", name, err)
		}
	}
	for _, public := range []string{"203.0.113.9", "2001:db8::7"} {
		if leaf.VerifyHostname(public) == nil {
			t.Errorf("our certificate names the public address %s", public)
		}
	}

	// Anything else it signs fails, whatever it names.
	for _, c := range []struct {
		names []string
		ips   []net.IP
	}{
		{names: []string{"example.com"}},
		{names: []string{"bank.example"}},
		{names: []string{"olive.local.example.com"}},
		{ips: []net.IP{net.ParseIP("8.8.8.8")}},
		{ips: []net.IP{net.ParseIP("2606:4700::1111")}},
		{names: []string{"olive.local"}, ips: []net.IP{net.ParseIP("8.8.8.8")}},
	} {
		leaf := signed(t, ca, c.names, c.ips)
		name := ""
		if len(c.names) > 0 {
			name = c.names[0]
		} else {
			name = c.ips[0].String()
		}
		var invalid x509.CertificateInvalidError
		if err := verify(leaf, name); !errors.As(err, &invalid) || invalid.Reason != x509.CANotAuthorizedForThisName {
			t.Errorf("a certificate for %v %v: %v, want the authority refused for the name", c.names, c.ips, err)
		}
	}
}

// An authority made before the constraints is replaced once, visibly:
// the new one has another fingerprint and names the old one's, and the
// next load keeps it.
func TestUnconstrainedAuthorityIsReplaced(t *testing.T) {
	dir := t.TempDir()
	der := copyUnconstrained(t, dir)
	ca, err := LoadOrCreateAuthority(dir, "olive")
	if err != nil {
		t.Fatal(err)
	}
	if ca.Replaced != Fingerprint(der) || Fingerprint(ca.CertificateDER()) == Fingerprint(der) || !ca.constrained() {
		t.Fatalf("replaced %q (the old one is %q), new %q, constrained %v", ca.Replaced, Fingerprint(der), Fingerprint(ca.CertificateDER()), ca.constrained())
	}
	if info, err := os.Stat(filepath.Join(dir, AuthorityFile)); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the new authority's file: %v %v", info, err)
	}
	again, err := LoadOrCreateAuthority(dir, "olive")
	if err != nil || again.Replaced != "" || Fingerprint(again.CertificateDER()) != Fingerprint(ca.CertificateDER()) {
		t.Errorf("the next load: %v, replaced %q", err, again.Replaced)
	}
}

// copyUnconstrained puts an authority as earlier versions made them,
// valid for any site (testdata; backend/server's tests use it too), in dir as the host's authority and returns
// its certificate.
func copyUnconstrained(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/unconstrained-authority.pem")
	if err != nil {
		t.Fatal(err)
	}
	if err := safefile.Create(filepath.Join(dir, AuthorityFile), data); err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	return block.Bytes
}

func TestFingerprint(t *testing.T) {
	f := Fingerprint([]byte("certificate"))
	if !regexp.MustCompile(`^[0-9A-F]{4}( [0-9A-F]{4}){3}$`).MatchString(f) || f == Fingerprint([]byte("certificatf")) {
		t.Errorf("Fingerprint = %q", f)
	}
}

func TestPermittedNames(t *testing.T) {
	for host, want := range map[string]int{"olive": 3, "olive.example.org": 3, "": 2, "olive_pc": 2, "localhost": 2} {
		if got := permittedNames(host); len(got) != want {
			t.Errorf("permittedNames(%q) = %q", host, got)
		}
	}
}

func issued(t *testing.T, i *Issuer, local string) *x509.Certificate {
	t.Helper()
	c, err := i.GetCertificate(&tls.ClientHelloInfo{Conn: localConn{ip: net.ParseIP(local)}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Leaf
}

// signed is a server certificate the authority signs for whatever it is
// asked, as whoever holds its key could.
func signed(t *testing.T, ca *Authority, names []string, ips []net.IP) *x509.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: serial(), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, DNSNames: names, IPAddresses: ips}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, key.Public(), ca.key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return leaf
}
