// Package server is the host lifecycle shared by the headless lanchatd and
// the desktop app: open the store, prepare the organization, serve HTTP on
// the LAN, and shut down cleanly.
package server

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"lanchat/backend/api"
	"lanchat/backend/archive/zulip"
	"lanchat/backend/backup"
	"lanchat/backend/discovery"
	"lanchat/backend/domain"
	"lanchat/backend/events"
	"lanchat/backend/logring"
	"lanchat/backend/safefile"
	"lanchat/backend/store"
)

// Config is what the host chooses at start-up.
type Config struct {
	Addr    string // listen address, e.g. 0.0.0.0:9991 (port 0 picks one)
	DataDir string // holds the database and uploaded files
	Dev     bool   // seed the demo organization and enable dev login
	BaseURL string // public address of the organization; empty: the one clients use
	// Events bounds event queues; zero means the defaults (tests shorten them).
	Events events.Settings
	// ReadTimeout bounds reading a request, body included, and IdleTimeout
	// a keep-alive connection's wait for the next one; zero means
	// DefaultReadTimeout and DefaultIdleTimeout (see api.Options for the
	// routes that read longer).
	ReadTimeout, IdleTimeout time.Duration
	// UploadReadTimeout bounds reading an upload's whole body, and
	// DownloadWriteTimeout each write of a file sent (zero: the API's
	// defaults; tests shorten them).
	UploadReadTimeout, DownloadWriteTimeout time.Duration
	// DeliveryWriteTimeout bounds each write of events to a long-poll or
	// WebSocket (zero: the API's default; tests shorten it).
	DeliveryWriteTimeout time.Duration
	// LoginFailuresPerMinute and RequestsPerMinute are the HTTP rate limits
	// (see api.Options).
	LoginFailuresPerMinute, RequestsPerMinute int
	// MaxEmojiFileSize bounds custom emoji images, in bytes (0: 5 MiB).
	MaxEmojiFileSize int64
	// MaxUploadSize bounds uploaded files, in bytes (0: 25 MiB).
	MaxUploadSize int64
	// TLS is how HTTPS is served beside plain HTTP on the same port (""
	// is off); TLSFiles reads TLSCert and TLSKey (PEM).
	TLS             TLSMode
	TLSCert, TLSKey string
	// Advertise announces the organization on the local network by DNS-SD
	// (discovery.Service) while Run serves.
	Advertise bool
	// Log gets the request log and the host's own warnings; nil means
	// slog.Default().
	Log *slog.Logger
	// UploadQuota bounds each user's uploaded files together, in bytes (0:
	// domain.DefaultUploadQuota, negative: no limit).
	UploadQuota int64
	// MaxImportSize bounds an export archive an owner uploads to replace
	// the organization (0: api.DefaultMaxImportSize).
	MaxImportSize int64
	// NtfyAddr is where phones subscribe to their notifications (ntfy's
	// protocol, ntfy.go); "" serves none.
	NtfyAddr string
}

// recentErrors is how many warnings and errors RecentErrors keeps.
const recentErrors = 100

// Slow clients: a request must arrive whole within DefaultReadTimeout
// (long-polls, the WebSocket and uploads are given their own bounds by the
// API), and a keep-alive connection may wait DefaultIdleTimeout for its
// next request.
const (
	DefaultReadTimeout = 20 * time.Second
	DefaultIdleTimeout = 30 * time.Second
)

// ShutdownTimeout bounds how long in-flight requests may take to finish.
const ShutdownTimeout = 10 * time.Second

// Server is an opened, not yet listening, Lanchat host.
type Server struct {
	cfg Config
	// mu guards org: requests and backups hold it shared while they use
	// the organization, an import's swap exclusively (import.go).
	mu   sync.RWMutex
	org  *organization
	http *http.Server
	// ctx ends with the server: an import running then is abandoned
	// (imports waits for it), as are requests (BaseContext).
	ctx  context.Context
	stop context.CancelFunc
	// imports is the import replacing the organization, if any.
	imports importer
	// control serves host commands on the data directory's socket.
	control *http.Server
	// handler is the API and UI, which http serves.
	handler http.Handler
	// phones serves people's phone notifications (ntfy.go); phonesOnce
	// starts its listener with the first Serve.
	phones     *phones
	phonesOnce sync.Once
	log        *slog.Logger
	// recent remembers what log wrote at warning level and above.
	recent *logring.Ring
	// httpErrors is the HTTP server's error log.
	httpErrors *httpErrors
	// tls serves HTTPS beside plain HTTP; nil: plain only.
	tls *tls.Config
	// authority is the certificate offered at AuthorityPath (automatic
	// TLS only).
	authority []byte
	// advert answers DNS-SD queries while the host serves (Advertise).
	advert *discovery.Advertisement
}

