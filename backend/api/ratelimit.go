package api

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"lanchat/backend/domain"
)

// limiter allows at most max hits per key within a sliding window.
type limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu   sync.Mutex
	hits map[string][]time.Time
	// warned is when each key's last lock-out was first reported.
	warned map[string]time.Time
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, now: time.Now, hits: map[string][]time.Time{}, warned: map[string]time.Time{}}
}

// firstBlock tells whether a block of key is the first within the window:
// a lock-out is worth one warning, and a script hammering on through it
// must not push every other warning out of the host's recent errors.
func (l *limiter) firstBlock(key string) bool {
	if l == nil {
		return false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.warned) > 10000 {
		for k, at := range l.warned {
			if now.Sub(at) >= l.window {
				delete(l.warned, k)
			}
		}
	}
	if at, ok := l.warned[key]; ok && now.Sub(at) < l.window {
		return false
	}
	l.warned[key] = now
	return true
}

// take counts a hit for key unless key is over the limit, in which case it
// tells how long to wait. The hit is counted before the work it guards, so
// concurrent requests cannot all slip under the limit; release gives it back.
func (l *limiter) take(key string) (hit time.Time, wait time.Duration, blocked bool) {
	if l == nil || l.max <= 0 {
		return time.Time{}, 0, false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	recent := l.prune(key, now)
	if len(recent) >= l.max {
		return time.Time{}, recent[0].Add(l.window).Sub(now), true
	}
	l.hits[key] = append(recent, now)
	return now, 0, false
}

// count is how many hits key has within the window.
func (l *limiter) count(key string) int {
	if l == nil || l.max <= 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.prune(key, l.now()))
}

