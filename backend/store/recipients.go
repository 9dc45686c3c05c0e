package store

import (
	"iter"
	"maps"
	"slices"
)

// Recipients are a new message's holders and their flags. Most holders of
// a stream message share the same flags (none, or a wildcard mention's), so
// they are a sorted list with one value; the few whose flags differ (the
// sender, who need not be subscribed, the mentioned, the alerted) are kept
// apart. A message to 500 subscribers then costs no map of 500 entries to
// build, store or fan out.
type Recipients struct {
	ids    []int64 // sorted
	common Flags
	own    map[int64]Flags
}

// NewRecipients gives each of ids the flags common.
func NewRecipients(ids []int64, common Flags) Recipients {
	if !slices.IsSorted(ids) {
		ids = slices.Sorted(slices.Values(ids))
	}
	return Recipients{ids: ids, common: common, own: map[int64]Flags{}}
}

// Flags are uid's flags, and whether uid holds the message.
func (r Recipients) Flags(uid int64) (Flags, bool) {
	if f, ok := r.own[uid]; ok {
		return f, true
	}
	if _, ok := slices.BinarySearch(r.ids, uid); ok {
		return r.common, true
	}
	return 0, false
}

// Set makes uid a holder with flags f.
func (r *Recipients) Set(uid int64, f Flags) {
	if r.own == nil {
		r.own = map[int64]Flags{}
	}
	r.own[uid] = f
}

// All yields each holder once with their flags.
func (r Recipients) All() iter.Seq2[int64, Flags] {
	return func(yield func(int64, Flags) bool) {
		for _, uid := range r.ids {
			f, ok := r.own[uid]
			if !ok {
				f = r.common
			}
			if !yield(uid, f) {
				return
			}
		}
		for uid, f := range r.own {
			if _, listed := slices.BinarySearch(r.ids, uid); !listed && !yield(uid, f) {
				return
			}
		}
	}
}

// Holders yields each holder once.
func (r Recipients) Holders() iter.Seq[int64] {
	return func(yield func(int64) bool) {
		for uid := range r.All() {
			if !yield(uid) {
				return
			}
		}
	}
}

// Flagged yields the holders whose flags may be other than none: those
// set one by one, or every holder when the shared flags are not none.
func (r Recipients) Flagged() iter.Seq2[int64, Flags] {
	if r.common != 0 {
		return r.All()
	}
	return maps.All(r.own)
}

// Len is how many hold the message.
func (r Recipients) Len() int {
	n := len(r.ids)
	for uid := range r.own {
		if _, listed := slices.BinarySearch(r.ids, uid); !listed {
			n++
		}
	}
	return n
}

// ReadWhereFlagged marks read each holder whose flags are not none: the
// holders an import writes a row for.
func (r *Recipients) ReadWhereFlagged() {
	if r.common != 0 {
		r.common |= FlagRead
	}
	for uid, f := range r.own {
		if f != 0 {
			r.own[uid] = f | FlagRead
		}
	}
}
