package bench

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// SocketDelivery is Delivery for clients following their queue over the
// WebSocket (/api/v1/events/socket), as the web UI does: each acknowledges
// what it received before the next round, and the time runs from the start
// of each send request to the first byte of each client's frame.
func SocketDelivery(srv *Server, clients, sends int) (delivery, send Latencies, err error) {
	rig, err := newDemoRig(srv, clients)
	if err != nil {
		return Latencies{}, Latencies{}, err
	}
	return rig.socket(srv, sends)
}

// socket runs sends rounds of delivery to the rig's queues, each followed
// over a WebSocket of its own.
func (rig *deliveryRig) socket(srv *Server, sends int) (delivery, send Latencies, err error) {
	conns := make([]*socketConn, len(rig.queues))
	defer closeAll(conns)
	for i := range conns {
		c := rig.clientOf(i)
		if conns[i], err = dialSocket(srv.URL, c.email, c.key, rig.queues[i], rig.last[i]); err != nil {
			return Latencies{}, Latencies{}, err
		}
	}
	ack := func(i int) error { return conns[i].ack(rig.last[i]) }
	return rigRounds(rig, conns, sends, ack, srv)
}

// socketConn is one WebSocket client on a raw connection, for the reason
// pollConn is one: a library's per-frame work would run on the server's
// cores inside the measured window. It notes when a frame's first byte
// arrives and reads the frame only when told to. Server frames are never
// masked; client frames must be, and a zero mask leaves them as written.
type socketConn struct {
	conn  net.Conn
	r     *bufio.Reader
	acked int64
}

// dialSocket opens the event socket for queueID as email with key,
// resuming after last.
func dialSocket(base, email, key, queueID string, last int64) (*socketConn, error) {
	p, err := dialPoll(base, email, key)
	if err != nil {
		return nil, err
	}
	err = p.sendWith("/api/v1/events/socket?"+url.Values{"queue_id": {queueID}, "last_event_id": {strconv.FormatInt(last, 10)}}.Encode(),
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"+
			"Sec-WebSocket-Key: "+base64.StdEncoding.EncodeToString([]byte("lanchat-bench-16"))+"\r\n")
	if err == nil {
		var resp *http.Response
		if resp, err = http.ReadResponse(p.r, nil); err == nil && resp.StatusCode != http.StatusSwitchingProtocols {
			err = fmt.Errorf("event socket answered %s", resp.Status)
		}
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return &socketConn{conn: p.conn, r: p.r, acked: last}, nil
}

// WebSocket opcodes (RFC 6455).
const (
	opContinuation = 0x0
	opText         = 0x1
	opClose        = 0x8
	opPing         = 0x9
	opPong         = 0xa
)

// firstByte blocks until a data frame starts arriving and reports when;
// pings on the way are answered.
func (s *socketConn) firstByte() (time.Time, error) {
	for {
		head, err := s.r.Peek(1)
		if err != nil {
			return time.Time{}, err
		}
		at := time.Now()
		if head[0]&0x8 == 0 { // not a control frame
			return at, nil
		}
		if _, err := s.answer(); err != nil {
			return time.Time{}, err
		}
	}
}

// answer reads the next text message, joining its fragments and answering
// pings on the way.
func (s *socketConn) answer() ([]byte, error) {
	var msg []byte
	for {
		var head [2]byte
		if _, err := io.ReadFull(s.r, head[:]); err != nil {
			return nil, err
		}
		fin, op, n := head[0]&0x80 != 0, head[0]&0xf, uint64(head[1]&0x7f)
		if head[1]&0x80 != 0 {
			return nil, errors.New("event socket sent a masked frame")
		}
		switch n {
		case 126:
			var ext [2]byte
			if _, err := io.ReadFull(s.r, ext[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(ext[:]))
		case 127:
			var ext [8]byte
			if _, err := io.ReadFull(s.r, ext[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(ext[:])
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(s.r, payload); err != nil {
			return nil, err
		}
		switch op {
		case opPing:
			if err := s.write(opPong, payload); err != nil {
				return nil, err
			}
		case opPong:
		case opClose:
			return nil, fmt.Errorf("event socket closed: %q", payload)
		case opText, opContinuation:
			msg = append(msg, payload...)
			if fin {
				return msg, nil
			}
		default:
			return nil, fmt.Errorf("event socket sent opcode %#x", op)
		}
	}
}

// ack acknowledges events up to last, as the web UI does after each frame.
func (s *socketConn) ack(last int64) error {
	if last <= s.acked {
		return nil
	}
	s.acked = last
	return s.write(opText, []byte(`{"last_event_id":`+strconv.FormatInt(last, 10)+`}`))
}

// write sends one short masked frame (payloads under 126 bytes).
func (s *socketConn) write(op byte, payload []byte) error {
	frame := append([]byte{0x80 | op, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
	_, err := s.conn.Write(frame)
	return err
}

func (s *socketConn) Close() error { return s.conn.Close() }
