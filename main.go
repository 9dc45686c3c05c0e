// Command lanchat is the desktop app: the Lanchat server in a window, also
// serving everyone on the LAN. Build it with the Wails tags (make desktop);
// the headless lanchatd (cmd/lanchatd) needs no display and no cgo.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"

	"lanchat/app"
	"lanchat/backend/logbuffer"
	"lanchat/backend/server"
)

func main() {
	// The log, a line per request as lanchatd writes it: slog's text,
	// buffered (backend/logbuffer).
	logs := logbuffer.New(os.Stderr)
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, nil)))
	var opts app.Options
	flag.StringVar(&opts.Addr, "addr", "0.0.0.0:9991", "listen address HOST:PORT for the LAN (port 0 picks a free one)")
	flag.StringVar(&opts.DataDir, "data", app.DefaultDataDir(os.Getenv), "data directory ($LANCHAT_DATA, default ~/.local/share/lanchat)")
	flag.BoolVar(&opts.Dev, "dev", false, "development organization: demo people and streams")
	flag.BoolVar(&opts.Advertise, "advertise", true, "announce a hosted team on the local network by DNS-SD, for others' Join a team")
	ntfyAddr := flag.String("ntfy-addr", "auto", server.NtfyAddrFlag)
	tls := flag.String("tls", "auto", "HTTPS beside plain HTTP on the same port: auto (this host's own certificate authority, in the data directory's tls/) or off")
	flag.Parse()
	if *tls != "auto" && *tls != "off" {
		fmt.Fprintln(os.Stderr, "lanchat: --tls is auto or off")
		os.Exit(2)
	}
	opts.TLS = server.TLSMode(*tls)
	opts.NtfyAddr = server.ResolveNtfyAddr(*ntfyAddr, opts.Addr)
	err := app.Run(opts, logs)
	logs.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lanchat:", err)
		os.Exit(1)
	}
}
