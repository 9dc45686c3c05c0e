package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/godbus/dbus/v5"

	"lanchat/backend/server"
)

// Options are the desktop app's command-line choices.
type Options struct {
	Addr    string
	DataDir string
	Dev     bool
	// TLS is off or auto (the desktop default: browsers allow
	// notifications only over HTTPS, and plain HTTP stays on the port).
	TLS server.TLSMode
}

// Run serves the organization on the LAN and shows the window; without a
// display it says so and keeps serving until SIGINT or SIGTERM.
func Run(opts Options, stderr io.Writer) error {
	srv, err := server.Open(server.Config{Addr: opts.Addr, DataDir: opts.DataDir, Dev: opts.Dev, TLS: opts.TLS})
	if err != nil {
		return err
	}
	ln, err := listen(opts.Addr, stderr)
	if err != nil {
		srv.Shutdown(context.Background())
		return err
	}
	addrs := srv.Addresses(ln.Addr())
	addrs.Announce(stderr)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	a := &App{srv: srv, dataDir: opts.DataDir, bound: ln.Addr().(*net.TCPAddr), secure: addrs.SecureURL != "", authority: addrs.AuthorityURL != "",
		connectBus: func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() }}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var runErr error
	if hasDisplay(os.Getenv) {
		runErr = showWindow(ctx, a, srv.Handler())
	} else {
		fmt.Fprintln(stderr, "no display (DISPLAY and WAYLAND_DISPLAY are unset): serving headless; press Ctrl+C to stop")
		select {
		case <-ctx.Done():
		case runErr = <-served:
		}
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), server.ShutdownTimeout)
	defer cancel()
	return errors.Join(runErr, srv.Shutdown(shutdownCtx))
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
