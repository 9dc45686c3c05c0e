package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"

	"lanchat/backend/server"
	"lanchat/backend/store"
)

// Options are the desktop app's command-line choices.
type Options struct {
	Addr    string
	DataDir string
	Dev     bool
	// TLS is off or auto (the desktop default: browsers allow
	// notifications only over HTTPS, and plain HTTP stays on the port).
	TLS server.TLSMode
	// Advertise announces a hosted organization by DNS-SD, so that
	// others' apps list it under "Join a team".
	Advertise bool
	// NtfyAddr is where phones subscribe to notifications (resolved
	// --ntfy-addr; "" none).
	NtfyAddr string
}

// Run shows the window: the chat of the team this app hosts, or of the
// team it joined (it then hosts nothing and opens no port), or on first
// launch a choice between hosting a new team and joining one. Without a
// display it hosts headless until SIGINT or SIGTERM.
func Run(opts Options, stderr io.Writer) error {
	// From the start, so that a signal during start-up still shuts down
	// what has started.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := newApp(opts, stderr)
	display := hasDisplay(os.Getenv)
	var closed atomic.Bool // the window is gone: this copy is quitting
	if display {
		inst, err := claimInstance(opts.DataDir, server.ShutdownTimeout+5*time.Second, func(startupID string) error {
			if closed.Load() || ctx.Err() != nil {
				return errors.New("quitting")
			}
			presentWindow(startupID)
			return nil
		})
		switch {
		case errors.Is(err, errAlreadyRunning):
			fmt.Fprintf(stderr, "Lanchat already runs on %s: its window was brought forward\n", opts.DataDir)
			return nil
		case err != nil:
			fmt.Fprintln(stderr, "cannot tell whether Lanchat already runs on this data folder:", err)
		default:
			defer inst.release()
		}
	}
	joined, err := loadMembership(opts.DataDir)
	if err != nil && !display {
		return err
	}
	switch {
	case err != nil:
		// The window says what is wrong and offers a way on.
		a.membershipUnreadable(err)
		err = nil
	case joined != nil && display:
		err = a.join(joined)
	case !display || opts.Dev || hosted(opts.DataDir):
		err = a.startHost()
	default:
		a.show(welcome)
	}
	if err != nil {
		if display {
			// Said in a window until the person closes it.
			a.show(problemPage(opts.DataDir, err))
			a.runWindow(ctx, err)
			closed.Store(true)
		}
		return err
	}
	var runErr error
	if display {
		runErr = a.runWindow(ctx, nil)
		closed.Store(true)
	} else {
		fmt.Fprintln(stderr, "no display (DISPLAY and WAYLAND_DISPLAY are unset): serving headless; press Ctrl+C to stop")
		select {
		case <-ctx.Done():
		case runErr = <-a.served:
		}
	}
	return errors.Join(runErr, a.shutdown())
}

// windowGrace is how long a signal waits for the window to close (a
// running window takes about 0.1 s). GTK cannot be asked to until its
// main loop runs, and building the window before it took over 6 s on a
// loaded machine, longer than the 5 s in which the app is to end.
const windowGrace = time.Second

// runWindow shows the window until it is closed, or until ctx ends and
// it closes. If it has not closed windowGrace after ctx ended, the app
// shuts down without it and the process ends here, with the status main
// gives the error Run returns: failure, or shutdown's (stderr is closed
// first if it closes: main's batched log).
func (a *App) runWindow(ctx context.Context, failure error) error {
	closed := make(chan struct{})
	defer close(closed)
	go func() {
		select {
		case <-closed:
			return
		case <-ctx.Done():
		}
		select {
		case <-closed:
			return
		case <-time.After(windowGrace):
		}
		fmt.Fprintf(a.stderr, "the window did not close within %s of the signal (still starting): quitting without it\n", windowGrace)
		status := 0
		if err := errors.Join(failure, a.shutdown()); err != nil {
			fmt.Fprintln(a.stderr, "lanchat:", err)
			status = 1
		}
		if c, ok := a.stderr.(io.Closer); ok {
			c.Close()
		}
		os.Exit(status)
	}()
	return showWindow(ctx, a, a)
}

func newApp(opts Options, stderr io.Writer) *App {
	a := &App{opts: opts, dataDir: opts.DataDir, stderr: stderr,
		connectBus: func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() }}
	a.quitting, a.quit = context.WithCancel(context.Background())
	return a
}

// hosted tells whether dir holds an organization this app hosts.
func hosted(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, store.FileName))
	return err == nil
}

// ServeHTTP serves the window's page: the hosted or joined team's, or the
// first launch's choice.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*a.page.Load()).ServeHTTP(w, r)
}

func (a *App) show(h http.Handler) {
	a.stopWatchingTeams() // the welcome page is gone, or about to load again
	a.page.Store(&h)
}

// startHost opens the organization in the data folder, serves it on the
// LAN and shows it in the window.
func (a *App) startHost() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.srv != nil {
		return nil
	}
	if a.joined != "" {
		return errors.New("this app has joined " + a.joined + ": it hosts nothing")
	}
	srv, err := server.Open(server.Config{Addr: a.opts.Addr, DataDir: a.opts.DataDir, Dev: a.opts.Dev, TLS: a.opts.TLS, NtfyAddr: a.opts.NtfyAddr})
	if err != nil {
		return err
	}
	ln, err := listen(a.opts.Addr, a.stderr)
	if err != nil {
		srv.Shutdown(context.Background())
		return err
	}
	a.bound = ln.Addr().(*net.TCPAddr)
	if a.opts.Advertise {
		if err := srv.Advertise(a.bound); err != nil {
			fmt.Fprintln(a.stderr, "not advertised on the network (DNS-SD):", err)
		}
	}
	addrs := srv.Addresses(ln.Addr())
	addrs.Announce(a.stderr)
	a.secure, a.authority = addrs.SecureURL != "", addrs.AuthorityURL != ""
	a.served = make(chan error, 1)
	go func() { a.served <- srv.Serve(ln) }()
	a.srv = srv
	a.show(srv.Handler())
	return nil
}

// shutdown ends a running import (waiting until it has cleaned up) and
// stops hosting, if this app hosts. It does so once: Run and a window
// that does not close (runWindow) may both call it, and both get its
// error.
func (a *App) shutdown() error {
	a.stopOnce.Do(func() { a.stopErr = a.stop() })
	return a.stopErr
}

func (a *App) stop() error {
	a.mu.Lock()
	a.quit()
	a.mu.Unlock()
	a.imports.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), server.ShutdownTimeout)
	defer cancel()
	return a.srv.Stop(ctx, "reason", "the app is quitting")
}

// listen binds addr, or a free port on the same host when it is taken, so
// a second copy or a busy port does not stop the app.
func listen(addr string, stderr io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) {
		return ln, err
	}
	host, _, _ := net.SplitHostPort(addr)
	fmt.Fprintf(stderr, "%s is in use; picking a free port\n", addr)
	return net.Listen("tcp", net.JoinHostPort(host, "0"))
}
