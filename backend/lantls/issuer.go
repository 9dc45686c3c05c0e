package lantls

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// Server certificates live a year at most (what browsers accept of any
// authority) and are made again a month before they end.
const (
	serverLifetime = 397 * 24 * time.Hour
	renewBefore    = 30 * 24 * time.Hour
)

// Issuer hands out, on each TLS handshake, a server certificate signed by
// the authority for the host's addresses and names. It keeps the
// certificate in memory only: it is made again when a client reaches the
// host at an address it does not cover (the network changed) and when it
// nears its end.
type Issuer struct {
	ca    *Authority
	addrs func() []net.IP
	names []string

	mu   sync.Mutex
	cert *tls.Certificate
}

// NewIssuer issues for the addresses addrs reports at the time and for
// names (host names, "localhost").
func NewIssuer(ca *Authority, addrs func() []net.IP, names []string) *Issuer {
	return &Issuer{ca: ca, addrs: addrs, names: names}
}

// HostNames are the names this machine answers to on a LAN: its host
// name, its mDNS name, and localhost.
func HostNames(hostName string) []string {
	names := []string{"localhost"}
	if hostName != "" && hostName != "localhost" {
		names = append(names, hostName)
		if !strings.Contains(hostName, ".") {
			names = append(names, hostName+".local")
		}
	}
	return names
}

// InterfaceIPs are the addresses of this machine's interfaces.
func InterfaceIPs() []net.IP {
	addrs, _ := net.InterfaceAddrs()
	var ips []net.IP
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ips = append(ips, n.IP)
		}
	}
	return ips
}

// GetCertificate is tls.Config's GetCertificate.
func (i *Issuer) GetCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	var local net.IP
	if hello.Conn != nil {
		if a, ok := hello.Conn.LocalAddr().(*net.TCPAddr); ok {
			local = a.IP
		}
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	// An address the authority may not vouch for is never covered: the
	// certificate stays as it is, rather than being made again for each
	// client that arrives there.
	if i.cert != nil && (local == nil || !i.ca.permitsIP(local) || covers(i.cert.Leaf.IPAddresses, local)) &&
		time.Until(i.cert.Leaf.NotAfter) > renewBefore {
		return i.cert, nil
	}
	ips := i.addrs()
	if local != nil && !covers(ips, local) {
		ips = append(ips, local)
	}
	cert, err := i.issue(ips)
	if err != nil {
		return nil, err
	}
	i.cert = cert
	return cert, nil
}

func covers(ips []net.IP, ip net.IP) bool {
	return slices.ContainsFunc(ips, ip.Equal)
}

// issue signs a certificate for ips and the issuer's names, leaving out
// those the authority's constraints do not permit (a public address, a
// host name given after the authority was made): a certificate naming one
// would fail verification for all of them.
func (i *Issuer) issue(addrs []net.IP) (*tls.Certificate, error) {
	var ips []net.IP
	for _, ip := range addrs {
		if i.ca.permitsIP(ip) {
			ips = append(ips, ip)
		}
	}
	var names []string
	for _, n := range i.names {
		if i.ca.permitsName(n) {
			names = append(names, n)
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	notAfter := now.Add(serverLifetime)
	if i.ca.cert.NotAfter.Before(notAfter) {
		notAfter = i.ca.cert.NotAfter
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{Organization: []string{"Lanchat"}, CommonName: names[len(names)-1]},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     names,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, i.ca.cert, key.Public(), i.ca.key)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der, i.ca.cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}
