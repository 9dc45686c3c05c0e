package api

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// PollConns serves plain HTTP/1.1 long-polling connections past net/http:
// a connection whose request is a long-poll is taken over (hijacked) by
// the goroutine serving it, which then answers that poll and the
// connection's next ones itself. Each request still goes through the whole
// handler (authentication, rate limits, the route, its log line); only
// net/http's per-request machinery is left out: its background read, its
// response writer and buffers, the re-arming of keep-alive. That machinery
// alone cost twice the raw socket floor's CPU per delivery (docs/
// performance.md, "the owned path measured").
//
// One goroutine per owned connection waits, writes its answer (one write,
// under writeTimeout) and reads the next request; nothing else touches the
// connection. A request that is not a long-poll goes back to net/http
// with the bytes read of it (Listener). TLS, HTTP/2 and callers without a
// connection (the desktop window's in-process requests) keep net/http.
type PollConns struct {
	next         http.Handler
	writeTimeout time.Duration
	idle         time.Duration
	handback     handbackListener
	// ctx is the owned requests' context; it ends with Close.
	ctx     context.Context
	stop    context.CancelFunc
	closing atomic.Bool
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	serving sync.WaitGroup
}

// NewPollConns serves long-polls with next, writing each answer under
// writeTimeout (0: DefaultDeliveryWriteTimeout) and dropping a connection
// idle for idle between requests.
func NewPollConns(next http.Handler, writeTimeout, idle time.Duration) *PollConns {
	if writeTimeout == 0 {
		writeTimeout = DefaultDeliveryWriteTimeout
	}
	ctx, stop := context.WithCancel(context.Background())
	return &PollConns{next: next, writeTimeout: writeTimeout, idle: idle, conns: map[net.Conn]struct{}{}, ctx: ctx, stop: stop,
		handback: handbackListener{conns: make(chan net.Conn), done: make(chan struct{})}}
}

// Listener yields the connections handed back to net/http, for an
// http.Server serving next to serve too.
func (p *PollConns) Listener() net.Listener { return &p.handback }

// ServeHTTP takes r's connection over when r is a long-poll on a plain
// HTTP/1.1 connection, else passes r on. The owned connection is served
// by a goroutine of its own, started with a small stack, and net/http's
// goroutine returns, letting go of its buffers and its request: each
// waiting client held about twice the memory otherwise, which the
// collector paid for at 10,000 pollers.
func (p *PollConns) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.TLS != nil || !ownable(r) || p.closing.Load() {
		p.next.ServeHTTP(w, r)
		return
	}
	conn, buffered, err := http.NewResponseController(w).Hijack()
	if err != nil { // no connection of its own (in-process, a test's recorder)
		p.next.ServeHTTP(w, r)
		return
	}
	if !p.own(conn) {
		conn.Close()
		return
	}
	in := &recordingConn{Conn: conn}
	if n := buffered.Reader.Buffered(); n > 0 {
		b, _ := buffered.Reader.Peek(n)
		in.unread = append([]byte(nil), b...)
	}
	r = r.Clone(p.ctx) // r's own context ends as this returns
	go func() {
		defer p.release(conn)
		p.serve(in, r)
	}()
}

// ownable: r is a long-poll that may be answered on its connection by the
// loop, with no body to read and the connection kept alive after it.
func ownable(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/api/v1/events" && r.ProtoMajor == 1 && r.ProtoMinor == 1 &&
		!r.Close && r.Host != "" && r.ContentLength == 0 && len(r.TransferEncoding) == 0 &&
		r.Header.Get("Upgrade") == "" && r.Header.Get("Expect") == ""
}

// serve answers r, then each next long-poll on in's connection, until the
// client goes, a write fails or times out, the server stops, or a request
// is not a long-poll (handed back to net/http).
func (p *PollConns) serve(in *recordingConn, r *http.Request) {
	conn, addr := in.Conn, r.RemoteAddr
	br := bufio.NewReaderSize(in, 1024)
	out := &pollAnswer{header: http.Header{}}
	for {
		out.reset()
		p.next.ServeHTTP(out, r)
		if !out.send(conn, p.writeTimeout) {
			return
		}
		// The read deadline is set before closing is looked at, and Close
		// sets it to now after setting closing: either this loop sees
		// closing, or its read ends at once.
		conn.SetReadDeadline(time.Now().Add(p.idle))
		if p.closing.Load() {
			return
		}
		in.record(br)
		next, err := http.ReadRequest(br)
		in.recording = false
		var netErr net.Error
		switch {
		case err == nil && ownable(next):
			next.RemoteAddr = addr
			r = next.WithContext(p.ctx)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &netErr):
			return // the client went or idled out, or the server stops
		default:
			// Not a long-poll, or a request net/http should refuse: it
			// answers it from the same bytes.
			p.handBack(conn, in.recorded)
			return
		}
	}
}

// own counts conn as owned, unless the server is stopping.
func (p *PollConns) own(conn net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing.Load() {
		return false
	}
	p.conns[conn] = struct{}{}
	p.serving.Add(1)
	return true
}

// release forgets conn and closes it, unless it was handed back.
func (p *PollConns) release(conn net.Conn) {
	p.mu.Lock()
	_, mine := p.conns[conn]
	delete(p.conns, conn)
	p.mu.Unlock()
	if mine {
		conn.Close()
	}
	p.serving.Done()
}

