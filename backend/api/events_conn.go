package api

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http/httpguts"
)

// PollConns serves the connections of clients that long-poll GET
// /api/v1/events with a loop of its own instead of net/http's per-request
// machinery (a background read to notice a hang-up, stopped and restarted
// around every answer; writers flushed through three layers; the read that
// re-arms keep-alive), which costs about as much CPU as the raw socket
// work of a delivery itself.
//
// A connection is taken over (Hijack) when net/http has read its first
// poll, which the loop then serves as it serves the rest. Its goroutine sits
// in a Read, which both receives the next request and notices the client
// hanging up (ending the poll's wait, as a request's context does); each
// poll runs in a goroutine of its own, through the same handler as every
// request (authentication, rate limits, the request log, the organization),
// into a writer that sends exactly the bytes net/http would. Any other
// request, or anything unusual, goes back to the same http.Server through
// Listener, its bytes read so far first.
type PollConns struct {
	handler http.Handler
	// idle bounds waiting for the next request (and reading it) between
	// polls, as the server's IdleTimeout does.
	idle time.Duration
	back *backListener

	mu    sync.Mutex
	conns map[net.Conn]struct{}
	done  bool
	loops sync.WaitGroup
}

// NewPollConns serves polls with handler (the one the http.Server serves)
// and closes a connection idle for idle between requests.
func NewPollConns(handler http.Handler, idle time.Duration) *PollConns {
	return &PollConns{handler: handler, idle: idle, back: newBackListener(), conns: map[net.Conn]struct{}{}}
}

// Listener yields the connections handed back to net/http: the server that
// serves PollConns must serve it too.
func (p *PollConns) Listener() net.Listener { return p.back }

// Owned is how many connections the loop holds.
func (p *PollConns) Owned() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

// Shutdown closes the owned connections, which ends their polls' waits,
// and waits for their loops (or ctx).
func (p *PollConns) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	p.done = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	ended := make(chan struct{})
	go func() { p.loops.Wait(); close(ended) }()
	select {
	case <-ended:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ServeHTTP takes the connection of a poll that can be owned over before
// serving it, and serves anything else with the handler. Taken over at the
// first poll, not after its answer, a connection's polls are all answered by
// the loop, and the hijack is paid when a client connects rather than when
// a message is delivered. The loop runs on a goroutine of its own, so that
// net/http's returns and lets go of what it kept for the connection (its
// reader's and writer's buffers, the hijack's writer, its stack).
func (p *PollConns) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !ownable(r) {
		p.handler.ServeHTTP(w, r)
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		p.handler.ServeHTTP(w, r)
		return
	}
	// The request's context ends when this returns; its values stay.
	pc := &pollConn{p: p, conn: conn, ctx: context.WithoutCancel(r.Context()), remote: r.RemoteAddr}
	if n := brw.Reader.Buffered(); n > 0 {
		pending, _ := brw.Reader.Peek(n)
		pc.buf = append(pc.buf, pending...)
	}
	if !p.own(conn) {
		conn.Close()
		return
	}
	go func() {
		defer p.disown(conn)
		pc.serve(r)
	}()
}

func (p *PollConns) own(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return false
	}
	p.conns[c] = struct{}{}
	p.loops.Add(1)
	return true
}

func (p *PollConns) disown(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	p.loops.Done()
}

// ownable: a plain HTTP/1.1 keep-alive GET of the events route, without a
// body or anything asking for more than a plain answer. HTTP/2 and TLS stay
// with net/http.
func ownable(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/api/v1/events" && r.ProtoMajor == 1 && r.ProtoMinor == 1 &&
		!r.Close && r.TLS == nil && r.ContentLength == 0 && len(r.TransferEncoding) == 0 &&
		r.Header.Get("Expect") == "" && r.Header.Get("Upgrade") == "" && validHost(r.Host)
}

// validHost accepts the host names and addresses net/http accepts without
// doubt; anything else goes to net/http, which answers 400 where it must.
func validHost(h string) bool { return alnumOr(h, ".-_:[]") }

func hasToken(header, token string) bool {
	for part := range strings.SplitSeq(header, ",") {
		if strings.EqualFold(strings.TrimSpace(part), token) {
			return true
		}
	}
	return false
}

// maxPollHead bounds the request head the loop gathers; a longer one goes
// back to net/http, which applies its own limit (431).
const maxPollHead = 64 << 10

