package archive

import (
	"slices"
	"sync"
	"sync/atomic"
)

// coverage counts the distinct bytes read of an archive, for progress:
// what is read again counts once, so the count never passes the archive's
// size. A zip is read again in places (its directory, which the search for
// its end record overlaps; an entry's header, each time the entry is
// opened or stat'ed), and a reader may read a file twice.
type coverage struct {
	mu sync.Mutex
	// spans are each file's ranges read, by name ("" for the zip
	// itself): sorted, disjoint and not adjacent.
	spans map[string][]span
	n     atomic.Int64
}

type span struct{ start, end int64 }

// add counts the bytes [start, end) of file, less what was read before.
func (c *coverage) add(file string, start, end int64) {
	if end <= start {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spans == nil {
		c.spans = map[string][]span{}
	}
	s := c.spans[file]
	// The spans that overlap or touch [start, end) are s[i:j]: merged into
	// one, and only the bytes they did not hold are new.
	i, _ := slices.BinarySearchFunc(s, start, func(sp span, start int64) int {
		if sp.end < start {
			return -1
		}
		return 1
	})
	merged, added := span{start, end}, end-start
	j := i
	for ; j < len(s) && s[j].start <= end; j++ {
		added -= max(0, min(end, s[j].end)-max(start, s[j].start))
		merged = span{min(merged.start, s[j].start), max(merged.end, s[j].end)}
	}
	c.spans[file] = slices.Replace(s, i, j, merged)
	c.n.Add(added)
}
