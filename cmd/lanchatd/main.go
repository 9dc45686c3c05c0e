// Command lanchatd is Lanchat's headless server: the same API and UI as the
// desktop app, for machines without a display. It builds without cgo.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"lanchat/backend/api"
	"lanchat/backend/domain"
	"lanchat/backend/events"
	"lanchat/backend/logbuffer"
	"lanchat/backend/server"
	"lanchat/backend/store"
)

const usage = `usage:
  lanchatd serve --addr HOST:PORT --data DIR [--dev] [--base-url URL] [--pprof ADDR] [--log-format text|json]
                 [--tls off|auto | --tls-cert FILE --tls-key FILE] [--advertise]
  lanchatd user add --data DIR --email E --name N [--admin|--guest] [--password P]
  lanchatd backup --data DIR FILE     (while the server runs, or not)
  lanchatd restore --data DIR FILE    (into an empty DIR, server stopped)
  lanchatd import --data DIR --from slack|mattermost|zulip [--name NAME] FILE
                 (into an empty DIR, server stopped; NAME: the organization's, else the export's own)
  lanchatd export --data DIR --format zulip FILE   (Zulip's organization export, a tar.gz; server running or not)
`

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lanchatd:", err)
		os.Exit(exitCode(err))
	}
}

// errUsage marks mistakes in the command line (exit status 2).
var errUsage = errors.New("bad usage")

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

func run(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return serve(args[1:], stderr)
	case len(args) >= 2 && args[0] == "user" && args[1] == "add":
		return userAdd(args[2:], stdout, stderr)
	case len(args) >= 1 && args[0] == "backup":
		return backupCmd(args[1:], stderr)
	case len(args) >= 1 && args[0] == "restore":
		return restoreCmd(args[1:], stderr)
	case len(args) >= 1 && args[0] == "import":
		return importCmd(args[1:], stdout, stderr)
	case len(args) >= 1 && args[0] == "export":
		return exportCmd(args[1:], stderr)
	case len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help"):
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return errUsage
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

func serve(args []string, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	var cfg server.Config
	fs.StringVar(&cfg.Addr, "addr", "0.0.0.0:9991", "listen address HOST:PORT (port 0 picks a free one)")
	fs.StringVar(&cfg.DataDir, "data", "", "data directory (created when absent)")
	fs.BoolVar(&cfg.Dev, "dev", false, "development server: demo organization and dev login")
	fs.StringVar(&cfg.BaseURL, "base-url", "", "public URL of the organization (default: the address clients use)")
	fs.IntVar(&cfg.LoginFailuresPerMinute, "login-failures", api.DefaultLoginFailuresPerMinute, "wrong passwords or API keys allowed per client address per minute (-1: no limit)")
	fs.IntVar(&cfg.RequestsPerMinute, "rate-limit", 0, "API requests allowed per user per minute (0: no limit)")
	fs.Int64Var(&cfg.MaxEmojiFileSize, "max-emoji-file-size", domain.DefaultMaxEmojiFileSize, "largest custom emoji image, in bytes (MAX_EMOJI_FILE_SIZE)")
	fs.Int64Var(&cfg.MaxUploadSize, "max-upload-size", domain.DefaultMaxUploadSize, "largest uploaded file, in bytes")
	fs.Int64Var(&cfg.MaxImportSize, "max-import-size", api.DefaultMaxImportSize, "largest export archive an owner may upload to import, in bytes")
	fs.Int64Var(&cfg.UploadQuota, "upload-quota", domain.DefaultUploadQuota, "each user's uploaded files together, in bytes (-1: no limit)")
	cfg.Events = events.DefaultSettings
	fs.IntVar(&cfg.Events.MaxQueuesPerUser, "max-queues-per-user", events.DefaultSettings.MaxQueuesPerUser, "event queues per user; one more drops the user's least recently read (0: no limit)")
	tlsMode := fs.String("tls", "off", "HTTPS beside plain HTTP on the same port: off, or auto (the host's own certificate authority, in DIR/tls)")
	fs.StringVar(&cfg.TLSCert, "tls-cert", "", "HTTPS with this certificate (PEM, with its chain), beside plain HTTP on the same port")
	fs.StringVar(&cfg.TLSKey, "tls-key", "", "the private key (PEM) of --tls-cert")
	fs.BoolVar(&cfg.Advertise, "advertise", false, "announce the organization on the local network by DNS-SD (_lanchat._tcp), for the desktop app's Join a team")
	ntfyAddr := fs.String("ntfy-addr", "auto", server.NtfyAddrFlag)
	pprofAddr := fs.String("pprof", "", "serve Go's profiler on this address (keep it on loopback)")
	logFormat := fs.String("log-format", "text", "log lines (one per request, and the host's warnings) as text or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	// A line per request, long-polls included, through slog's own
	// handlers, buffered (backend/logbuffer).
	logs := logbuffer.New(stderr)
	defer logs.Flush()
	stderr = logs
	switch *logFormat {
	case "text":
		cfg.Log = slog.New(slog.NewTextHandler(stderr, nil))
	case "json":
		cfg.Log = slog.New(slog.NewJSONHandler(stderr, nil))
	default:
		return fmt.Errorf("%w: --log-format is text or json, not %q", errUsage, *logFormat)
	}
	switch {
	case (cfg.TLSCert == "") != (cfg.TLSKey == ""):
		return fmt.Errorf("%w: --tls-cert and --tls-key go together", errUsage)
	case cfg.TLSCert != "" && *tlsMode != "off":
		return fmt.Errorf("%w: --tls-cert and --tls %s exclude each other", errUsage, *tlsMode)
	case cfg.TLSCert != "":
		cfg.TLS = server.TLSFiles
	case *tlsMode == "off" || *tlsMode == "auto":
		cfg.TLS = server.TLSMode(*tlsMode)
	default:
		return fmt.Errorf("%w: --tls is off or auto, not %q", errUsage, *tlsMode)
	}
	cfg.NtfyAddr = server.ResolveNtfyAddr(*ntfyAddr, cfg.Addr)
	// What logs outside the server's own logger keeps the same format.
	slog.SetDefault(cfg.Log)
	if cfg.DataDir == "" {
		return fmt.Errorf("%w: --data is required", errUsage)
	}
	if *pprofAddr != "" {
		if err := servePprof(*pprofAddr, stderr); err != nil {
			return err
		}
	}
	// A signal stops the server, which logs it (server.Stop); SIGHUP too,
	// which a closed terminal or a dropped SSH session sends, and which
	// would otherwise end it abruptly.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(signals)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		select {
		case sig := <-signals:
			cancel(server.StopSignal{Signal: sig})
		case <-ctx.Done():
		}
	}()
	return server.Run(ctx, cfg, func(a server.Addresses) { a.Announce(stderr) })
}

