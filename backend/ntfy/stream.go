package ntfy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// writeWait bounds one write to a subscriber: a phone that takes nothing
// for this long has lost its network.
const writeWait = 10 * time.Second

// streamHead answers a subscription on a connection taken over from the
// HTTP server: the body runs until the connection closes, so an idle
// subscription costs a socket and a timer, not a goroutine and buffers.
const streamHead = "HTTP/1.1 200 OK\r\nContent-Type: %s; charset=utf-8\r\nAccess-Control-Allow-Origin: *\r\n" +
	"Cache-Control: no-store\r\nConnection: close\r\n\r\n"

// httpSink is the JSON stream or server-sent events on a taken-over
// connection.
type httpSink struct {
	conn   net.Conn
	encode func(message) []byte
}

var errGone = errors.New("subscriber gone")

func (s httpSink) write(m message) error {
	if m.Event == eventKeepalive && !s.open() {
		return errGone
	}
	s.conn.SetWriteDeadline(time.Now().Add(writeWait))
	_, err := s.conn.Write(s.encode(m))
	return err
}

// open tells whether the client still holds the connection, without
// waiting: a read that times out at once finds it open; one that ends
// finds it closed. (Clients send nothing after their request.)
func (s httpSink) open() bool {
	s.conn.SetReadDeadline(time.Now())
	var b [1]byte
	_, err := s.conn.Read(b[:])
	return err == nil || errors.Is(err, os.ErrDeadlineExceeded)
}

func (s httpSink) close() { s.conn.Close() }

// takeOver answers r with the stream's head and returns its connection.
func takeOver(w http.ResponseWriter, contentType string) (net.Conn, error) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return nil, errors.New("the connection cannot be taken over")
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return nil, err
	}
	// The server's read and write deadlines stay on a connection taken over.
	conn.SetDeadline(time.Time{})
	conn.SetWriteDeadline(time.Now().Add(writeWait))
	if _, err := conn.Write([]byte(fmt.Sprintf(streamHead, contentType))); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
