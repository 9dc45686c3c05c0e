// Package lantls gives a host HTTPS on its own network without a public
// certificate: a certificate authority made once and kept in the data
// folder, which people install once on their devices, and server
// certificates it signs for the host's current addresses and names.
package lantls

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanchat/backend/safefile"
)

// AuthorityFile holds the authority's certificate and private key, under
// the data folder's tls directory, readable by the owner only.
const AuthorityFile = "authority.pem"

const authorityLifetime = 10 * 365 * 24 * time.Hour

// Authority is the host's certificate authority.
type Authority struct {
	cert *x509.Certificate
	key  crypto.Signer
	// Replaced is the fingerprint of the authority this one replaced when
	// it was loaded ("" when none was): one made before authorities were
	// limited to the LAN's names and addresses.
	Replaced string
}

// privateRanges are the addresses an authority may vouch for: the private
// IPv4 ranges (RFC 1918), loopback, link-local, and IPv6's unique local,
// link-local and loopback addresses. Nothing a public site uses.
var privateRanges = []*net.IPNet{
	cidr("10.0.0.0/8"), cidr("172.16.0.0/12"), cidr("192.168.0.0/16"), cidr("127.0.0.0/8"), cidr("169.254.0.0/16"),
	cidr("fc00::/7"), cidr("fe80::/10"), cidr("::1/128"),
}

func cidr(s string) *net.IPNet {
	_, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	return n
}

// permittedNames are the DNS names an authority of hostName may vouch
// for: localhost, the host's own name and (with its subdomains) local, the
// domain of mDNS names.
func permittedNames(hostName string) []string {
	names := []string{"localhost", "local"}
	if hostName != "localhost" && hostName != "local" && dnsName(hostName) {
		names = append(names, hostName)
	}
	return names
}

// dnsName tells whether s is a DNS name verifiers can read as a
// constraint: labels of letters, digits and hyphens. A constraint they
// cannot read fails every certificate under it.
func dnsName(s string) bool {
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return len(s) <= 253
}

// LoadOrCreateAuthority reads dir/authority.pem, or makes the authority
// when there is none. Certificate and key are one file, created
// exclusively and whole, so a crash or a second process never leaves a
// key without its certificate or replaces an authority people trust.
//
// An authority without name constraints (made by an earlier version) is
// replaced by a new one once, and the new one's Replaced names it: every
// device that installed it would trust whoever holds its key for any
// site on the web. People install the new one, and members' apps, which
// pinned the old one, refuse the host until they check its fingerprint.
func LoadOrCreateAuthority(dir, hostName string) (*Authority, error) {
	path := filepath.Join(dir, AuthorityFile)
	a, err := loadAuthority(path)
	if err == nil && !a.constrained() {
		return replaceAuthority(path, a, hostName)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return a, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	data, err := newAuthority(hostName)
	if err != nil {
		return nil, err
	}
	if err := safefile.Create(path, data); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	// The one another process created first, if it won.
	return loadAuthority(path)
}

// replaceAuthority writes a new authority over old, at path.
func replaceAuthority(path string, old *Authority, hostName string) (*Authority, error) {
	data, err := newAuthority(hostName)
	if err != nil {
		return nil, err
	}
	if err := safefile.WriteData(path, data); err != nil {
		return nil, fmt.Errorf("replace %s, which is valid for any site: %w", path, err)
	}
	a, err := loadAuthority(path)
	if err != nil {
		return nil, err
	}
	a.Replaced = Fingerprint(old.cert.Raw)
	return a, nil
}

// constrained tells whether the authority vouches only for the names and
// addresses of a LAN, as its name constraints (critical, so that a device
// that cannot check them refuses it) say.
func (a *Authority) constrained() bool {
	return a.cert.PermittedDNSDomainsCritical && len(a.cert.PermittedDNSDomains) > 0 && len(a.cert.PermittedIPRanges) > 0
}

// permitsName and permitsIP tell whether a server certificate may name
// name or ip under the authority's constraints (RFC 5280: a DNS
// constraint covers the name and every name under it).
func (a *Authority) permitsName(name string) bool {
	name = strings.ToLower(name)
	for _, c := range a.cert.PermittedDNSDomains {
		if name == c || strings.HasSuffix(name, "."+c) {
			return true
		}
	}
	return false
}

func (a *Authority) permitsIP(ip net.IP) bool {
	for _, r := range a.cert.PermittedIPRanges {
		if r.Contains(ip) {
			return true
		}
	}
	return false
}

func newAuthority(hostName string) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		// The date tells apart the authorities of a host made again.
		Subject:               pkix.Name{Organization: []string{"Lanchat"}, CommonName: "Lanchat on " + hostName + " " + now.UTC().Format("2006-01-02")},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(authorityLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
		// Valid only for this LAN's names and addresses: whoever takes
		// authority.pem cannot impersonate a site of the web to the
		// devices that installed it.
		PermittedDNSDomainsCritical: true,
		PermittedDNSDomains:         permittedNames(strings.ToLower(hostName)),
		PermittedIPRanges:           privateRanges,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})...), nil
}

func loadAuthority(path string) (*Authority, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by others (mode %o): anyone who reads it can impersonate this host to everyone who trusts it; make it 600 (chmod 600), or remove it to make a new authority", path, info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := &Authority{}
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		switch block.Type {
		case "CERTIFICATE":
			a.cert, err = x509.ParseCertificate(block.Bytes)
		case "PRIVATE KEY":
			var k any
			k, err = x509.ParsePKCS8PrivateKey(block.Bytes)
			a.key, _ = k.(crypto.Signer)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if a.cert == nil || a.key == nil || !a.cert.IsCA {
		return nil, fmt.Errorf("%s: want an authority's certificate and its private key", path)
	}
	return a, nil
}

// CertificateDER is the authority's certificate, the one thing people
// install: public, and the same for as long as the data folder keeps it.
func (a *Authority) CertificateDER() []byte { return a.cert.Raw }

// Fingerprint is what people compare by eye to know an authority: the
// first 16 hex digits of the SHA-256 of its certificate (der), in four
// groups, "3F2A 9C01 77B4 E0D5". 64 bits: making another authority with
// the same fingerprint takes about 2^64 tries.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	h := strings.ToUpper(hex.EncodeToString(sum[:8]))
	return h[0:4] + " " + h[4:8] + " " + h[8:12] + " " + h[12:16]
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}
