// Package api is Lanchat's HTTP face: a route table of thin handlers, one
// parameter parser, authentication, and the JSON error shape Zulip clients
// expect. Every rule lives in the domain package.
package api

import (
	"cmp"
	"encoding/base64"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// Body size limits: most requests are small forms; uploads are bounded by
// their own route's limit.
const defaultMaxBody = 1 << 20

// auth says how a route identifies its caller.
type auth int

const (
	authNone    auth = iota // public, such as server_settings
	authUser                // HTTP Basic with email and API key, or a session cookie
	authWebhook             // ?api_key=KEY, or HTTP Basic
)

// route is one row of the route table.
type route struct {
	method  string
	path    string // a net/http pattern without the method, e.g. /api/v1/users/{user_id}
	auth    auth
	maxBody int64 // 0 means defaultMaxBody
	// login routes check passwords or keys themselves and share the
	// per-address limit on failures.
	login bool
	// browserForm routes are the web UI's own forms (sign-in and sign-out):
	// refused when another site's page sends them (fromThisSite).
	browserForm bool
	// longLived routes hold their connection open (a long-poll, the
	// WebSocket): they are exempt from the server's read timeout and bound
	// themselves (the heartbeat, the socket's pings).
	longLived bool
	// upload routes take files: they read for up to UploadReadTimeout and
	// wait for one of the concurrent upload slots.
	upload bool
	// heavy routes may walk thousands of messages for one request: they
	// wait for one of the heavy-read slots (heavyReads).
	heavy bool
	// webhookBots admits incoming-webhook bots (domain.CheckRouteAccess):
	// set on the integration URLs and on sending a message, as in Zulip.
	webhookBots bool
	handle      func(*call) (J, error)
}

// call is one request as a handler sees it.
type call struct {
	api  *API
	r    *http.Request
	w    http.ResponseWriter
	p    *params
	user store.User // the authenticated caller, for authUser routes
	// wrote is set by handlers that answer with something other than JSON.
	wrote bool
}

// Options configure the HTTP layer.
type Options struct {
	// BaseURL is the organization's public address; empty means "the address
	// the client used".
	BaseURL string
	// LoginFailuresPerMinute bounds wrong passwords and API keys from one
	// address; 0 means DefaultLoginFailuresPerMinute, negative means no limit.
	LoginFailuresPerMinute int
	// RequestsPerMinute bounds each user's authenticated requests; 0 means
	// no limit (a LAN's own clients are trusted by default).
	RequestsPerMinute int
	// Log gets one line per request (requestlog.go); nil means
	// slog.Default().
	Log *slog.Logger
	// UploadReadTimeout bounds reading an authenticated upload; 0 means
	// DefaultUploadReadTimeout.
	UploadReadTimeout time.Duration
	// DownloadWriteTimeout bounds each write of a download (an upload
	// served): a client that takes none of the file for this long is
	// dropped. 0 means DefaultDownloadWriteTimeout.
	DownloadWriteTimeout time.Duration
	// DeliveryWriteTimeout bounds each write of events to a long-poll or
	// WebSocket (delivery): a client that takes none of it for this long
	// is dropped. 0 means DefaultDeliveryWriteTimeout.
	DeliveryWriteTimeout time.Duration
	// Importer replaces the organization with an imported one (nil: the
	// server cannot); MaxImportSize bounds the uploaded archive (0 means
	// DefaultMaxImportSize).
	Importer      Importer
	MaxImportSize int64
	// NtfyPort is where phones subscribe to their notifications (0 or nil:
	// nowhere).
	NtfyPort func() int
}

// DefaultUploadReadTimeout lets a 25 MiB file arrive at under 100 kB/s.
const DefaultUploadReadTimeout = 5 * time.Minute

// DefaultDownloadWriteTimeout outlasts a phone's Wi-Fi hiccup.
const DefaultDownloadWriteTimeout = 30 * time.Second

// DefaultDeliveryWriteTimeout is generous for an answer of a few
// kilobytes on a LAN.
const DefaultDeliveryWriteTimeout = 10 * time.Second

// DefaultLoginFailuresPerMinute is generous for people who mistype and
// tight for a script guessing keys.
const DefaultLoginFailuresPerMinute = 10

// API serves the HTTP interface.
type API struct {
	svc  *domain.Service
	opts Options
	log  *slog.Logger
	mux  *http.ServeMux
	// failures counts credential failures per client address; requests
	// counts each user's requests.
	failures, requests *limiter
	// uploads, downloads, sockets and heavy reads bound what one person
	// holds at once.
	uploads, downloads, sockets, heavy *slots
	uploadPace                         *pace
	// delivery writes events to the clients waiting for them.
	delivery *delivery
}

// New builds the handler for every route.
func New(svc *domain.Service, opts Options) *API {
	if opts.LoginFailuresPerMinute == 0 {
		opts.LoginFailuresPerMinute = DefaultLoginFailuresPerMinute
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	opts.UploadReadTimeout = cmp.Or(opts.UploadReadTimeout, DefaultUploadReadTimeout)
	opts.DownloadWriteTimeout = cmp.Or(opts.DownloadWriteTimeout, DefaultDownloadWriteTimeout)
	opts.MaxImportSize = cmp.Or(opts.MaxImportSize, DefaultMaxImportSize)
	a := &API{svc: svc, opts: opts, log: opts.Log, mux: http.NewServeMux(),
		delivery: &delivery{svc: svc, writeTimeout: cmp.Or(opts.DeliveryWriteTimeout, DefaultDeliveryWriteTimeout)},
		failures: newLimiter(opts.LoginFailuresPerMinute, time.Minute),
		requests: newLimiter(opts.RequestsPerMinute, time.Minute),
		uploads:  newSlots(uploadsPerPerson, uploadsAtOnce), downloads: newSlots(downloadsPerPerson, 0),
		sockets: newSlots(svc.EventSocketsPerPerson(), 0), heavy: newSlots(heavyReadsPerPerson, heavyReadsAtOnce()),
		uploadPace: newPace(uploadBytesPerSecond)}
	byPath := map[string][]route{}
	var paths []string
	for _, rt := range a.routes() {
		if _, seen := byPath[rt.path]; !seen {
			paths = append(paths, rt.path)
		}
		byPath[rt.path] = append(byPath[rt.path], rt)
	}
	for _, path := range paths {
		a.mux.HandleFunc(path, a.dispatch(byPath[path]))
	}
	a.mux.Handle("GET /static/images/", a.staticImages())
	a.mux.HandleFunc("GET "+domain.EmojiDataPath, serveEmojiData)
	a.mux.HandleFunc("GET "+zulipEmojiPath, serveZulipEmoji)
	a.mux.Handle("/", a.ui())
	a.mux.HandleFunc("/api/", a.notFound)
	return a
}

// notFound answers an API path no route has. Its line names the path and,
// when the credentials are good, who asked: a client calling an endpoint
// this server lacks. Bad credentials are not counted here.
func (a *API) notFound(w http.ResponseWriter, r *http.Request) {
	recordUnrouted(w, r.URL.Path)
	if u, err := a.authenticate(r, authUser); err == nil {
		recordCaller(w, u)
	}
	writeError(w, r, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")})
}

// ServeHTTP answers every request and logs it; a panic in a handler is
// logged and answered with a JSON 500 instead of a dropped connection.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	l := &requestLog{ResponseWriter: w, api: strings.HasPrefix(r.URL.Path, "/api/"), acceptsGzip: acceptsEncoding(r, "gzip")}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				a.logRequest(l, r, start)
				panic(v)
			}
			a.log.Error("handler panic", "method", r.Method, "route", r.Pattern, "panic", v, "stack", string(debug.Stack()))
			writeJSON(l, http.StatusInternalServerError, J{"result": "error", "msg": "Internal server error", "code": domain.CodeBadRequest})
		}
		// A handler that wrote nothing still answers (net/http's empty 200).
		l.secure()
		a.logRequest(l, r, start)
	}()
	a.mux.ServeHTTP(l, r)
}

