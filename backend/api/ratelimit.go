package api

import (
	"errors"
	"math"
	"net"
	"net/http"
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

// uploadSlots bound the uploads in flight, each user's and the server's:
// each holds a connection, up to maxMultipartMemory of memory and a stream
// to disk. Clients upload one file at a time, so a user's third is refused
// rather than queued.
type uploadSlots struct {
	mu            sync.Mutex
	byUser        map[int64]int
	total         int
	perUser, most int
}

const (
	uploadsPerUser   = 2
	uploadsAtOnce    = 8
	uploadsRetryWait = time.Second
)

func newUploadSlots() *uploadSlots {
	return &uploadSlots{byUser: map[int64]int{}, perUser: uploadsPerUser, most: uploadsAtOnce}
}

// take reserves a slot for userID, or reports false when none is free.
func (u *uploadSlots) take(userID int64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byUser[userID] >= u.perUser || u.total >= u.most {
		return false
	}
	u.byUser[userID]++
	u.total++
	return true
}

func (u *uploadSlots) give(userID int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byUser[userID]--; u.byUser[userID] == 0 {
		delete(u.byUser, userID)
	}
	u.total--
}
