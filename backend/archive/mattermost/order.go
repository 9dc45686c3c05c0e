package mattermost

import (
	"cmp"
	"container/heap"
	"slices"
)

// chunkLen is how many entries one chunk of the index holds. The index
// grows by chunks, not by doubling one array (which would hold the old
// and the new array at once, and the collector's headroom on top).
const chunkLen = 1 << 16

// entries is the first pass's index of posts, in chunks.
type entries [][]entry

func (es *entries) add(e entry) {
	if n := len(*es); n == 0 || len((*es)[n-1]) == chunkLen {
		*es = append(*es, make([]entry, 0, chunkLen))
	}
	last := &(*es)[len(*es)-1]
	*last = append(*last, e)
}

// compareEntries orders posts by time, then as they appear in the file.
func compareEntries(a, b entry) int {
	return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.num, b.num), cmp.Compare(a.reply, b.reply))
}

// inOrder calls yield with every entry, oldest first: each chunk is
// sorted, then the chunks are merged.
func (es entries) inOrder(yield func(entry) error) error {
	h := make(heads, 0, len(es))
	for _, c := range es {
		slices.SortFunc(c, compareEntries)
		if len(c) > 0 {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		if err := yield(h[0][0]); err != nil {
			return err
		}
		if h[0] = h[0][1:]; len(h[0]) == 0 {
			heap.Pop(&h)
		} else {
			heap.Fix(&h, 0)
		}
	}
	return nil
}

// heads is a heap of sorted chunks by their first entry.
type heads [][]entry

func (h heads) Len() int           { return len(h) }
func (h heads) Less(i, j int) bool { return compareEntries(h[i][0], h[j][0]) < 0 }
func (h heads) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *heads) Push(x any)        { *h = append(*h, x.([]entry)) }

func (h *heads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
