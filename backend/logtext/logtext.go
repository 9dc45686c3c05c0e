// Package logtext is a slog handler whose lines are byte for byte those of
// slog.NewTextHandler(w, nil), but which writes the records the server logs
// most (one per request, of strings, numbers and durations) without the
// text handler's per-record costs. Any other record, and every handler
// derived with WithAttrs or WithGroup, is written by a real
// slog.TextHandler, so that the two can only agree.
package logtext

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Handler writes records as slog.TextHandler with nil options does.
type Handler struct {
	out io.Writer
	// text writes the records the fast path does not format, to the same
	// writer.
	text *slog.TextHandler
}

// New returns a handler that writes records to w as slog.TextHandler with
// nil options would. Each line is one Write, and w must keep concurrent
// Writes whole and apart, as an *os.File and a logbatch.Writer do: a lock
// here, taken by every request's line, made callers queue behind each
// other (see logbatch).
func New(w io.Writer) *Handler {
	return &Handler{out: w, text: slog.NewTextHandler(w, nil)}
}

// Enabled reports whether level is at least Info, the text handler's
// default minimum.
func (h *Handler) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelInfo
}

// WithAttrs returns a text handler: derived handlers are rare (made once,
// not per record), so they are left to the standard library.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler { return h.text.WithAttrs(attrs) }

// WithGroup returns a text handler, as WithAttrs does.
func (h *Handler) WithGroup(name string) slog.Handler { return h.text.WithGroup(name) }

// maxPooledLine bounds the buffers kept for reuse, so that one huge line
// does not pin its memory.
const maxPooledLine = 16 << 10

var lines = sync.Pool{New: func() any {
	b := make([]byte, 0, 1024)
	return &b
}}

// Handle writes r as one line with a single Write.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	buf := lines.Get().(*[]byte)
	line, ok := appendRecord((*buf)[:0], r)
	var err error
	if ok {
		_, err = h.out.Write(line)
	} else {
		err = h.text.Handle(ctx, r)
	}
	if cap(line) <= maxPooledLine {
		*buf = line
		lines.Put(buf)
	}
	return err
}

// appendRecord appends r's line, or reports false if an attribute's value
// is of a kind only the text handler formats.
func appendRecord(b []byte, r slog.Record) ([]byte, bool) {
	if !r.Time.IsZero() {
		var ok bool
		if b, ok = appendRecordTime(append(b, "time="...), r.Time); !ok {
			return b, false
		}
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = appendString(b, r.Level.String())
	b = append(b, " msg="...)
	b = appendString(b, r.Message)
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		b, ok = appendAttr(b, a)
		return ok
	})
	return append(b, '\n'), ok
}

// appendAttr appends " key=value", or reports false for a value it leaves
// to the text handler: KindAny (errors, TextMarshalers, []byte, nil, and
// the empty Attr{}, which slog omits) and KindGroup.
func appendAttr(b []byte, a slog.Attr) ([]byte, bool) {
	v := a.Value
	if v.Kind() == slog.KindLogValuer {
		// A LogValuer resolving to a kind left to the text handler is
		// resolved again there: LogValue runs twice for such a record.
		v = v.Resolve()
	}
	b = append(b, ' ')
	b = appendString(b, a.Key)
	b = append(b, '=')
	switch v.Kind() {
	case slog.KindString:
		return appendString(b, v.String()), true
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10), true
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10), true
	case slog.KindFloat64:
		return strconv.AppendFloat(b, v.Float64(), 'g', -1, 64), true
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool()), true
	case slog.KindDuration:
		return appendDuration(b, v.Duration()), true
	case slog.KindTime:
		return appendTime(b, v.Time())
	}
	return b, false
}

// appendString appends s, quoted as strconv.Quote does if slog would
// quote it.
func appendString(b []byte, s string) []byte {
	if !needsQuoting(s) {
		return append(b, s...)
	}
	if quoted, ok := appendQuotedASCII(b, s); ok {
		return quoted
	}
	return strconv.AppendQuote(b, s)
}

// appendQuotedASCII appends s quoted, if s is all printable ASCII, in
// which strconv.Quote escapes only '"' and '\\'; else it reports false.
// It is several times faster than strconv, which looks up every rune: a
// route ("GET /api/v1/events") is quoted on every request line.
func appendQuotedASCII(b []byte, s string) ([]byte, bool) {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' {
			return b, false
		}
		if c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return append(b, '"'), true
}

