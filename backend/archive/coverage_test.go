package archive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What is read of a zip counts once however often it is read: opening it
// reads its directory twice over, stat'ing an entry reads its header
// again, and a reader may read an entry twice. The count stays within the
// zip's size and covers every entry's data.
func TestZipBytesReadCountsEachByteOnce(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		w, err := zw.Create(fmt.Sprintf("folder/day-%02d.json", i))
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			fmt.Fprintf(w, `{"ts":"%d","text":"%s"}`, rng.Int64(), strings.Repeat("x", rng.IntN(40)))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "export.zip")
	if err := os.WriteFile(name, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := OpenZip(name, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	entries, err := fs.ReadDir(a, "folder")
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	var data int64
	for _, f := range zr.File {
		data += int64(f.CompressedSize64)
	}
	for range 2 {
		for _, e := range entries {
			if _, err := fs.Stat(a, "folder/"+e.Name()); err != nil {
				t.Fatal(err)
			}
			if _, err := fs.ReadFile(a, "folder/"+e.Name()); err != nil {
				t.Fatal(err)
			}
		}
		if got := a.BytesRead(); got > a.Size || got < data {
			t.Fatalf("%d bytes read of a %d-byte zip whose entries hold %d", got, a.Size, data)
		}
	}
}

// Ranges read count their bytes not read before, whatever their order.
func TestCoverageCountsDistinctBytes(t *testing.T) {
	for _, c := range []struct {
		ranges [][2]int64
		want   int64
	}{
		{[][2]int64{{0, 10}, {0, 10}}, 10},
		{[][2]int64{{0, 10}, {10, 20}, {5, 15}}, 20},
		{[][2]int64{{30, 40}, {0, 10}, {20, 25}, {5, 35}}, 40},
		{[][2]int64{{8, 9}, {2, 3}, {5, 6}, {0, 100}}, 100},
		{[][2]int64{{0, 5}, {7, 9}, {5, 7}}, 9},
		{[][2]int64{{3, 3}, {4, 2}}, 0},
	} {
		var c2 coverage
		for _, r := range c.ranges {
			c2.add("f", r[0], r[1])
		}
		c2.add("g", 0, 1) // another file's bytes are its own
		if got := c2.n.Load(); got != c.want+1 {
			t.Errorf("%v: %d bytes, want %d", c.ranges, got-1, c.want)
		}
	}
	// Against a byte map, for random ranges.
	rng := rand.New(rand.NewPCG(3, 4))
	var c coverage
	seen := make([]bool, 1000)
	var want int64
	for range 2000 {
		start := rng.Int64N(1000)
		end := min(1000, start+rng.Int64N(30))
		c.add("", start, end)
		for i := start; i < end; i++ {
			if !seen[i] {
				seen[i], want = true, want+1
			}
		}
		if got := c.n.Load(); got != want {
			t.Fatalf("after [%d, %d): %d bytes, want %d", start, end, got, want)
		}
	}
}
