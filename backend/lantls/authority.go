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
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
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
}

// LoadOrCreateAuthority reads dir/authority.pem, or makes the authority
// when there is none. Certificate and key are one file, created
// exclusively and whole, so a crash or a second process never leaves a
// key without its certificate or replaces an authority people trust.
func LoadOrCreateAuthority(dir, hostName string) (*Authority, error) {
	path := filepath.Join(dir, AuthorityFile)
	a, err := loadAuthority(path)
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

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}