func userAdd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("user add", stderr)
	var dataDir string
	var n domain.NewUser
	var admin, guest bool
	fs.StringVar(&dataDir, "data", "", "data directory of a stopped server")
	fs.StringVar(&n.Email, "email", "", "email address (the login)")
	fs.StringVar(&n.FullName, "name", "", "full name")
	fs.StringVar(&n.Password, "password", "", "password (empty: API key only)")
	fs.BoolVar(&admin, "admin", false, "organization administrator")
	fs.BoolVar(&guest, "guest", false, "guest")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case dataDir == "" || n.Email == "" || n.FullName == "":
		return fmt.Errorf("%w: --data, --email and --name are required", errUsage)
	case admin && guest:
		return fmt.Errorf("%w: --admin and --guest exclude each other", errUsage)
	case admin:
		n.Role = store.RoleAdmin
	case guest:
		n.Role = store.RoleGuest
	default:
		n.Role = store.RoleMember
	}
	st, err := store.Open(dataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	svc := domain.New(st, domain.Config{})
	if err := svc.EnsureRealm(domain.DefaultRealmName); err != nil {
		return err
	}
	u, err := svc.CreateUserAsHost(n)
	if err != nil {
		var de *domain.Error
		if errors.As(err, &de) {
			return errors.New(de.Msg)
		}
		return err
	}
	fmt.Fprintln(stdout, u.APIKey)
	return nil
}
