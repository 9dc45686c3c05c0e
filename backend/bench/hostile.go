package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"lanchat/backend/domain"
)

// HostileMix is what issue 38's hostile member did at once, by alice and
// two bots of hers (who count as her) and the guest: stalled downloads of
// a 25 MiB file (a 4 KB receive buffer, never read), parallel uploads of
// 25 MiB files, matches_narrow with as many IDs as allowed under the
// largest search narrow, and idle WebSockets. A zero leaves that attack
// out (its queues too, for Sockets), to tell what each costs alone.
type HostileMix struct {
	StalledDownloads, Uploads, Matches, Sockets int
}

// HostileFigures are other members' sends, quiet and under the mix, the
// server's peak memory under it, and how the server answered the attack.
type HostileFigures struct {
	// The sends; their ServerCPU is the server's CPU (the attack's
	// included) per send.
	Quiet, Attacked Latencies
	Idle, Peak      Memory
	// Downloads: stalled downloads that got their answer's head (sent, then
	// dropped at the write timeout) and those refused (429 after waiting
	// for a slot); uploads and matches done and refused; sockets opened and
	// refused.
	DownloadsSent, DownloadsRefused int64
	UploadsDone, UploadsRefused     int64
	MatchesDone, MatchesRefused     int64
	SocketsOpen, SocketsRefused     int64
	MatchIDs, NarrowSize            int
	// While the attacked sends ran: the attack's volume (upload bytes the
	// attackers sent a second, refused requests' included; bytes of uploads
	// the server stored a second; matches_narrow done a second), the CPU the
	// server and this program (the attackers' clients and the senders) took
	// in cores, and the most dirty and writeback memory the kernel held
	// (bytes).
	UploadedPerSecond, StoredPerSecond float64
	MatchesPerSecond                   float64
	ServerCores, BenchCores            float64
	DirtyPeak, WritebackPeak           int64
}

// HostileUploadSize is the size of each uploaded file: the largest allowed.
const HostileUploadSize = 25<<20 - 1024

