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
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, now: time.Now, hits: map[string][]time.Time{}}
}

// check tells whether key is over the limit, and for how long; record says
// whether this call counts as a hit.
func (l *limiter) check(key string, record bool) (time.Duration, bool) {
	if l == nil || l.max <= 0 {
		return 0, false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	recent := l.prune(key, now)
	if len(recent) >= l.max {
		return recent[0].Add(l.window).Sub(now), true
	}
	if record {
		l.hits[key] = append(recent, now)
	}
	return 0, false
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
