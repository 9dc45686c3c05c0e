package bench

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHostileFloor runs the floor briefly: every phase gets sends answered
// after their commit, and the writes phase writes its files.
func TestHostileFloor(t *testing.T) {
	dir := t.TempDir()
	h, err := FloorHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	f, err := HostileFloor(&Server{URL: srv.URL}, HostileLoad{Writers: 2, WriteRate: 1 << 20, BusyCores: 1}, 2, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]Latencies{"quiet": f.Quiet, "writes": f.Writes, "busy": f.Busy} {
		if l.Count == 0 || l.P50 <= 0 || l.P99 < l.P50 {
			t.Errorf("%s: %+v", name, l)
		}
	}
	for _, name := range []string{"upload-0", "upload-1"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
}