// organization is what the server serves from its data directory: the
// store, the service over it and the API. stop ends its background work
// when the server stops or an import replaces it.
type organization struct {
	store   *store.Store
	svc     *domain.Service
	handler http.Handler
	stop    context.CancelFunc
}

// end stops the organization's background work and ends its long-polls and
// WebSockets (their event queues go with it), so that the requests under
// it finish. Requests are not bound to it otherwise: a context per request
// was a tenth of a long-poll answer's cost, for a swap that happens once.
func (o *organization) end() {
	o.stop()
	o.svc.CloseEventQueues()
}

// Open opens the data directory and prepares the organization: the demo
// organization on an empty development store, else a default-named one.
func Open(cfg Config) (*Server, error) {
	if err := privateDir(cfg.DataDir); err != nil {
		return nil, err
	}
	recent := logring.New(recentErrors, slog.LevelWarn)
	log := slog.New(recent.Handler(cmp.Or(cfg.Log, slog.Default()).Handler()))
	tlsConfig, authority, err := openTLS(cfg, log)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{
		cfg:        cfg,
		ctx:        ctx,
		stop:       stop,
		log:        log,
		recent:     recent,
		httpErrors: &httpErrors{log: log},
		tls:        tlsConfig,
		authority:  authority,
	}
	s.phones = newPhones(s)
	if s.org, err = s.openOrganization(); err != nil {
		stop()
		return nil, err
	}
	var handler http.Handler = http.HandlerFunc(s.serveOrganization)
	if authority != nil {
		handler = offerAuthority(authority, handler)
	}
	s.handler = handler
	s.http = &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cmp.Or(cfg.ReadTimeout, DefaultReadTimeout),
		IdleTimeout:       cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout),
		ErrorLog:          s.httpErrors.logger(),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if err := s.listenControl(); err != nil {
		// Backups then open the store directly (bbolt allows shared
		// readers of a read-only store).
		log.Warn("no control socket: lanchatd backup cannot reach this server", "err", err)
	}
	return s, nil
}

// openOrganization opens the store in the data directory, prepares it and
// builds the service and API over it.
func (s *Server) openOrganization() (*organization, error) {
	cfg := s.cfg
	// Tuned after opening: a schema migration holds the whole store in
	// memory once, which the soft limit would make the collector chase.
	st, err := store.Open(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	tuneGC()
	tuneProcs()
	svc := domain.New(st, domain.Config{Dev: cfg.Dev, DataDir: cfg.DataDir, Events: cfg.Events, MaxEmojiFileSize: cfg.MaxEmojiFileSize, MaxUploadSize: cfg.MaxUploadSize, UploadQuota: cfg.UploadQuota})
	svc.SetPhoneNotifier(s.phones.hub)
	// Only an empty store is written at start-up, so a read-only data
	// directory with an organization still starts and serves reads.
	initialized, err := svc.RealmInitialized()
	switch {
	case err != nil:
	case initialized:
	case cfg.Dev:
		err = svc.SeedDevOrganization()
	default:
		err = svc.EnsureRealm(domain.DefaultRealmName)
	}
	if err == nil {
		err = svc.RestoreEventQueues()
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	if st.ReadOnly() {
		s.log.Warn("the data directory is read-only: serving reads, refusing writes", "dir", cfg.DataDir)
	} else {
		// The store's lock proves no other server writes files here.
		for _, dir := range backup.FileDirs {
			switch removed, err := safefile.RemoveLeftovers(filepath.Join(cfg.DataDir, dir)); {
			case err != nil:
				s.log.Warn("cannot remove the partial files of writes a crash cut short", "dir", dir, "err", err)
			case removed > 0:
				s.log.Info("removed the partial files of writes a crash cut short", "dir", dir, "files", removed)
			}
		}
	}
	handler := api.New(svc, api.Options{BaseURL: cfg.BaseURL, Log: s.log, Importer: s, MaxImportSize: cfg.MaxImportSize,
		LoginFailuresPerMinute: cfg.LoginFailuresPerMinute, RequestsPerMinute: cfg.RequestsPerMinute,
		UploadReadTimeout: cfg.UploadReadTimeout, DownloadWriteTimeout: cfg.DownloadWriteTimeout, DeliveryWriteTimeout: cfg.DeliveryWriteTimeout,
		NtfyPort: s.NtfyPort})
	ctx, cancel := context.WithCancel(s.ctx)
	go svc.RunEventQueues(ctx)
	go svc.RunScheduledMessages(ctx)
	return &organization{store: st, svc: svc, handler: handler, stop: cancel}, nil
}

// serveOrganization serves a request with the organization; while an
// import swaps it, or once the server is stopping, with a 503 that says
// so.
func (s *Server) serveOrganization(w http.ResponseWriter, r *http.Request) {
	if s.ctx.Err() != nil {
		api.WriteUnavailable(w, r, "This server is shutting down.")
		return
	}
	if s.imports.swapping.Load() || !s.mu.TryRLock() {
		api.WriteUnavailable(w, r, "This organization is being replaced by an import: try again in a moment.")
		return
	}
	defer s.mu.RUnlock()
	s.org.handler.ServeHTTP(w, r)
}

// Service is the organization's domain service (the host's own actions).
func (s *Server) Service() *domain.Service {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.org.svc
}

// Store is the organization's store.
func (s *Server) Store() *store.Store {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.org.store
}

// Backup writes the organization's backup archive (backup.Write); an
// import waits for it before replacing the organization.
func (s *Server) Backup(w io.Writer, progress backup.Progress) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return backup.Write(w, s.org.store, s.cfg.DataDir, progress)
}

// ExportZulip writes the organization as Zulip's export (zulip.Write),
// its tarball holding one folder named folder; an import waits for it
// before replacing the organization.
func (s *Server) ExportZulip(w io.Writer, folder string) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return zulip.Write(w, s.org.store, s.cfg.DataDir, folder)
}

