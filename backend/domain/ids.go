package domain

import (
	"slices"
	"strconv"
)

// parseID reads a decimal ID such as a stream or user given by number.
func parseID(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

// sortedUnique sorts ids and drops repeats.
func sortedUnique(ids []int64) []int64 {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return slices.Compact(ids)
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// LastTimestamp is the last second of the year 9999, the last a date holds
// in Zulip (Python's datetime) and that its clients can show: times given
// to be stored, as an expiry or a delivery, must not pass it.
const LastTimestamp int64 = 253402300799
