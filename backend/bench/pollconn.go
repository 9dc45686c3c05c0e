package bench

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// pollConn is one long-polling client on a TCP connection of its own. It
// sends a prepared GET and notes when the answer's first byte arrives; it
// parses the answer only when told to, after every poller of a round has
// its first byte. The pollers share this machine's two cores with the
// server: through Go's http.Client each answer cost the client about as
// much CPU as it cost the server (transport goroutines, header maps,
// parsing), all inside the window being measured. Clients on a real LAN do
// that work on their own machines.
type pollConn struct {
	conn net.Conn
	r    *bufio.Reader
	host string
	auth string // the Authorization header line, or empty
}

// dialPoll connects to base (http://host:port) as email with key (both
// empty for no credentials).
func dialPoll(base, email, key string) (*pollConn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	p := &pollConn{conn: conn, r: bufio.NewReaderSize(conn, 16<<10), host: u.Host}
	if email != "" {
		p.auth = "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(email+":"+key)) + "\r\n"
	}
	return p, nil
}

// send writes a GET request for path (with its query).
func (p *pollConn) send(path string) error { return p.sendWith(path, "") }

// sendWith is send with more header lines (each ending in CRLF).
func (p *pollConn) sendWith(path, headers string) error {
	_, err := io.WriteString(p.conn, "GET "+path+" HTTP/1.1\r\nHost: "+p.host+"\r\n"+p.auth+headers+"\r\n")
	return err
}

// firstByte blocks until the answer starts arriving and reports when.
func (p *pollConn) firstByte() (time.Time, error) {
	_, err := p.r.Peek(1)
	return time.Now(), err
}

// answer reads the whole answer, which must be a 200.
func (p *pollConn) answer() ([]byte, error) {
	resp, err := http.ReadResponse(p.r, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("long-poll answered %d: %s", resp.StatusCode, body)
	}
	return body, err
}

func (p *pollConn) Close() error { return p.conn.Close() }
