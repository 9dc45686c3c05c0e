package server

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"lanchat/backend/lantls"
)

// AuthorityPath is where a host with automatic TLS offers its authority's
// certificate for people to install: public, and reachable over plain
// HTTP, since nobody trusts HTTPS before installing it.
const AuthorityPath = "/lanchat-ca.crt"

// TLSMode is how the host serves HTTPS.
type TLSMode string

const (
	TLSOff   TLSMode = "off"   // plain HTTP only
	TLSAuto  TLSMode = "auto"  // the host's own authority (data folder's tls/)
	TLSFiles TLSMode = "files" // Config.TLSCert and Config.TLSKey
)

// openTLS prepares HTTPS for cfg: the TLS configuration and, in automatic
// mode, the authority's certificate to offer. An authority replaced on the
// way (one valid for any site, lantls.LoadOrCreateAuthority) is logged as
// a warning, which the host panel lists, with both fingerprints.
func openTLS(cfg Config, log *slog.Logger) (*tls.Config, []byte, error) {
	switch cfg.TLS {
	case "", TLSOff:
		return nil, nil, nil
	case TLSFiles:
		pair, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, nil, fmt.Errorf("TLS certificate: %w", err)
		}
		return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil, nil
	case TLSAuto:
		host, _ := os.Hostname()
		ca, err := lantls.LoadOrCreateAuthority(filepath.Join(cfg.DataDir, "tls"), host)
		if err != nil {
			return nil, nil, fmt.Errorf("TLS authority: %w", err)
		}
		if ca.Replaced != "" {
			log.Warn("the HTTPS certificate authority was valid for any site: replaced by one valid only on the LAN; devices install it again, and members' apps refuse this host until they join it again and check its fingerprint",
				"old", ca.Replaced, "new", lantls.Fingerprint(ca.CertificateDER()))
		}
		issuer := lantls.NewIssuer(ca, lantls.InterfaceIPs, lantls.HostNames(host))
		return &tls.Config{GetCertificate: issuer.GetCertificate, MinVersion: tls.VersionTLS12}, ca.CertificateDER(), nil
	}
	return nil, nil, fmt.Errorf("TLS mode %q: want off, auto or files", cfg.TLS)
}

// AuthorityFingerprint is the fingerprint of the host's own authority
// (lantls.Fingerprint), which its panel shows and its DNS-SD answers
// carry for members to compare; "" without automatic TLS.
func (s *Server) AuthorityFingerprint() string {
	if s.authority == nil {
		return ""
	}
	return lantls.Fingerprint(s.authority)
}

// offerAuthority serves the authority's certificate at AuthorityPath (DER,
// the type browsers and phones offer to install) in front of next.
func offerAuthority(der []byte, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != AuthorityPath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/x-x509-ca-cert")
		w.Header().Set("Content-Disposition", `attachment; filename="lanchat-ca.crt"`)
		w.Write(der)
	})
}

// splitByFirstByte serves HTTPS and plain HTTP on one port: a TLS
// connection opens with a handshake record (byte 0x16), an HTTP request
// with a method's letter. One port means one address to hand out, a typed
// http:// still works, and bots and API clients that cannot trust the
// authority keep plain HTTP at the URL they already have.
func splitByFirstByte(ln net.Listener) (tlsLn, plainLn net.Listener) {
	s := &splitter{ln: ln, done: make(chan struct{})}
	s.tls = &sideListener{s: s, conns: make(chan net.Conn)}
	s.plain = &sideListener{s: s, conns: make(chan net.Conn)}
	go s.run()
	return s.tls, s.plain
}

// firstByteTimeout bounds how long a connection may stay silent before it
// is sorted, like the HTTP server's header timeout.
const firstByteTimeout = 10 * time.Second

type splitter struct {
	ln         net.Listener
	tls, plain *sideListener
	done       chan struct{}
	once       sync.Once
	err        error // why accepting stopped
	errMu      sync.Mutex
}

func (s *splitter) run() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			s.close(err)
			return
		}
		// Sorted in its own goroutine: a client that sends nothing must
		// not hold up the others.
		go s.sort(c)
	}
}

func (s *splitter) sort(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(firstByteTimeout))
	r := bufio.NewReaderSize(c, 1)
	first, err := r.Peek(1)
	c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	side := s.plain
	if first[0] == 0x16 {
		side = s.tls
	}
	select {
	case side.conns <- &peekedConn{Conn: c, r: r}:
	case <-s.done:
		c.Close()
	}
}

func (s *splitter) close(err error) {
	s.once.Do(func() {
		s.errMu.Lock()
		s.err = err
		s.errMu.Unlock()
		close(s.done)
		s.ln.Close()
	})
}

// sideListener is one of the two listeners the HTTP server serves.
type sideListener struct {
	s     *splitter
	conns chan net.Conn
}

func (l *sideListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.s.done:
		l.s.errMu.Lock()
		defer l.s.errMu.Unlock()
		return nil, l.s.err
	}
}

func (l *sideListener) Close() error {
	l.s.close(net.ErrClosed)
	return nil
}

func (l *sideListener) Addr() net.Addr { return l.s.ln.Addr() }

// peekedConn gives back the byte the splitter looked at.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// serveBoth serves the TLS and plain sides until both stop, and returns
// the first error that is not the server closing.
func (s *Server) serveBoth(ln net.Listener) error {
	tlsLn, plainLn := splitByFirstByte(ln)
	errs := make(chan error, 2)
	go func() { errs <- s.http.Serve(tls.NewListener(tlsLn, s.tls)) }()
	go func() { errs <- s.http.Serve(plainLn) }()
	var first error
	for range 2 {
		if err := <-errs; first == nil && !errors.Is(err, http.ErrServerClosed) {
			first = err
			// One side failed: stop the other too.
			plainLn.Close()
		}
	}
	return first
}
