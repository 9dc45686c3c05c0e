package archive

import "time"

// Progress is how far an import (or export) has gone, for a progress bar.
type Progress struct {
	// Phase is the kind of record being written: "users", "streams",
	// "files", "messages", … and "done" at the end.
	Phase   string
	Records int64 // records written so far, all kinds together
	// Bytes of the archive read so far, out of TotalBytes (0 when unknown).
	Bytes, TotalBytes int64
	Started           time.Time
}

// Remaining estimates the time left from the share of the archive read so
// far; 0 while there is too little to go on.
func (p Progress) Remaining(now time.Time) time.Duration {
	if p.TotalBytes <= 0 || p.Bytes <= 0 || p.Bytes >= p.TotalBytes {
		return 0
	}
	elapsed := now.Sub(p.Started)
	return time.Duration(float64(elapsed) * float64(p.TotalBytes-p.Bytes) / float64(p.Bytes))
}

// Summary is what an import wrote, what it left out and what it changed,
// and why.
type Summary struct {
	// RealmName is the imported organization's name.
	RealmName                                  string
	Users, Streams, Messages, Reactions, Files int
	Emoji, UserGroups, Linkifiers              int
	Skipped                                    []Skipped
	// Changed are the records imported with a value fixed to follow the
	// API's rules (a name with characters it refuses, say).
	Changed []Changed
}

// Changed is a record an import changed: what became what, and why.
type Changed struct {
	Record string `json:"record"`
	Change string `json:"change"`
}

// Skipped is a record left out of an import.
type Skipped struct {
	Record string `json:"record"`
	Reason string `json:"reason"`
}