// Listen binds the configured address and returns the bound one (useful
// with port 0).
func (s *Server) Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		// net's error names the address already.
		if opErr := (*net.OpError)(nil); errors.As(err, &opErr) {
			err = opErr.Err
		}
		return nil, fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	return ln, nil
}

// Serve answers requests on ln until Shutdown: plain HTTP, and HTTPS on
// the same port when TLS is configured.
func (s *Server) Serve(ln net.Listener) error {
	s.phonesOnce.Do(func() { s.listenPhones(ln.Addr()) })
	if s.tls != nil {
		return s.serveBoth(ln)
	}
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// RecentErrors are the last warnings and errors logged (refused
// webhooks, failed requests, the host's own trouble), newest first.
func (s *Server) RecentErrors() []logring.Entry { return s.recent.Entries() }

// Handler is the HTTP API and UI, for hosts that serve it themselves too
// (the desktop window's asset server, which has no connection to take
// over).
func (s *Server) Handler() http.Handler { return s.handler }

// SetupToken is the first-run setup secret, or "" once an owner exists.
func (s *Server) SetupToken() string { return s.Service().SetupToken() }

// Addresses are where a host listening on addr is reached.
type Addresses struct {
	URL string // http://HOST:PORT as bound
	// SecureURL is the same port over HTTPS, on this machine ("" without TLS).
	SecureURL string
	// AuthorityURL offers the certificate to install ("" unless automatic
	// TLS), and Fingerprint is its fingerprint, which members compare.
	AuthorityURL, Fingerprint string
	// SetupURL opens first-run setup from this machine ("" once an owner exists).
	SetupURL string
}

// Addresses tells where a host listening on addr is reached.
func (s *Server) Addresses(addr net.Addr) Addresses {
	a := Addresses{URL: "http://" + addr.String()}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return a
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	local := net.JoinHostPort(host, port)
	if s.tls != nil {
		a.SecureURL = "https://" + local
	}
	if s.authority != nil {
		a.AuthorityURL = "http://" + local + AuthorityPath
		a.Fingerprint = s.AuthorityFingerprint()
	}
	if token := s.SetupToken(); token != "" {
		a.SetupURL = "http://" + local + "/#setup=" + token
	}
	return a
}

// Announce prints where the host is reached, for people and for scripts
// and tests, which wait for the exact "listening on" line.
func (a Addresses) Announce(w io.Writer) {
	fmt.Fprintln(w, "listening on "+a.URL)
	if a.SecureURL != "" {
		fmt.Fprintln(w, "HTTPS on the same port: "+a.SecureURL)
	}
	if a.AuthorityURL != "" {
		fmt.Fprintln(w, "certificate authority to install on devices: "+a.AuthorityURL+" (fingerprint "+a.Fingerprint+", which members compare when they join)")
	}
	if a.SetupURL != "" {
		fmt.Fprintln(w, "no owner yet: open "+a.SetupURL+" on this machine to set up the organization")
	}
}

// Advertise announces the organization, by its current name, on the local
// network by DNS-SD until Shutdown, with its authority's fingerprint (for
// people to compare) and the URL to join at: at the
// address the server is bound to, or, when it listens on all, at this
// machine's LAN addresses of the moment (none while it has none). A server
// bound to loopback is not announced: nobody who hears it could reach it.
func (s *Server) Advertise(addr *net.TCPAddr) error {
	if addr.IP.IsLoopback() {
		return fmt.Errorf("it listens only on %s, which no other machine reaches (listen on 0.0.0.0:%d to be found)", addr, addr.Port)
	}
	scheme := "http://"
	if s.tls != nil {
		scheme = "https://"
	}
	authority := s.AuthorityFingerprint()
	team := func() (discovery.Team, []net.IP) {
		ips := []net.IP{addr.IP}
		if addr.IP.IsUnspecified() {
			ifaces, _ := net.InterfaceAddrs()
			if ips = discovery.LANIPs(ifaces); len(ips) == 0 {
				return discovery.Team{}, nil
			}
		}
		t := discovery.Team{URL: scheme + net.JoinHostPort(ips[0].String(), strconv.Itoa(addr.Port)), Name: domain.DefaultRealmName, Authority: authority}
		if settings, err := s.Service().ServerSettings(t.URL); err == nil {
			if n, ok := settings["realm_name"].(string); ok {
				t.Name = n
			}
		}
		return t, ips
	}
	advert, err := discovery.Advertise(addr.Port, team)
	if err != nil {
		return err
	}
	s.advert = advert
	return nil
}

// Shutdown lets in-flight requests finish, abandons a running import,
// then closes the store.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.advert != nil {
		s.advert.Stop()
	}
	s.stop()
	// Long-polls hold the organization shared, and the window's own reach
	// the handler in-process, where http.Server's Shutdown cannot end
	// them: answer them before waiting for them. Their queues stay, for
	// the next start.
	s.mu.RLock()
	s.org.svc.StopEventQueues()
	s.mu.RUnlock()
	httpErr := s.http.Shutdown(ctx)
	// Requests still reading a slow body would hold the organization (and
	// so the store's closing) until their own read timeout, minutes for an
	// upload: past ctx their connections are cut.
	httpErr = cutOffPastDeadline(s.http, httpErr)
	s.phones.http.Shutdown(ctx)
	s.phones.hub.RevokeAll() // its subscriptions' connections are its own
	s.httpErrors.flush()
	s.imports.running.Wait()
	var controlErr error
	if s.control != nil {
		// A backup whose reader stopped reading would hold the
		// organization for ever.
		controlErr = cutOffPastDeadline(s.control, s.control.Shutdown(ctx))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	storeErr := s.org.store.Close()
	return errors.Join(httpErr, controlErr, storeErr)
}