// securityHeaders go on every answer: nothing is sniffed into another type,
// framed by another site or leaks its address in Referer; API answers are
// private to the user and never cached. A handler's own value for one of
// them stands.
func securityHeaders(h http.Header, api bool) {
	setAbsent(h, "X-Content-Type-Options", nosniff)
	setAbsent(h, "X-Frame-Options", denyFraming)
	setAbsent(h, "Referrer-Policy", noReferrer)
	if api {
		setAbsent(h, "Cache-Control", noStore)
	}
}

func setAbsent(h http.Header, key string, values []string) {
	if _, ok := h[key]; !ok {
		h[key] = values
	}
}

// Header values most answers carry, each list shared by all of them:
// nothing here or in net/http writes into a header's list (Set replaces
// it, Add appends, which copies a full list), and Set allocated a list per
// header per request.
var (
	nosniff            = []string{"nosniff"}
	denyFraming        = []string{"DENY"}
	noReferrer         = []string{"no-referrer"}
	noStore            = []string{"no-store"}
	jsonContentType    = []string{"application/json"}
	varyAcceptEncoding = []string{"Accept-Encoding"}
)

// dispatch picks the route for the request's method among those sharing a
// path, answering 405 with the allowed methods otherwise.
func (a *API) dispatch(routes []route) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		method := r.Method
		if method == http.MethodHead {
			method = http.MethodGet
		}
		i := slices.IndexFunc(routes, func(rt route) bool { return rt.method == method })
		if i < 0 {
			allowed := make([]string, len(routes))
			for j, rt := range routes {
				allowed[j] = rt.method
			}
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			writeError(w, r, &statusError{http.StatusMethodNotAllowed,
				domain.BadRequest("Method Not Allowed").With("allowed_methods", allowed)})
			return
		}
		a.serve(w, r, routes[i])
	}
}

