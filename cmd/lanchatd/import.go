package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"lanchat/backend/archive"
	"lanchat/backend/domain"
	"lanchat/backend/teamimport"
)

// importCmd brings another server's export into a new data folder for a
// stopped server, printing progress and, at the end, what was imported and
// what was left out. An interrupt stops it with nothing left behind.
func importCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	dataDir := fs.String("data", "", "new or empty data directory to import into")
	from := fs.String("from", "", "the archive's format: "+strings.Join(teamimport.Formats(), ", "))
	name := fs.String("name", "", "the organization's name (default: the export's own; a Slack export has none but in its file name)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *dataDir == "" || *from == "" || fs.NArg() != 1 {
		return fmt.Errorf("%w: import needs --data DIR, --from FORMAT and one FILE", errUsage)
	}
	named := false
	fs.Visit(func(f *flag.Flag) { named = named || f.Name == "name" })
	if named {
		// Refused as the API refuses it, before anything is read.
		if _, err := domain.ValidateRealmName(*name); err != nil {
			var bad *domain.Error
			errors.As(err, &bad)
			return fmt.Errorf("%w: --name: %s", errUsage, bad.Msg)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	summary, err := teamimport.Run(ctx, teamimport.Options{
		DataDir: *dataDir, Format: *from, Archive: fs.Arg(0), RealmName: *name, Progress: progressPrinter(stderr),
	})
	if err != nil {
		return fmt.Errorf("import refused, nothing was written: %w", err)
	}
	printSummary(stdout, *dataDir, summary)
	return nil
}

// progressPrinter writes a line per phase and at most one a second within
// one.
func progressPrinter(w io.Writer) func(archive.Progress) {
	var phase string
	var last time.Time
	return func(p archive.Progress) {
		now := time.Now()
		if p.Phase == phase && now.Sub(last) < time.Second {
			return
		}
		phase, last = p.Phase, now
		line := fmt.Sprintf("%-12s %d records", p.Phase, p.Records)
		if p.TotalBytes > 0 {
			line += fmt.Sprintf(", %d%% of the archive read", p.Bytes*100/p.TotalBytes)
		}
		if left := p.Remaining(now).Round(time.Second); left > 0 {
			line += fmt.Sprintf(", about %s left", left)
		}
		fmt.Fprintln(w, line)
	}
}

func printSummary(w io.Writer, dataDir string, s archive.Summary) {
	fmt.Fprintf(w, "imported %q into %s: %d users, %d streams, %d messages, %d reactions, %d files, %d emoji, %d user groups, %d linkifiers\n",
		s.RealmName, dataDir, s.Users, s.Streams, s.Messages, s.Reactions, s.Files, s.Emoji, s.UserGroups, s.Linkifiers)
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "left out:\n")
		for _, sk := range s.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", sk.Record, sk.Reason)
		}
	}
	if len(s.Changed) > 0 {
		fmt.Fprintf(w, "changed to follow Lanchat's rules:\n")
		for _, c := range s.Changed {
			fmt.Fprintf(w, "  %s: %s\n", c.Record, c.Change)
		}
	}
	fmt.Fprintln(w, "imported people have no password: issue one with the host panel or an administrator's settings")
	fmt.Fprintln(w, "an administrator renames the organization in Settings › Organization")
}