// needsQuoting is slog's rule for text: the empty string, and any string
// holding a space, '=', '"', an ASCII control character, a Unicode space,
// a non-printing rune or invalid UTF-8 (or U+FFFD itself). A backslash
// alone, and DEL, are written as they are.
func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiForcesQuotes[c] {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// asciiForcesQuotes holds the ASCII bytes that make slog quote a string;
// a table, as every byte of every line is looked up.
var asciiForcesQuotes = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c <= ' ' || c == '=' || c == '"'
	}
	return t
}()

// appendTime appends t as slog does, RFC 3339 with its milliseconds
// truncated, or reports false for a year outside [0, 9999], which slog
// writes oddly (it cuts a fixed-width prefix) and the text handler is left
// to write.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	var room [40]byte
	text, ok := appendSecond(room[:0], t)
	if !ok {
		return b, false
	}
	return appendMillis(b, text, t), true
}

// appendRecordTime is appendTime for the records' own times, which within
// a second share the formatting of its date (lastSecond): that cost more
// than the rest of a request's line.
func appendRecordTime(b []byte, t time.Time) ([]byte, bool) {
	s := lastSecond.Load()
	if s == nil || s.unix != t.Unix() || s.loc != t.Location() {
		text, ok := appendSecond(nil, t)
		if !ok {
			return b, false
		}
		s = &secondText{unix: t.Unix(), loc: t.Location(), text: text}
		lastSecond.Store(s)
	}
	return appendMillis(b, s.text, t), true
}

// secondText is one second's time as appendSecond writes it, in one
// location.
type secondText struct {
	unix int64
	loc  *time.Location
	text []byte
}

var lastSecond atomic.Pointer[secondText]

// appendSecond appends t in RFC 3339 without a fraction (the time
// package's fast path: its layouts with fractions are parsed on every
// call), or reports false for a year outside [0, 9999].
func appendSecond(b []byte, t time.Time) ([]byte, bool) {
	start := len(b)
	b = t.AppendFormat(b, time.RFC3339)
	return b, b[start] != '-' && b[start+4] == '-'
}

// appendMillis appends text, from appendSecond, with t's milliseconds
// between the seconds and the zone.
func appendMillis(b, text []byte, t time.Time) []byte {
	at := len("2006-01-02T15:04:05")
	ms := t.Nanosecond() / 1e6
	b = append(b, text[:at]...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, text[at:]...)
}

// appendDuration appends d as d.String() would, without its allocation.
func appendDuration(b []byte, d time.Duration) []byte {
	if d == 0 {
		return append(b, "0s"...)
	}
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = -u // also right for the minimum, whose negation overflows int64
	}
	switch {
	case u < uint64(time.Microsecond):
		return append(strconv.AppendUint(b, u, 10), "ns"...)
	case u < uint64(time.Millisecond):
		return appendDecimal(b, u, uint64(time.Microsecond), "µs")
	case u < uint64(time.Second):
		return appendDecimal(b, u, uint64(time.Millisecond), "ms")
	}
	hours := u / uint64(time.Hour)
	u -= hours * uint64(time.Hour)
	minutes := u / uint64(time.Minute)
	u -= minutes * uint64(time.Minute)
	// Under an hour the hours are left out, under a minute the minutes too;
	// above, both are written even when zero ("1h0m5s").
	if hours > 0 {
		b = append(strconv.AppendUint(b, hours, 10), 'h')
	}
	if hours > 0 || minutes > 0 {
		b = append(strconv.AppendUint(b, minutes, 10), 'm')
	}
	return appendDecimal(b, u, uint64(time.Second), "s")
}

// appendDecimal appends n/unit with the fraction's trailing zeros dropped
// (no point if none is left), then suffix. unit is a power of ten.
func appendDecimal(b []byte, n, unit uint64, suffix string) []byte {
	b = strconv.AppendUint(b, n/unit, 10)
	if frac := n % unit; frac != 0 {
		width := 0 // of the fraction, as zero-padded digits
		for u := unit; u > 1; u /= 10 {
			width++
		}
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		b = append(b, '.')
		b = append(b, "000000000"[:width]...)
		for i := len(b) - 1; frac != 0; i-- {
			b[i] = byte('0' + frac%10)
			frac /= 10
		}
	}
	return append(b, suffix...)
}
