package api

// This is the only file that knows the WebSocket library: replacing
// gorilla/websocket means rewriting this file alone.

import (
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// wailsOrigin is the desktop window's page origin (WebKitGTK under Wails).
const wailsOrigin = "wails://wails"

// upgrader keeps little per connection, for a team's thousand idle
// sockets: reads reuse the HTTP server's buffer (acknowledgements are
// small), and a write borrows a buffer from a pool only while it writes
// (20 KB a connection otherwise).
var upgrader = websocket.Upgrader{
	// The 101 answer is written under the deadline every write to a
	// waiting client has (delivery).
	HandshakeTimeout: DefaultDeliveryWriteTimeout,
	WriteBufferSize:  16384,
	WriteBufferPool:  &sync.Pool{},
	CheckOrigin:      sameOriginOrWails,
}

// sameOriginOrWails accepts pages served by this server and the desktop
// window, and non-browser clients (which send no Origin).
func sameOriginOrWails(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || origin == wailsOrigin {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// socket is a WebSocket connection carrying JSON messages.
type socket struct {
	conn *websocket.Conn
}

// upgradeSocket turns the request into a WebSocket; on failure the library
// has already answered the client.
func upgradeSocket(w http.ResponseWriter, r *http.Request) (*socket, error) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return &socket{conn: conn}, nil
}

// writeJSON sends one message, giving up after timeout.
func (s *socket) writeJSON(v any, timeout time.Duration) error {
	s.conn.SetWriteDeadline(time.Now().Add(timeout))
	return s.conn.WriteJSON(v)
}

// writeText sends one message already encoded as JSON, giving up after
// timeout.
func (s *socket) writeText(data []byte, timeout time.Duration) error {
	s.conn.SetWriteDeadline(time.Now().Add(timeout))
	return s.conn.WriteMessage(websocket.TextMessage, data)
}

// readJSON waits for the next message from the client.
func (s *socket) readJSON(v any) error { return s.conn.ReadJSON(v) }

// ping sends a keep-alive the client answers with a pong.
func (s *socket) ping(timeout time.Duration) error {
	return s.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(timeout))
}

// keepAlive makes reads fail when no pong (or message) arrives within
// idle, so a dead peer is noticed.
func (s *socket) keepAlive(idle time.Duration) {
	s.conn.SetReadDeadline(time.Now().Add(idle))
	s.conn.SetPongHandler(func(string) error {
		return s.conn.SetReadDeadline(time.Now().Add(idle))
	})
}

// close ends the connection.
func (s *socket) close() error { return s.conn.Close() }