// pollConn is one owned connection.
type pollConn struct {
	p      *PollConns
	conn   net.Conn
	ctx    context.Context // the first request's values; Shutdown ends the connection
	remote string
	buf    []byte // read and not yet consumed
	// inflight: a poll is with the worker; lastAnswer is when the last
	// answer went out (Unix nanoseconds).
	inflight   bool
	lastAnswer atomic.Int64
	// polls go to the connection's worker, which says when each is
	// answered.
	polls    chan *http.Request
	answered chan struct{}
	// w is the worker's response writer, and req the poll it serves,
	// both reused poll after poll: one poll is served at a time and
	// nothing keeps either past its answer. A new request, its copy with
	// the connection's context, and two header maps were half the bytes a
	// poll allocated, and so of the collector's work. base is the request
	// every poll starts from: the connection's context and its header
	// map, nothing else.
	w    pollAnswer
	req  http.Request
	base *http.Request
	// park is where a poll waits for its events without this
	// connection's worker (parkedPoll).
	park parkedPoll
}

// serve is the connection's loop, from its first poll (read by net/http);
// it ends with the connection closed or handed back. Polls are answered
// by one goroutine per connection (work): a goroutine started per poll
// would grow its stack through the handler's calls every time.
//
// The idle timeout is one read deadline, moved only when it expires (see
// expired): setting and clearing it around every poll would cost two timer
// updates per poll, one of them in the wake-up.
func (pc *pollConn) serve(first *http.Request) {
	ctx, hangUp := context.WithCancel(pc.ctx)
	defer hangUp()
	pc.park.pc = pc
	ctx = withParkedPoll(ctx, &pc.park)
	pc.base = (&http.Request{Header: make(http.Header, 8)}).WithContext(ctx)
	pc.polls, pc.answered = make(chan *http.Request), make(chan struct{}, 1)
	defer close(pc.polls)
	go pc.work()
	pc.lastAnswer.Store(time.Now().UnixNano())
	pc.conn.SetReadDeadline(time.Now().Add(pc.p.idle))
	pc.dispatch(first.WithContext(ctx))
	for {
		if len(pc.buf) > 0 {
			if pc.inflight {
				// Pipelined behind a poll: answered in order.
				<-pc.answered
				pc.inflight = false
			}
			r, n, ok := pc.next()
			switch {
			case !ok:
				pc.handBack()
				return
			case r != nil:
				// Kept at the front of its array, so a connection's
				// buffer is allocated once, not again every few polls.
				pc.buf = pc.buf[:copy(pc.buf, pc.buf[n:])]
				pc.dispatch(r)
				continue
			}
		}
		if len(pc.buf) == cap(pc.buf) {
			// A poll's head is a few hundred bytes; a longer one grows
			// the buffer, which every waiting client holds.
			pc.buf = slices.Grow(pc.buf, 1024)
		}
		n, err := pc.conn.Read(pc.buf[len(pc.buf):cap(pc.buf)])
		pc.buf = pc.buf[:len(pc.buf)+n]
		if err != nil && n == 0 && !(errors.Is(err, os.ErrDeadlineExceeded) && pc.expired()) {
			// Hung up, idle too long, or shut down: the wait ends (the
			// connection's requests share a context: there is no other
			// request to keep).
			hangUp()
			if pc.inflight {
				pc.park.HangUp()
				<-pc.answered
			}
			pc.conn.Close()
			return
		}
	}
}

// dispatch hands a poll to the worker. Its parking place is readied here,
// not by the worker: a hang-up the loop notices before the worker starts
// must still stop the poll from parking.
func (pc *pollConn) dispatch(r *http.Request) {
	pc.park.reset()
	pc.polls <- r
	pc.inflight = true
}

// expired moves the read deadline on when it expired early: a poll is in
// flight (it is bounded by its heartbeat), or the last answer went out less
// than the idle timeout ago. False: the connection has been idle too long
// (or has sent half a request for as long).
func (pc *pollConn) expired() bool {
	if pc.inflight {
		select {
		case <-pc.answered:
			pc.inflight = false
		default:
			pc.conn.SetReadDeadline(time.Now().Add(pc.p.idle))
			return true
		}
	}
	due := time.Unix(0, pc.lastAnswer.Load()).Add(pc.p.idle)
	if time.Until(due) <= 0 {
		return false
	}
	pc.conn.SetReadDeadline(due)
	return true
}

