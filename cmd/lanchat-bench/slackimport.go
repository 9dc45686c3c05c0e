package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"lanchat/backend/bench"
)

// slackImport imports a generated Slack export with `lanchatd import` and
// compares it with writing the same messages through the domain directly.
func (r *run) slackImport() error {
	shape := bench.DefaultSlackShape(r.imported)
	zipPath := filepath.Join(r.workDir, fmt.Sprintf("slack-export-%d.zip", r.imported))
	if _, err := os.Stat(zipPath); err != nil {
		t0 := time.Now()
		if err := bench.WriteSlackExport(zipPath, shape); err != nil {
			return fmt.Errorf("generate export: %w", err)
		}
		log.Printf("Slack export of %d messages generated in %v", r.imported, time.Since(t0).Round(time.Second))
	}
	st, err := os.Stat(zipPath)
	if err != nil {
		return err
	}
	imp, err := bench.ImportSlack(r.binary, zipPath, filepath.Join(r.workDir, "slack-import"))
	if err != nil {
		return fmt.Errorf("lanchatd import: %w", err)
	}
	log.Printf("import of %d messages: %v, peak RSS %.0f MB (%.0f MB anonymous)", r.imported, imp.Took.Round(time.Second), mb(imp.Peak), mb(imp.PeakAnon))
	direct, err := bench.DirectSends(filepath.Join(r.workDir, "slack-direct"), shape)
	if err != nil {
		return fmt.Errorf("direct sends: %w", err)
	}
	log.Printf("the same messages through domain.ImportMessages: %v", direct.Round(time.Second))
	r.report.Note("Import of a generated Slack export (`lanchatd import --from slack`: %d people, %d channels, %d messages over %d days, a tenth in threads, one in twenty with a reaction; a %.0f MB zip): "+
		"%.1f s, %.0f messages/s; the same messages written through the store directly (domain.ImportMessages in batches of 2,000, no archive to read): %.1f s, so the import takes %.2f× that (target ≤ 2×). "+
		"Peak RSS of the import: %.0f MB, of which %.0f MB anonymous, the rest the store's mapped file (target < 200 MB).",
		shape.Users, shape.Channels, shape.Messages, shape.Days, mb(st.Size()),
		imp.Took.Seconds(), float64(r.imported)/imp.Took.Seconds(), direct.Seconds(), imp.Took.Seconds()/direct.Seconds(), mb(imp.Peak), mb(imp.PeakAnon))
	return nil
}

func mb(b int64) float64 { return float64(b) / 1e6 }