// release gives back a hit taken by take that turned out not to count
// (a login that succeeded).
func (l *limiter) release(key string, hit time.Time) {
	if l == nil || hit.IsZero() {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	hits := l.hits[key]
	for i := len(hits) - 1; i >= 0; i-- {
		if hits[i].Equal(hit) {
			l.hits[key] = append(hits[:i], hits[i+1:]...)
			return
		}
	}
}

// prune drops hits older than the window; with many keys it sweeps them
// all, so the map cannot grow without bound.
func (l *limiter) prune(key string, now time.Time) []time.Time {
	if len(l.hits) > 10000 {
		for k := range l.hits {
			if k != key {
				l.hits[k] = l.fresh(l.hits[k], now)
				if len(l.hits[k]) == 0 {
					delete(l.hits, k)
				}
			}
		}
	}
	recent := l.fresh(l.hits[key], now)
	if len(recent) == 0 {
		delete(l.hits, key)
	} else {
		l.hits[key] = recent
	}
	return recent
}

func (l *limiter) fresh(hits []time.Time, now time.Time) []time.Time {
	cutoff := now.Add(-l.window)
	i := 0
	for i < len(hits) && !hits[i].After(cutoff) {
		i++
	}
	return hits[i:]
}

// rateLimited is Zulip's RATE_LIMIT_HIT, with the wait in the body.
func rateLimited(w http.ResponseWriter, wait time.Duration) error {
	secs := math.Max(wait.Seconds(), 0.001)
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	return (&domain.Error{Code: domain.CodeRateLimitHit, Msg: "API usage exceeded rate limit"}).With("retry-after", secs)
}

// clientAddress is the peer's IP: on a LAN there is no proxy to trust.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isCredentialFailure tells wrong keys and passwords (which count toward
// the address's limit) from other errors.
func isCredentialFailure(err error) bool {
	var de *domain.Error
	return errors.As(err, &de) && (de.Code == domain.CodeInvalidAPIKey || de.Code == domain.CodeAuthenticationFailed)
}

// slots bound what each person (a bot counted as its owner,
// domain.PersonOf) holds of the server at once, and optionally what
// everyone does together: uploads in flight, downloads being sent, open
// event sockets.
type slots struct {
	perPerson, total int // 0: no bound (on a person, on everyone together)

	mu    sync.Mutex
	held  map[int64]int
	inUse int
	freed chan struct{} // closed, and replaced, whenever a slot is given back
}

func newSlots(perPerson, total int) *slots {
	return &slots{perPerson: perPerson, total: total, held: map[int64]int{}, freed: make(chan struct{})}
}

// take reserves a slot for person, waiting up to wait (or until ctx ends)
// for one to be given back; false: none came.
func (s *slots) take(ctx context.Context, person int64, wait time.Duration) bool {
	var timeout <-chan time.Time
	for {
		s.mu.Lock()
		if (s.perPerson == 0 || s.held[person] < s.perPerson) && (s.total == 0 || s.inUse < s.total) {
			s.held[person]++
			s.inUse++
			s.mu.Unlock()
			return true
		}
		freed := s.freed
		s.mu.Unlock()
		if wait <= 0 {
			return false
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-freed:
		case <-timeout:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (s *slots) give(person int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[person]--; s.held[person] == 0 {
		delete(s.held, person)
	}
	s.inUse--
	close(s.freed)
	s.freed = make(chan struct{})
}

// Uploads: each holds a connection and a stream to disk. Clients upload
// one file at a time, so a person's third is refused rather than queued.
// The files one person uploads are read at most uploadBytesPerSecond
// together (a 25 MiB file in under 3 s; an owner's import, one raw body,
// is not paced): at full speed, ten 25 MiB uploads at once
// kept both cores and the disk so busy that another member's send took
// 124 ms instead of 7 (lanchat-bench's hostile figure).
const (
	uploadsPerPerson     = 2
	uploadsAtOnce        = 8
	uploadsRetryWait     = time.Second
	uploadBytesPerSecond = 10 << 20
)

// pace spreads what each person sends the server over time, at most
// perSecond bytes a second together: a read of n bytes moves the person's
// next free moment n/perSecond on, and the reader sleeps until then.
type pace struct {
	perSecond float64
	mu        sync.Mutex
	next      map[int64]time.Time
}

func newPace(perSecond float64) *pace {
	return &pace{perSecond: perSecond, next: map[int64]time.Time{}}
}

// reader paces r for person.
func (p *pace) reader(person int64, r io.Reader) io.Reader {
	return &pacedReader{Reader: r, pace: p, person: person}
}

// take accounts n bytes to person and says how long to wait for them.
func (p *pace) take(person int64, n int) time.Duration {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, t := range p.next { // a person a while gone is forgotten
		if t.Before(now) {
			delete(p.next, k)
		}
	}
	at := now
	if next := p.next[person]; next.After(now) {
		at = next
	}
	p.next[person] = at.Add(time.Duration(float64(n) / p.perSecond * float64(time.Second)))
	return at.Sub(now)
}

type pacedReader struct {
	io.Reader
	pace   *pace
	person int64
}

// pacedChunk is the most read at once, so a sleep is never long.
const pacedChunk = 64 << 10

func (r *pacedReader) Read(buf []byte) (int, error) {
	n, err := r.Reader.Read(buf[:min(len(buf), pacedChunk)])
	time.Sleep(r.pace.take(r.person, n))
	return n, err
}

// Heavy reads (history, matches_narrow, flags by narrow) may each keep a
// core busy for most of a second: a person runs two at once, and everyone
// together on all cores but one, so sends and every lighter request always
// find a core (in lanchat-bench's hostile figure, eight parallel
// matches_narrow loops with the rest of the mix took other members' sends
// from 9 ms to 450 ms at the median). One more waits up to heavyReadWait
// for a slot, then gets 429.
const (
	heavyReadsPerPerson = 2
	heavyReadWait       = 30 * time.Second
)

func heavyReadsAtOnce() int { return max(1, cores-1) }

// cores is the Ps Go gave the process at start: its CPUs, its cgroup's
// quota, or the operator's GOMAXPROCS. Read before Procs changes them.
var cores = runtime.GOMAXPROCS(0)

// Procs is the GOMAXPROCS a process serving the API should run with: a P
// for each core, and one more for each heavy read. A goroutine running on
// a niced thread still holds one of Go's Ps, which nice cannot take from
// it: with a P per core, the heavy reads running at once left sends one P
// of two however low their priority, and under the hostile figure's
// matches_narrow loops sends queued for it. With a P of their own, the
// kernel shares the cores by priority and the reads get what sends leave.
func Procs() int { return cores + heavyReadsAtOnce() }