// work answers the connection's polls, one at a time; a parked one is
// answered by the worker its events come with (parkedPoll.finish).
func (pc *pollConn) work() {
	for r := range pc.polls {
		if pc.answer(r) {
			pc.endPoll()
		}
	}
}

// endPoll tells the loop the poll in flight is answered.
func (pc *pollConn) endPoll() { pc.answered <- struct{}{} }

// next parses the request at the head of buf: r and its length if it is a
// poll to serve here, nil and ok if the head is incomplete, !ok if the
// request goes to net/http.
func (pc *pollConn) next() (r *http.Request, n int, ok bool) {
	end := bytes.Index(pc.buf, []byte("\r\n\r\n"))
	if end < 0 {
		return nil, 0, len(pc.buf) <= maxPollHead
	}
	n = end + 4
	// The poll before is answered (serve waits for it), so its request
	// is free.
	pc.req = *pc.base
	clear(pc.req.Header)
	if !pollHead(string(pc.buf[:n]), &pc.req) {
		return nil, 0, false
	}
	pc.req.RemoteAddr = pc.remote
	return &pc.req, n, true
}

// answer serves one poll and writes its answer; false: the poll parked,
// and its tail answers it.
func (pc *pollConn) answer(r *http.Request) bool {
	pc.w.reset()
	pc.p.handler.ServeHTTP(&pc.w, r)
	if pc.park.IsParked() {
		return false
	}
	pc.write()
	return true
}

// write sends the answer the poll's writer gathered.
func (pc *pollConn) write() {
	w := &pc.w
	defer w.release()
	buf := answerBuffers.Get().(*[]byte)
	defer putAnswerBuffer(buf)
	now := time.Now()
	*buf = w.appendTo((*buf)[:0], now)
	if _, err := pc.conn.Write(*buf); err != nil || hasToken(w.header.Get("Connection"), "close") {
		pc.conn.Close()
		return
	}
	pc.lastAnswer.Store(now.UnixNano())
}

// handBack gives the connection, with what was read of it, to net/http.
func (pc *pollConn) handBack() {
	pc.conn.SetReadDeadline(time.Time{})
	if !pc.p.back.give(&prefixedConn{Conn: pc.conn, prefix: pc.buf}) {
		pc.conn.Close()
	}
}

// pollAnswer is the response writer of an owned poll: it gathers the answer
// and writes it as net/http does (appendTo).
type pollAnswer struct {
	// header is taken from headerMaps when a handler first asks for it,
	// which for a poll is once its events are ready: a map of the
	// connection's own, filled before the wait, had gone cold by then, and
	// each of the answer's dozen header reads and writes missed the cache.
	header http.Header
	status int
	body   []byte
	// pooled holds body, from answerBuffers: taken at the first Write, as
	// a poll holds its writer for the whole wait.
	pooled *[]byte
	// presetHead: the answer's headers are apiJSONHead's, not the map's.
	presetHead bool
}

// renderedHead is a head of headers rendered once: the lines before
// Content-Length, and those after it.
type renderedHead struct{ before, after string }

// append appends the head with Content-Length n in its place.
func (h renderedHead) append(b []byte, n int) []byte {
	return append(appendContentLength(append(b, h.before...), n), h.after...)
}

// appendContentLength appends the Content-Length header line for n bytes.
func appendContentLength(b []byte, n int) []byte {
	b = strconv.AppendInt(append(b, "Content-Length: "...), int64(n), 10)
	return append(b, "\r\n"...)
}

// apiJSONHead is the head of an API's JSON answer that no handler added
// to: the security headers and the JSON answer's own, rendered as
// appendTo renders a header map holding them.
var apiJSONHead = func() renderedHead {
	h := http.Header{}
	securityHeaders(h, true)
	jsonHeaders(h, 0)
	before, after, _ := strings.Cut(string(appendHeader(nil, h)), "Content-Length: 0\r\n")
	return renderedHead{before, after}
}()

// writeWithAPIJSONHead takes data as the whole answer, sent with
// apiJSONHead, unless a handler set a header or a status already (false).
func (w *pollAnswer) writeWithAPIJSONHead(status int, data []byte) bool {
	if len(w.header) > 0 || w.status != 0 {
		return false
	}
	w.WriteHeader(status)
	w.Write(data)
	w.presetHead = true
	return true
}

// headerMaps are the owned polls' header maps, empty.
var headerMaps = sync.Pool{New: func() any { return make(http.Header, 10) }}

