package server

import (
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"
	"time"
)

// Devices that have not installed the authority fail their handshakes:
// the log sums them up in one warning with the count and the last one,
// rather than one warning each filling the host panel's recent errors.
func TestFailedHandshakesAreSummedUp(t *testing.T) {
	s, addr := serveTLS(t, Config{TLS: TLSAuto})
	const failures = 30
	for range failures {
		c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: x509.NewCertPool(), ServerName: "localhost"})
		if err == nil {
			c.Close()
			t.Fatal("a client that trusts nothing completed a handshake")
		}
	}
	// The server notes each failure once the client's alert arrives.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s.httpErrors.mu.Lock()
		n := s.httpErrors.count
		s.httpErrors.mu.Unlock()
		if n == failures {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d failed handshakes counted, want %d", n, failures)
		}
	}
	if got := handshakeWarnings(s); len(got) != 0 {
		t.Fatalf("failed handshakes logged one by one: %v", got)
	}
	s.httpErrors.flush()
	s.httpErrors.flush() // nothing new: nothing more to say
	got := handshakeWarnings(s)
	if len(got) != 1 || !strings.Contains(got[0], "count=30") || !strings.Contains(got[0], "last_addr=127.0.0.1:") ||
		!strings.Contains(got[0], "last_err=\"remote error: tls: bad certificate\"") {
		t.Errorf("the summary: %v", got)
	}
}

// handshakeWarnings are the host's recent errors about TLS handshakes.
func handshakeWarnings(s *Server) []string {
	var out []string
	for _, e := range s.RecentErrors() {
		if strings.Contains(e.Message, "TLS handshake") {
			out = append(out, e.Message+" "+e.Attrs)
		}
	}
	return out
}
