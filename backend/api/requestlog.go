package api

import (
	"bufio"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// requestLog is the response writer every request is served through: it
// notes what the request's log line reports. It never holds what must not
// be logged (keys, passwords, cookies, bodies, query strings): the line
// names the route's pattern, and the URL's path (never its query) only
// when no route matched.
type requestLog struct {
	http.ResponseWriter
	status int
	caller string // the authenticated account's email
	bot    bool
	// unrouted is the path of a request no route matched.
	unrouted string
	// webhook marks the integration URLs, whose refusals are warnings:
	// the sender only logs them, so the operator must see why.
	// integration is the one named in the URL.
	webhook     bool
	integration string
	// loginFailed: the request failed a login (a wrong password or key)
	// or was the first locked out for the address's failures within the
	// window, a warning; loginFailures is how many the address has
	// within the limiter's window (0 without a limit).
	loginFailed   bool
	loginFailures int
	refusal       *domain.Error // the error answered, if any
	failure       error         // an unexpected error, answered with a 500
	reason        string        // what the handler adds, e.g. where a webhook went
	// acceptsGzip: the client takes gzip, so large answers are compressed.
	acceptsGzip bool
	// api: the request is for the API, whose answers are never cached;
	// secured: the security headers are set.
	api, secured bool
}

// secure sets the security headers, once, as the answer's head is about to
// go out (a handler's own value for one of them stands).
func (l *requestLog) secure() {
	if l.secured || l.status == http.StatusSwitchingProtocols {
		return
	}
	l.secured = true
	securityHeaders(l.ResponseWriter.Header(), l.api)
}

// gzips: the answer data is to be sent gzipped.
func (l *requestLog) gzips(data []byte) bool {
	return l.acceptsGzip && len(data) >= compressAbove
}

func (l *requestLog) WriteHeader(code int) {
	l.secure()
	if l.status == 0 {
		l.status = code
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *requestLog) Write(p []byte) (int, error) {
	l.secure()
	if l.status == 0 {
		l.status = http.StatusOK
	}
	return l.ResponseWriter.Write(p)
}

// Flush, Hijack and Unwrap keep long-polls and the event socket working
// through the wrapper.
func (l *requestLog) Flush() {
	l.secure()
	http.NewResponseController(l.ResponseWriter).Flush()
}

func (l *requestLog) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	l.status = http.StatusSwitchingProtocols
	return http.NewResponseController(l.ResponseWriter).Hijack()
}

func (l *requestLog) Unwrap() http.ResponseWriter { return l.ResponseWriter }

// recordWebhook marks an integration URL's request, for the named
// integration.
func recordWebhook(w http.ResponseWriter, integration string) {
	if l, ok := w.(*requestLog); ok {
		l.webhook, l.integration = true, integration
	}
}

// recordUnrouted notes the path of a request no route matched.
func recordUnrouted(w http.ResponseWriter, path string) {
	if l, ok := w.(*requestLog); ok {
		l.unrouted = path
	}
}

// recordLoginFailure notes a failed login or a lock-out (warn: worth a
// warning), with how many failures the address has within the window.
func recordLoginFailure(w http.ResponseWriter, failures int, warn bool) {
	if l, ok := w.(*requestLog); ok {
		l.loginFailed, l.loginFailures = warn, failures
	}
}

// recordCaller notes the authenticated account on the request's line.
func recordCaller(w http.ResponseWriter, u store.User) {
	if l, ok := w.(*requestLog); ok {
		l.caller, l.bot = u.Email, u.IsBot()
	}
}

// recordReason notes why a request went as it did, for its line.
func recordReason(w http.ResponseWriter, reason string) {
	if l, ok := w.(*requestLog); ok {
		l.reason = reason
	}
}

// recordFailure notes the error a request is answered with: a refusal's
// code and message, or an unexpected error, which the line logs in full.
func recordFailure(w http.ResponseWriter, r *http.Request, refusal *domain.Error, failure error) {
	if l, ok := w.(*requestLog); ok {
		l.refusal, l.failure = refusal, failure
	} else if failure != nil {
		slog.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", failure)
	}
}

// maxLoggedText bounds what the client chose that a line repeats (a
// path, a User-Agent's product, an integration's name).
const maxLoggedText = 100

// bounded is text cut to maxLoggedText bytes.
func bounded(text string) string {
	if len(text) > maxLoggedText {
		return strings.ToValidUTF8(text[:maxLoggedText], "") + "…"
	}
	return text
}

// logRequest writes the request's line: errors for 5xx answers, warnings
// for refused or redirected webhooks and for failed logins and lock-outs,
// information otherwise.
func (a *API) logRequest(l *requestLog, r *http.Request, start time.Time) {
	level := slog.LevelInfo
	switch {
	case l.status >= 500:
		level = slog.LevelError
	case l.webhook && (l.refusal != nil || l.reason != ""), l.loginFailed:
		level = slog.LevelWarn
	}
	ctx := r.Context()
	if !a.log.Enabled(ctx, level) {
		return
	}
	route := r.Pattern
	if route == "" {
		route = "(none)"
	}
	// Built here rather than through Logger.LogAttrs, which looks up its
	// caller for a source line no handler here shows: a tenth of the
	// line's cost, paid by every request.
	// One reading of the clock for the line's time and the duration:
	// each costs tens of nanoseconds on a virtual machine's clock.
	now := time.Now()
	rec := slog.NewRecord(now, level, "request", 0)
	// Milliseconds, named so: slog's JSON writes a duration as bare
	// nanoseconds.
	took := float64(now.Sub(start).Microseconds()) / 1000
	rec.AddAttrs(slog.String("method", r.Method), slog.String("route", route), slog.Int("status", l.status),
		slog.Float64("duration_ms", took), slog.String("client", clientAddress(r)),
		slog.String("client_name", bounded(clientName(r.UserAgent()))))
	if l.unrouted != "" {
		rec.AddAttrs(slog.String("path", bounded(l.unrouted)))
	}
	if l.integration != "" {
		rec.AddAttrs(slog.String("integration", bounded(l.integration)))
	}
	switch {
	case l.bot:
		rec.AddAttrs(slog.String("bot", l.caller))
	case l.caller != "":
		rec.AddAttrs(slog.String("user", l.caller))
	}
	if l.refusal != nil {
		rec.AddAttrs(slog.String("code", l.refusal.Code), slog.String("error", l.refusal.Msg))
	}
	if l.failure != nil {
		rec.AddAttrs(slog.Any("err", l.failure))
	}
	if l.reason != "" {
		rec.AddAttrs(slog.String("reason", l.reason))
	}
	if l.loginFailures > 0 {
		rec.AddAttrs(slog.Int("login_failures", l.loginFailures))
	}
	a.log.Handler().Handle(ctx, rec)
}