// Hostile measures other members' sends (bob's and the administrator's,
// senders at once, for d) on a quiet server, then under the mix, sampling
// the server's memory throughout. The store needs at least matchIDs
// messages alice can see (a Fixture).
func Hostile(srv *Server, mix HostileMix, senders int, d time.Duration) (HostileFigures, error) {
	f := HostileFigures{MatchIDs: domain.MaxMessagesPerRequest}
	users, err := loginAll(srv, []string{"admin@example.com", "alice@example.com", "bob@example.com", "guest@example.com"})
	if err != nil {
		return f, err
	}
	admin, alice, bob, guest := users[0], users[1], users[2], users[3]
	var attackers []*Client // alice, her two bots, the guest
	attackers = append(attackers, alice)
	for i := range 2 {
		var bot struct {
			Email  string `json:"email"`
			APIKey string `json:"api_key"`
		}
		if err := alice.call("POST", "/api/v1/bots", url.Values{"full_name": {fmt.Sprintf("Hostile %d", i)}, "short_name": {fmt.Sprintf("hostile%d", i)}}, &bot); err != nil {
			return f, err
		}
		attackers = append(attackers, &Client{base: alice.base, http: alice.http, email: bot.Email, key: bot.APIKey})
	}
	attackers = append(attackers, guest)

	upload, contentType := multipartFile(HostileUploadSize)
	var up struct {
		URI string `json:"uri"`
	}
	if err := alice.upload(upload, contentType, nil, &up); err != nil {
		return f, err
	}
	ids, err := newestIDs(alice, f.MatchIDs)
	if err != nil {
		return f, err
	}
	narrow := largestSearchNarrow()
	f.NarrowSize = len(narrow)

	send := func(w int) error {
		return []*Client{bob, admin}[w%2].call("POST", "/api/v1/messages", url.Values{
			"type": {"stream"}, "to": {"general"}, "topic": {fmt.Sprintf("quiet %d", w)}, "content": {"lunch at noon, as usual"}}, nil)
	}
	quietCPU := srv.ProcessCPU()
	if f.Quiet, err = Run(senders, d, send); err != nil {
		return f, err
	}
	f.Quiet.ServerCPU = (srv.ProcessCPU() - quietCPU) / time.Duration(max(1, f.Quiet.Count))
	if f.Idle, err = srv.Memory(); err != nil {
		return f, err
	}

	ctx, stop := context.WithCancel(context.Background())
	var attack sync.WaitGroup
	var conns closers
	defer conns.closeAll()
	peak := sampleMemory(srv, ctx)

	// Idle WebSockets over queues of each attacker's own, opened first,
	// twenty at a time.
	queues := make([][]string, len(attackers))
	for i, c := range attackers {
		for range min(50, mix.Sockets) {
			var reg struct {
				QueueID string `json:"queue_id"`
			}
			if err := c.call("POST", "/api/v1/register", url.Values{"event_types": {`["message"]`}}, &reg); err != nil {
				stop()
				return f, err
			}
			queues[i] = append(queues[i], reg.QueueID)
		}
	}
	next := make(chan int)
	var dialing sync.WaitGroup
	for range 20 {
		dialing.Add(1)
		go func() {
			defer dialing.Done()
			for i := range next {
				c, q := attackers[i%len(attackers)], queues[i%len(attackers)]
				if s, err := dialSocket(srv.URL, c.email, c.key, q[i/len(attackers)%len(q)], -1); err != nil {
					atomic.AddInt64(&f.SocketsRefused, 1)
				} else {
					atomic.AddInt64(&f.SocketsOpen, 1)
					conns.add(s.conn)
				}
			}
		}()
	}
	for i := range mix.Sockets {
		next <- i
	}
	close(next)
	dialing.Wait()

	// Stalled downloads, all alice's: each holds its connection unread.
	for range mix.StalledDownloads {
		attack.Add(1)
		go func() {
			defer attack.Done()
			conn, err := stalledGet(alice, up.URI)
			if err != nil {
				return
			}
			conns.add(conn)
			// The status line, read from the 4 KB that arrive, tells a
			// download being sent from a refusal.
			head := make([]byte, len("HTTP/1.1 200"))
			if _, err := io.ReadFull(conn, head); err == nil && strings.HasSuffix(string(head), "200") {
				atomic.AddInt64(&f.DownloadsSent, 1)
			} else {
				atomic.AddInt64(&f.DownloadsRefused, 1)
			}
		}()
	}
	// Uploads and heavy matches_narrow, round-robin over the attackers,
	// each loop retrying a refusal after a moment.
	repeat := func(loops int, op func(*Client) error, done, refused *int64) {
		for i := range loops {
			c := attackers[i%len(attackers)]
			attack.Add(1)
			go func() {
				defer attack.Done()
				for ctx.Err() == nil {
					if err := op(c); err != nil {
						atomic.AddInt64(refused, 1)
						time.Sleep(100 * time.Millisecond)
					} else {
						atomic.AddInt64(done, 1)
					}
				}
			}()
		}
	}
	var uploaded atomic.Int64
	repeat(mix.Uploads, func(c *Client) error {
		return c.upload(upload, contentType, &uploaded, nil)
	}, &f.UploadsDone, &f.UploadsRefused)
	form := url.Values{"msg_ids": {ids}, "narrow": {narrow}}
	repeat(mix.Matches, func(c *Client) error { return c.call("GET", "/api/v1/messages/matches_narrow", form, nil) }, &f.MatchesDone, &f.MatchesRefused)
	time.Sleep(2 * time.Second) // every attack under way
	dirty := sampleDirty(ctx)
	start, serverCPU, benchCPU := time.Now(), srv.ProcessCPU(), ownCPU()
	uploadedBefore, storedBefore, matchesBefore := uploaded.Load(), atomic.LoadInt64(&f.UploadsDone), atomic.LoadInt64(&f.MatchesDone)
	f.Attacked, err = Run(senders, d, send)
	wall := time.Since(start)
	f.ServerCores, f.BenchCores = float64(srv.ProcessCPU()-serverCPU)/float64(wall), float64(ownCPU()-benchCPU)/float64(wall)
	f.Attacked.ServerCPU = (srv.ProcessCPU() - serverCPU) / time.Duration(max(1, f.Attacked.Count))
	f.UploadedPerSecond = float64(uploaded.Load()-uploadedBefore) / wall.Seconds()
	f.StoredPerSecond = float64((atomic.LoadInt64(&f.UploadsDone)-storedBefore)*HostileUploadSize) / wall.Seconds()
	f.MatchesPerSecond = float64(atomic.LoadInt64(&f.MatchesDone)-matchesBefore) / wall.Seconds()
	stop()
	conns.closeAll()
	attack.Wait()
	f.Peak = <-peak
	peakDirty := <-dirty
	f.DirtyPeak, f.WritebackPeak = peakDirty[0], peakDirty[1]
	return f, err
}

