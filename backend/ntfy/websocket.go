package ntfy

import (
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// pongWait is how long past a keepalive ping the client's pong may take,
// as ntfy allows.
const pongWait = 15 * time.Second

// Small buffers: a subscription sends a few hundred bytes now and then and
// reads only pongs.
var upgrader = websocket.Upgrader{ReadBufferSize: 256, WriteBufferSize: 1024, WriteBufferPool: &writeBuffers,
	CheckOrigin: func(*http.Request) bool { return true }}

// writeBuffers lend a write buffer only while a frame is written.
var writeBuffers sync.Pool

// wsSink sends events as WebSocket text frames of JSON, and keepalives as
// pings, as ntfy does.
type wsSink struct{ conn *websocket.Conn }

func (s wsSink) write(m message) error {
	deadline := time.Now().Add(writeWait)
	if m.Event == eventKeepalive {
		return s.conn.WriteControl(websocket.PingMessage, nil, deadline)
	}
	s.conn.SetWriteDeadline(deadline)
	return s.conn.WriteJSON(m)
}

func (s wsSink) close() { s.conn.Close() }

// upgrade takes r to a WebSocket; the subscription ends when the client's
// pongs stop or it closes.
func (h *Hub) upgrade(w http.ResponseWriter, r *http.Request, s *subscriber, since sinceMarker) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	s.sink = wsSink{conn}
	h.start(s, since)
	conn.SetReadLimit(512)
	wait := h.opts.Keepalive + pongWait
	conn.SetReadDeadline(time.Now().Add(wait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(wait)) })
	for {
		if _, _, err := conn.NextReader(); err != nil {
			s.close()
			return
		}
	}
}

func websocketRequested(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

// closeSocket ends a WebSocket with a normal closure.
func closeSocket(conn *websocket.Conn) {
	conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(writeWait))
}
