package server

import (
	"log"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// handshakeSummaryEvery is how often failed TLS handshakes are summed up in
// the log.
const handshakeSummaryEvery = time.Minute

// handshakePrefix opens the line net/http's server writes to its ErrorLog
// for each failed TLS handshake.
const handshakePrefix = "http: TLS handshake error from "

// httpErrors is the HTTP server's ErrorLog. Its lines are warnings, except
// failed TLS handshakes, which it counts and sums up in one warning a
// minute with the last address and error: every device that has not
// installed the authority fails them (one run of a phone's probes made
// 304), and a warning each pushed everything else out of the host panel's
// recent errors.
type httpErrors struct {
	log   *slog.Logger
	mu    sync.Mutex
	count int
	// lastAddr and lastErr are the latest failure's client and error.
	lastAddr, lastErr string
	// summary logs the count once the minute after the first failure ends.
	summary *time.Timer
}

func (h *httpErrors) Write(p []byte) (int, error) {
	line := strings.TrimSuffix(string(p), "\n")
	rest, ok := strings.CutPrefix(line, handshakePrefix)
	if !ok {
		h.log.Warn(line)
		return len(p), nil
	}
	addr, why, _ := strings.Cut(rest, ": ")
	h.mu.Lock()
	defer h.mu.Unlock()
	h.count++
	h.lastAddr, h.lastErr = addr, why
	if h.summary == nil {
		h.summary = time.AfterFunc(handshakeSummaryEvery, h.flush)
	}
	return len(p), nil
}

// flush logs the failures counted since the last summary, if any; Shutdown
// calls it so that none goes unsaid.
func (h *httpErrors) flush() {
	h.mu.Lock()
	count, addr, why := h.count, h.lastAddr, h.lastErr
	h.count = 0
	if h.summary != nil {
		h.summary.Stop()
		h.summary = nil
	}
	h.mu.Unlock()
	if count > 0 {
		h.log.Warn("TLS handshakes failed", "count", count, "last_addr", addr, "last_err", why)
	}
}

// logger is the http.Server's ErrorLog writing through h.
func (h *httpErrors) logger() *log.Logger { return log.New(h, "", 0) }