// reset readies the writer for the next poll.
func (w *pollAnswer) reset() {
	w.header, w.status, w.body, w.pooled, w.presetHead = nil, 0, nil, nil, false
}

func (w *pollAnswer) release() {
	if w.pooled != nil {
		*w.pooled = w.body
		putAnswerBuffer(w.pooled)
	}
	if w.header != nil {
		clear(w.header)
		headerMaps.Put(w.header)
		w.header = nil
	}
}

// SetReadDeadline does nothing: the loop bounds reading an owned
// connection itself (a poll has no body). Without it, each poll's
// http.ResponseController call built a "not supported" error.
func (w *pollAnswer) SetReadDeadline(time.Time) error { return nil }

func (w *pollAnswer) Header() http.Header {
	if w.header == nil {
		w.header = headerMaps.Get().(http.Header)
	}
	return w.header
}

func (w *pollAnswer) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *pollAnswer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.pooled == nil {
		w.pooled = answerBuffers.Get().(*[]byte)
		w.body = (*w.pooled)[:0]
	}
	w.body = append(w.body, p...)
	return len(p), nil
}

// appendTo appends the answer as net/http writes a complete one: the
// status line, the handler's headers in sorted order, then the ones the
// server adds (Date, and Content-Length and Content-Type when the handler
// set none), then the body.
func (w *pollAnswer) appendTo(b []byte, now time.Time) []byte {
	w.WriteHeader(http.StatusOK)
	b = append(b, "HTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(w.status), 10)
	b = append(b, ' ')
	if text := http.StatusText(w.status); text != "" {
		b = append(b, text...)
	} else {
		b = strconv.AppendInt(append(b, "status code "...), int64(w.status), 10)
	}
	b = append(b, "\r\n"...)
	if w.presetHead {
		b = appendDate(apiJSONHead.append(b, len(w.body)), now)
	} else {
		b = w.appendMapHead(b, now)
	}
	return append(append(b, "\r\n"...), w.body...)
}

// appendMapHead appends the handler's headers from its map, then those
// net/http adds where the handler set none.
func (w *pollAnswer) appendMapHead(b []byte, now time.Time) []byte {
	b = appendHeader(b, w.header)
	if _, ok := w.header["Date"]; !ok {
		b = appendDate(b, now)
	}
	if _, ok := w.header["Content-Length"]; !ok {
		b = appendContentLength(b, len(w.body))
	}
	if _, ok := w.header["Content-Type"]; !ok && len(w.body) > 0 {
		b = append(append(append(b, "Content-Type: "...), http.DetectContentType(w.body)...), "\r\n"...)
	}
	return b
}

// appendDate appends the Date header line for now. Its text changes once
// a second, so it is formatted once a second, not for every answer.
func appendDate(b []byte, now time.Time) []byte {
	sec := now.Unix()
	d := lastDate.Load()
	if d == nil || d.second != sec {
		d = &dateLine{second: sec, line: now.UTC().AppendFormat([]byte("Date: "), http.TimeFormat)}
		d.line = append(d.line, "\r\n"...)
		lastDate.Store(d)
	}
	return append(b, d.line...)
}

// dateLine is the Date header line of one second.
type dateLine struct {
	second int64
	line   []byte
}

var lastDate atomic.Pointer[dateLine]

// appendHeader appends h as http.Header.Write writes it: keys sorted,
// invalid names left out, each value trimmed and its line breaks turned
// into spaces; without that method's writer and pooled sorter.
func appendHeader(b []byte, h http.Header) []byte {
	var room [16]string
	keys := room[:0]
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !httpguts.ValidHeaderFieldName(k) {
			continue
		}
		for _, v := range h[k] {
			b = append(append(b, k...), ": "...)
			for _, c := range []byte(textproto.TrimString(v)) {
				if c == '\r' || c == '\n' {
					c = ' '
				}
				b = append(b, c)
			}
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// prefixedConn is a connection handed back: what the loop read of it comes
// first.
type prefixedConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixedConn) Read(p []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// backListener is the listener net/http accepts handed-back connections
// from.
type backListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newBackListener() *backListener {
	return &backListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// give hands c to the server; false once the listener is closed.
func (l *backListener) give(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.closed:
		return false
	}
}

func (l *backListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *backListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *backListener) Addr() net.Addr { return backAddr{} }

type backAddr struct{}

func (backAddr) Network() string { return "handed-back" }
func (backAddr) String() string  { return "handed-back" }