// cutOffPastDeadline closes the connections srv still has open when its
// graceful Shutdown ended with shutdownErr (its deadline passed), so that
// their handlers end, and says so.
func cutOffPastDeadline(srv *http.Server, shutdownErr error) error {
	if shutdownErr == nil {
		return nil
	}
	srv.Close()
	return fmt.Errorf("connections still open at the shutdown deadline were cut off: %w", shutdownErr)
}

// Stop is Shutdown with the log saying so: "stopping" with why (key-value
// pairs, as slog takes them), then "stopped" with how long it took, for an
// operator (or a service manager's journal) to see that it ended.
func (s *Server) Stop(ctx context.Context, why ...any) error {
	start := time.Now()
	s.log.Info("stopping", why...)
	err := s.Shutdown(ctx)
	s.log.Info("stopped", "took", time.Since(start).Round(time.Millisecond))
	return err
}

// StopSignal is the cause to cancel Run's context with when a signal
// stops the host, for the log to name it.
type StopSignal struct{ os.Signal }

func (c StopSignal) Error() string { return c.Signal.String() }

// Run opens, listens, calls ready with where the host is reached, and
// serves until ctx is cancelled, then shuts down gracefully (Stop, naming
// the StopSignal ctx was cancelled with, if any).
func Run(ctx context.Context, cfg Config, ready func(Addresses)) error {
	s, err := Open(cfg)
	if err != nil {
		return err
	}
	ln, err := s.Listen()
	if err != nil {
		s.Shutdown(context.Background())
		return err
	}
	if cfg.Advertise {
		if err := s.Advertise(ln.Addr().(*net.TCPAddr)); err != nil {
			s.log.Warn("not advertised on the network (DNS-SD)", "err", err)
		}
	}
	ready(s.Addresses(ln.Addr()))
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	select {
	case err = <-served:
		s.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	var why []any
	if sig, ok := context.Cause(ctx).(StopSignal); ok {
		why = []any{"signal", sig.String()}
	}
	err = s.Stop(shutdownCtx, why...)
	<-served
	return err
}