// handBack gives conn to net/http (Listener), its reads starting with
// read: the request it is to answer, and anything after it.
func (p *PollConns) handBack(conn net.Conn, read []byte) {
	p.mu.Lock()
	delete(p.conns, conn)
	p.mu.Unlock()
	select {
	case p.handback.conns <- &replayConn{Conn: conn, unread: read}:
	case <-p.handback.done:
		conn.Close()
	}
}

// Close ends the owned connections: those waiting for a next request at
// once, those serving one once it is answered (a stopping server answers
// waiting polls: events.Registry.Stop). It waits for them until ctx ends.
func (p *PollConns) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closing.Store(true)
	p.stop()
	for conn := range p.conns {
		conn.SetReadDeadline(time.Now())
	}
	p.mu.Unlock()
	p.handback.Close()
	done := make(chan struct{})
	go func() { p.serving.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pollAnswer is an owned request's response writer: it keeps the answer
// and send writes it whole when the handler returns, one write under the
// loop's own deadline. So a handler's flush and deadlines have nothing to
// do here (they succeed: http.ResponseController's "not supported" error
// is built with fmt, per call).
type pollAnswer struct {
	header http.Header
	status int
	body   []byte
	out    []byte
}

func (a *pollAnswer) reset() {
	clear(a.header)
	a.status = 0
	if cap(a.body) > 64<<10 { // not kept for every later small answer
		a.body, a.out = nil, nil
	}
	a.body = a.body[:0]
}

func (a *pollAnswer) Header() http.Header { return a.header }

func (a *pollAnswer) WriteHeader(code int) {
	if a.status == 0 && code >= 200 {
		a.status = code
	}
}

func (a *pollAnswer) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	a.body = append(a.body, b...)
	return len(b), nil
}

func (a *pollAnswer) FlushError() error                { return nil }
func (a *pollAnswer) SetReadDeadline(time.Time) error  { return nil }
func (a *pollAnswer) SetWriteDeadline(time.Time) error { return nil }

// send writes the answer's head and body in one write, under a deadline
// of timeout; false: the connection is done.
func (a *pollAnswer) send(conn net.Conn, timeout time.Duration) bool {
	a.WriteHeader(http.StatusOK)
	h := a.header
	if _, ok := h["Date"]; !ok {
		h["Date"] = httpDate.now()
	}
	bodyless := a.status == http.StatusNoContent || a.status == http.StatusNotModified
	if !bodyless {
		if _, ok := h["Content-Type"]; !ok && len(a.body) > 0 {
			h["Content-Type"] = []string{http.DetectContentType(a.body)}
		}
		h["Content-Length"] = []string{strconv.Itoa(len(a.body))}
	}
	out := append(a.out[:0], "HTTP/1.1 "...)
	out = strconv.AppendInt(out, int64(a.status), 10)
	out = append(append(append(out, ' '), http.StatusText(a.status)...), "\r\n"...)
	w := appender{out}
	h.Write(&w)
	out = append(w.b, "\r\n"...)
	if !bodyless {
		out = append(out, a.body...)
	}
	a.out = out
	conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := conn.Write(out)
	return err == nil && h.Get("Connection") != "close"
}

// httpDate is the Date header's value, formatted once a second.
var httpDate dateCache

type dateCache struct{ last atomic.Pointer[formattedDate] }

type formattedDate struct {
	sec  int64
	date []string
}

func (c *dateCache) now() []string {
	now := time.Now()
	if d := c.last.Load(); d != nil && d.sec == now.Unix() {
		return d.date
	}
	d := &formattedDate{now.Unix(), []string{now.UTC().Format(http.TimeFormat)}}
	c.last.Store(d)
	return d.date
}

// appender is an io.Writer appending to b, for http.Header.Write.
type appender struct{ b []byte }

func (w *appender) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func (w *appender) WriteString(s string) (int, error) { w.b = append(w.b, s...); return len(s), nil }

// recordingConn is an owned connection as its request reader reads it: the
// bytes the last request was read from are kept, so that a request
// handed back is read by net/http as it came. unread is what net/http
// had read ahead when the connection was taken over.
type recordingConn struct {
	net.Conn
	unread    []byte
	recording bool
	recorded  []byte
}

// maxRecorded bounds a request head read by the loop, as net/http's
// DefaultMaxHeaderBytes does its own: past it, the request goes to
// net/http, which refuses it.
const maxRecorded = http.DefaultMaxHeaderBytes + 4096

var errHeadTooLarge = errors.New("request head too large")

// record starts recording a request read through br: what br holds
// already, then what it reads.
func (c *recordingConn) record(br *bufio.Reader) {
	held, _ := br.Peek(br.Buffered())
	c.recorded = append(c.recorded[:0], held...)
	c.recording = true
}

func (c *recordingConn) Read(p []byte) (int, error) {
	var n int
	var err error
	if len(c.unread) > 0 {
		n = copy(p, c.unread)
		c.unread = c.unread[n:]
	} else {
		n, err = c.Conn.Read(p)
	}
	if c.recording {
		if len(c.recorded)+n > maxRecorded {
			c.recorded = append(c.recorded, p[:n]...)
			return 0, errHeadTooLarge
		}
		c.recorded = append(c.recorded, p[:n]...)
	}
	return n, err
}

// replayConn is a connection handed back: its reads return unread first.
type replayConn struct {
	net.Conn
	unread []byte
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.unread) > 0 {
		n := copy(p, c.unread)
		c.unread = c.unread[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// handbackListener yields the connections handed back to net/http.
type handbackListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *handbackListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *handbackListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *handbackListener) Addr() net.Addr { return handbackAddr{} }

type handbackAddr struct{}

func (handbackAddr) Network() string { return "handback" }
func (handbackAddr) String() string  { return "handback" }