// countingReader counts the bytes read through it into n.
type countingReader struct {
	io.Reader
	n *atomic.Int64
}

func (r countingReader) Read(b []byte) (int, error) {
	n, err := r.Reader.Read(b)
	r.n.Add(int64(n))
	return n, err
}

// ownCPU is the CPU time this process has used so far, all its threads.
func ownCPU() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// sampleDirty follows the machine's dirty and writeback memory
// (/proc/meminfo) until ctx ends, then sends the most of each it saw, in
// bytes.
func sampleDirty(ctx context.Context) <-chan [2]int64 {
	return samplePeak(ctx, func(peak *[2]int64) {
		data, _ := os.ReadFile("/proc/meminfo")
		for _, line := range strings.Split(string(data), "\n") {
			for i, name := range []string{"Dirty:", "Writeback:"} {
				if fields := strings.Fields(line); len(fields) >= 2 && fields[0] == name {
					kb, _ := strconv.ParseInt(fields[1], 10, 64)
					peak[i] = max(peak[i], kb<<10)
				}
			}
		}
	})
}

// samplePeak calls sample every 20 ms until ctx ends, then sends what
// sample kept.
func samplePeak[T any](ctx context.Context, sample func(*T)) <-chan T {
	out := make(chan T, 1)
	go func() {
		var peak T
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			sample(&peak)
			select {
			case <-ctx.Done():
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// multipartFile is an upload request's body carrying one file of size
// bytes, and its content type.
func multipartFile(size int) ([]byte, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", "big.bin")
	w.Write(bytes.Repeat([]byte("lanchat "), size/8))
	mw.Close()
	return body.Bytes(), mw.FormDataContentType()
}

// upload posts a prepared multipart body to /user_uploads, counting what
// is sent into sent and decoding the answer into out (each if non-nil).
func (c *Client) upload(body []byte, contentType string, sent *atomic.Int64, out any) error {
	req, err := http.NewRequest("POST", c.base+"/api/v1/user_uploads", bytes.NewReader(body))
	if err != nil {
		return err
	}
	if sent != nil { // counted as the transport sends it, length unchanged
		req.Body = io.NopCloser(countingReader{req.Body, sent})
	}
	req.Header.Set("Content-Type", contentType)
	return c.do(req, out)
}

// newestIDs are the IDs of the n newest messages c sees, as a JSON list.
func newestIDs(c *Client, n int) (string, error) {
	var page struct {
		Messages []struct{ ID int64 } `json:"messages"`
	}
	if err := c.call("GET", "/api/v1/messages", url.Values{"anchor": {"newest"}, "num_before": {fmt.Sprint(n)}, "num_after": {"0"}}, &page); err != nil {
		return "", err
	}
	if len(page.Messages) < n {
		return "", fmt.Errorf("%d messages in the store, want %d", len(page.Messages), n)
	}
	ids := make([]int64, len(page.Messages))
	for i, m := range page.Messages {
		ids[i] = m.ID
	}
	b, err := json.Marshal(ids)
	return string(b), err
}

// largestSearchNarrow is the largest narrow allowed (the most terms, each
// of the longest operand), every word of it one every fixture message has.
func largestSearchNarrow() string {
	operand := strings.TrimSpace(strings.Repeat("message ", domain.MaxNarrowOperandLength/len("message ")))
	terms := make([][2]string, domain.MaxNarrowTerms)
	for i := range terms {
		terms[i] = [2]string{"search", operand}
	}
	b, _ := json.Marshal(terms)
	return string(b)
}

// stalledGet requests path as c on a connection with a 4 KB receive
// buffer, and reads nothing.
func stalledGet(c *Client, path string) (net.Conn, error) {
	u, err := url.Parse(c.base)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Control: func(_, _ string, raw syscall.RawConn) error {
		var err error
		raw.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	conn, err := d.Dial("tcp", u.Host)
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.SetBasicAuth(c.email, c.key)
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// sampleMemory follows the server's resident memory every 20 ms until
// ctx ends, then sends the most it saw.
func sampleMemory(srv *Server, ctx context.Context) <-chan Memory {
	return samplePeak(ctx, func(peak *Memory) {
		if m, err := srv.Memory(); err == nil && m.RSS > peak.RSS {
			*peak = m
		}
	})
}

// closers are connections to close when the attack ends.
type closers struct {
	mu    sync.Mutex
	conns []io.Closer
}

func (c *closers) add(conn io.Closer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conns = append(c.conns, conn)
}

func (c *closers) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.conns {
		conn.Close()
	}
	c.conns = nil
}