func (a *API) serve(w http.ResponseWriter, r *http.Request, rt route) {
	limit := rt.maxBody
	if limit == 0 {
		limit = defaultMaxBody
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if rt.browserForm && !fromThisSite(r) {
		writeError(w, r, domain.ErrBadCSRF)
		return
	}
	c := &call{api: a, r: r, w: w}
	if rt.auth == authWebhook {
		recordWebhook(w, r.PathValue("integration"))
	}
	addr := clientAddress(r)
	if rt.auth != authNone {
		u, err := a.authenticate(r, rt.auth)
		if err != nil {
			writeError(w, r, a.failure(w, addr, err))
			return
		}
		recordCaller(w, u)
		if err := domain.CheckRouteAccess(u, rt.webhookBots); err != nil {
			writeError(w, r, err)
			return
		}
		if _, wait, blocked := a.requests.take(strconv.FormatInt(u.ID, 10)); blocked {
			writeError(w, r, rateLimited(w, wait))
			return
		}
		c.user = u
	}
	rc := http.NewResponseController(w)
	if rt.upload {
		person := domain.PersonOf(c.user)
		if !a.uploads.take(r.Context(), person, 0) {
			// Closing tells the client to stop sending the file.
			w.Header().Set("Connection", "close")
			writeError(w, r, rateLimited(w, uploadsRetryWait))
			return
		}
		defer a.uploads.give(person)
		// Only after authentication: a stranger's body gets the server's
		// read timeout. The deadline bounds the whole body, however it is
		// trickled, so a slot is held for that long at most.
		rc.SetReadDeadline(time.Now().Add(a.opts.UploadReadTimeout))
	}
	if rt.heavy {
		person := domain.PersonOf(c.user)
		if !a.heavy.take(r.Context(), person, heavyReadWait) {
			writeError(w, r, rateLimited(w, time.Second))
			return
		}
		defer a.heavy.give(person)
	}
	p, err := parseParams(r, rt.upload)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if rt.upload {
		p.files.pace, p.files.person = a.uploadPace, domain.PersonOf(c.user)
	}
	c.p = p
	if rt.longLived {
		rc.SetReadDeadline(time.Time{})
	}
	// A password check is slow: its attempt is counted before it runs, and
	// given back unless it failed.
	var attempt time.Time
	if rt.login {
		var wait time.Duration
		var blocked bool
		if attempt, wait, blocked = a.failures.take(addr); blocked {
			recordLoginFailure(w, a.failures.count(addr), a.failures.firstBlock(addr))
			writeError(w, r, rateLimited(w, wait))
			return
		}
	}
	var res J
	if rt.heavy || rt.upload {
		niced(func() { res, err = rt.handle(c) })
	} else {
		res, err = rt.handle(c)
	}
	if rt.login {
		if isCredentialFailure(err) {
			recordLoginFailure(w, a.failures.count(addr), true)
		} else {
			a.failures.release(addr, attempt)
		}
	}
	switch {
	case err != nil:
		writeError(w, r, err)
	case !c.wrote && rt.auth == authWebhook:
		// A webhook's parameters are its integration's, as in Zulip.
		writeSuccess(w, res)
	case !c.wrote:
		writeSuccess(w, withIgnored(res, p))
	}
}

// failure counts a wrong key against the address, answering 429 instead
// once the address is over its limit. Valid credentials are never limited
// by it: only failures are.
func (a *API) failure(w http.ResponseWriter, addr string, err error) error {
	if !isCredentialFailure(err) {
		return err
	}
	_, wait, blocked := a.failures.take(addr)
	recordLoginFailure(w, a.failures.count(addr), !blocked || a.failures.firstBlock(addr))
	if blocked {
		return rateLimited(w, wait)
	}
	return err
}

// authenticate resolves HTTP Basic credentials (API clients), a webhook's
// api_key parameter, or a session cookie (the web UI) to an active account.
func (a *API) authenticate(r *http.Request, kind auth) (store.User, error) {
	if email, key, ok := basicAuth(r); ok {
		return a.svc.Authenticate(email, key)
	}
	if kind == authWebhook {
		if key := r.URL.Query().Get("api_key"); key != "" {
			return a.svc.AuthenticateKey(key)
		}
		return store.User{}, domain.ErrNoAuth
	}
	if u, present, err := a.sessionAuth(r); present {
		return u, err
	}
	return store.User{}, domain.ErrNoAuth
}

// basicAuth is r.BasicAuth made lenient about the scheme's case, as some
// clients send "basic".
func basicAuth(r *http.Request) (user, pass string, ok bool) {
	h := r.Header.Get("Authorization")
	scheme, enc, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "", "", false
	}
	user, pass, ok = strings.Cut(string(dec), ":")
	return user, pass, ok
}

// realmURL is the organization's address as clients should use it.
func (a *API) realmURL(r *http.Request) string {
	if a.opts.BaseURL != "" {
		return strings.TrimRight(a.opts.BaseURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
