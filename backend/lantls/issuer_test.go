package lantls

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"testing"
)

type localConn struct {
	net.Conn
	ip net.IP
}

func (c localConn) LocalAddr() net.Addr { return &net.TCPAddr{IP: c.ip, Port: 9991} }

// The server certificate follows the host's addresses: reached at an
// address the current one does not cover (the network changed), the host
// makes a new one for its addresses of now, still signed by the same
// authority; reached at a covered one, it keeps the certificate.
func TestIssuerFollowsAddressChanges(t *testing.T) {
	ca, err := LoadOrCreateAuthority(t.TempDir(), "olive")
	if err != nil {
		t.Fatal(err)
	}
	now := []net.IP{net.ParseIP("192.168.1.20")}
	i := NewIssuer(ca, func() []net.IP { return now }, HostNames("olive"))
	hello := func(ip string) *x509.Certificate {
		t.Helper()
		c, err := i.GetCertificate(&tls.ClientHelloInfo{Conn: localConn{ip: net.ParseIP(ip)}})
		if err != nil {
			t.Fatal(err)
		}
		return c.Leaf
	}
	first := hello("192.168.1.20")
	if hello("192.168.1.20") != first {
		t.Error("a covered address made a new certificate")
	}
	now = []net.IP{net.ParseIP("10.0.0.7"), net.ParseIP("127.0.0.1")}
	second := hello("10.0.0.7")
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	for _, name := range []string{"10.0.0.7", "127.0.0.1", "olive", "olive.local", "localhost"} {
		if _, err := second.Verify(x509.VerifyOptions{Roots: roots, DNSName: name}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if second.VerifyHostname("192.168.1.20") == nil {
		t.Error("the new certificate still names the address the host left")
	}
}
