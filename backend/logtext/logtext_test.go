package logtext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

// trickyStrings are written as messages, keys and values: each is one of
// slog's quoting rules, or close to one.
var trickyStrings = []string{
	"", "plain", "GET /api/v1/events", "a=b", "=", `say "hi"`, `back\slash`, `\`,
	"tab\there", "new\nline", "cr\r", "nul\x00", "esc\x1b[0m", "del\x7f", "~!@#$%^&*()_+-{}|:<>?[];',./`",
	"café", "Ωmega", "日本語", "😀", "a😀b", "bad\xffutf8", "\xc3", "\xed\xa0\x80", "\ufffd",
	"nb\u00a0sp", "line\u2028sep", "para\u2029sep", "ideo\u3000space", "soft\u00adhyphen", "zw\u200bsp",
	"bidi\u202e", "priv\ue000", "nel\u0085", "alice@example.com", "192.168.1.20:5321", "(none)",
	"-", "0", "true", "1e21", strings.Repeat("long ", 40),
}

var zones = []*time.Location{
	time.UTC, time.Local,
	time.FixedZone("IST", 5*3600+30*60),
	time.FixedZone("PST", -8*3600),
	time.FixedZone("half a minute", -30), // under a minute: slog writes +00:00
	time.FixedZone("LMT", -(1*3600 + 15*60 + 45)),
	time.FixedZone("far", 23*3600+59*60),
}

var recordTimes = []time.Time{
	{}, // omitted
	time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC),
	time.Date(2026, 3, 14, 15, 9, 26, 999999999, time.UTC), // truncated, not rounded
	time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC),
	time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.FixedZone("IST", 5*3600+30*60)),
	time.Date(1969, 12, 31, 23, 59, 59, 1500000, time.UTC),
	time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
	time.Date(0, 6, 1, 0, 0, 0, 7000000, time.UTC), // year 0
	time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
	time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),      // five-digit year: the text handler's
	time.Date(-5, 1, 1, 0, 0, 0, 123456789, time.UTC), // negative year: likewise
	time.Now(),
	time.Now().In(time.FixedZone("PST", -8*3600)),
}

type textMarshaler struct{}

func (textMarshaler) MarshalText() ([]byte, error) { return []byte("marshalled text"), nil }

type logValuer struct{ v slog.Value }

func (l logValuer) LogValue() slog.Value { return l.v }

type namedBytes []byte

// valueCase is an attribute's value and whether the fast path writes it.
type valueCase struct {
	v    slog.Value
	fast bool
}

func valueCases() []valueCase {
	cs := []valueCase{
		{slog.Int64Value(0), true}, {slog.Int64Value(200), true}, {slog.Int64Value(-42), true},
		{slog.Int64Value(math.MaxInt64), true}, {slog.Int64Value(math.MinInt64), true},
		{slog.Uint64Value(0), true}, {slog.Uint64Value(math.MaxUint64), true},
		{slog.BoolValue(true), true}, {slog.BoolValue(false), true},
		{slog.AnyValue(nil), false}, {slog.AnyValue(errors.New("disk full")), false},
		{slog.AnyValue(fmt.Errorf("wrapped: %w", errors.New("two words"))), false},
		{slog.AnyValue(textMarshaler{}), false}, {slog.AnyValue(netip.MustParseAddr("10.0.0.1")), false},
		{slog.AnyValue([]byte("raw \x00 bytes")), false}, {slog.AnyValue(namedBytes("named")), false},
		{slog.AnyValue(struct{ A, B int }{1, 2}), false}, {slog.AnyValue([]string{"x", "y z"}), false},
		{slog.GroupValue(slog.String("a", "1"), slog.Int("b", 2)), false},
		{slog.GroupValue(), true}, // Record.AddAttrs drops empty groups
		{slog.AnyValue(logValuer{slog.StringValue("resolved string")}), true},
		{slog.AnyValue(logValuer{slog.IntValue(7)}), true},
		{slog.AnyValue(logValuer{slog.AnyValue(errors.New("resolved error"))}), false},
		{slog.AnyValue(logValuer{slog.GroupValue(slog.String("in", "group"))}), false},
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 3.14159, 1e20, 1e21, 1e-7, 5e-324,
		math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1), 100, 0.1 + 0.2} {
		cs = append(cs, valueCase{slog.Float64Value(f), true})
	}
	for _, d := range []time.Duration{0, 1, 999, 1000, 1500, 999999, 1000000, 1234567, time.Second,
		1500 * time.Millisecond, 59 * time.Second, time.Minute, 61 * time.Minute, time.Hour + 5*time.Second,
		-1, -1500, -61 * time.Minute, math.MaxInt64, math.MinInt64, 100 * time.Hour} {
		cs = append(cs, valueCase{slog.DurationValue(d), true})
	}
	for _, t := range recordTimes {
		year := t.Year()
		cs = append(cs, valueCase{slog.TimeValue(t), year >= 0 && year <= 9999})
	}
	for _, s := range trickyStrings {
		cs = append(cs, valueCase{slog.StringValue(s), true})
	}
	return cs
}

// recordCase is a record and whether the fast path writes it.
type recordCase struct {
	name string
	r    slog.Record
	fast bool
}

var baseTime = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)

func record(t time.Time, level slog.Level, msg string, attrs ...slog.Attr) slog.Record {
	r := slog.NewRecord(t, level, msg, 0)
	r.AddAttrs(attrs...)
	return r
}

func requestRecord(t time.Time) slog.Record {
	return record(t, slog.LevelInfo, "request", slog.String("method", "GET"), slog.String("route", "GET /api/v1/events"),
		slog.Int("status", 200), slog.Duration("duration", 1234567*time.Nanosecond),
		slog.String("client", "192.168.1.20"), slog.String("user", "alice@example.com"))
}

func recordCases() []recordCase {
	var cs []recordCase
	add := func(name string, fast bool, r slog.Record) {
		cs = append(cs, recordCase{name, r, fast})
	}
	add("request", true, requestRecord(baseTime))
	add("failed request", false, record(baseTime, slog.LevelError, "request", slog.String("method", "POST"),
		slog.Int("status", 500), slog.Any("err", errors.New("store: closed"))))
	add("no attrs", true, record(baseTime, slog.LevelInfo, "started"))
	add("empty key and zero value, omitted by slog", false, record(baseTime, slog.LevelInfo, "m", slog.Attr{}))
	add("empty key", true, record(baseTime, slog.LevelInfo, "m", slog.String("", "v")))
	add("empty key and value", true, record(baseTime, slog.LevelInfo, "m", slog.String("", "")))
	add("empty key and zero int", true, record(baseTime, slog.LevelInfo, "m", slog.Int("", 0)))
	add("empty key and zero time", true, record(baseTime, slog.LevelInfo, "m", slog.Time("", time.Time{})))
	add("inlined group", false, record(baseTime, slog.LevelInfo, "m", slog.Group("", slog.String("a", "b"))))
	add("duplicate keys", true, record(baseTime, slog.LevelInfo, "m", slog.Int("k", 1), slog.Int("k", 2)))
	for _, s := range trickyStrings {
		add(fmt.Sprintf("message %q", s), true, record(baseTime, slog.LevelInfo, s))
		add(fmt.Sprintf("key %q", s), true, record(baseTime, slog.LevelInfo, "m", slog.Int(s, 1)))
	}
	for i, c := range valueCases() {
		add(fmt.Sprintf("value %d %v", i, c.v), c.fast, record(baseTime, slog.LevelInfo, "m", slog.Attr{Key: "k", Value: c.v}))
		// After a fast attribute, so that giving up midway is seen too.
		add(fmt.Sprintf("second value %d %v", i, c.v), c.fast,
			record(baseTime, slog.LevelInfo, "m", slog.String("first", "x y"), slog.Attr{Key: "k", Value: c.v}))
	}
	for _, t := range recordTimes {
		for _, z := range zones {
			year := t.In(z).Year()
			add(fmt.Sprintf("time %v in %s", t, z), t.IsZero() || year >= 0 && year <= 9999,
				record(t.In(z), slog.LevelInfo, "m", slog.Int("n", 1)))
		}
	}
	// Records of one second share its date's text (lastSecond): a later
	// millisecond, the next second, and back.
	for _, d := range []time.Duration{time.Millisecond, 464 * time.Millisecond, 465 * time.Millisecond, time.Second, 0} {
		add(fmt.Sprintf("record time base+%v", d), true, record(baseTime.Add(d), slog.LevelInfo, "m"))
	}
	for _, l := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError,
		slog.LevelInfo + 2, slog.LevelError + 100, -10} {
		add("level "+l.String(), true, record(baseTime, l, "m"))
	}
	return cs
}

// derivations are the handlers the cases are written by: New's itself,
// and those derived from it, which must write as the text handler's do.
var derivations = []struct {
	name   string
	derive func(slog.Handler) slog.Handler
}{
	{"", func(h slog.Handler) slog.Handler { return h }},
	{"WithAttrs", func(h slog.Handler) slog.Handler {
		return h.WithAttrs([]slog.Attr{slog.String("service", "chat server"), slog.Any("e", errors.New("x"))})
	}},
	{"WithAttrs(nil)", func(h slog.Handler) slog.Handler { return h.WithAttrs(nil) }},
	{"WithGroup", func(h slog.Handler) slog.Handler { return h.WithGroup("req") }},
	{"WithGroup empty", func(h slog.Handler) slog.Handler { return h.WithGroup("") }},
	{"WithGroup.WithAttrs.WithGroup", func(h slog.Handler) slog.Handler {
		return h.WithGroup("a b").WithAttrs([]slog.Attr{slog.Int("n", 1)}).WithGroup("c")
	}},
}

// written is what handler h writes for r.
func written(t testing.TB, newHandler func(io.Writer) slog.Handler, derive func(slog.Handler) slog.Handler, r slog.Record) string {
	t.Helper()
	var out bytes.Buffer
	if err := derive(newHandler(&out)).Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func newLogtext(w io.Writer) slog.Handler { return New(w) }
func newText(w io.Writer) slog.Handler    { return slog.NewTextHandler(w, nil) }

func TestMatchesTextHandler(t *testing.T) {
	for _, c := range recordCases() {
		// The differential check proves nothing of the fast path for a
		// record the fast path passes on.
		if _, fast := appendRecord(nil, c.r); fast != c.fast {
			t.Errorf("%s: fast path taken %v, want %v", c.name, fast, c.fast)
		}
		for _, d := range derivations {
			got := written(t, newLogtext, d.derive, c.r)
			want := written(t, newText, d.derive, c.r)
			if got != want {
				t.Errorf("%s %s:\n got %q\nwant %q", c.name, d.name, got, want)
			}
		}
	}
}

func TestEnabledFromInfo(t *testing.T) {
	h, text := New(io.Discard), slog.NewTextHandler(io.Discard, nil)
	for l := slog.LevelDebug - 4; l <= slog.LevelError+4; l++ {
		if got, want := h.Enabled(context.Background(), l), text.Enabled(context.Background(), l); got != want {
			t.Errorf("Enabled(%v) = %v, want %v", l, got, want)
		}
	}
}

func TestAppendDurationMatchesString(t *testing.T) {
	for _, d := range []time.Duration{0, 1, -1, 999, 1000, 1001, 1010, 1100, 999999999, time.Second, time.Second + 1,
		3*time.Hour + 7*time.Minute + 9*time.Second + 12*time.Microsecond, math.MaxInt64, math.MinInt64, -time.Hour} {
		if got := string(appendDuration(nil, d)); got != d.String() {
			t.Errorf("appendDuration(%d) = %q, want %q", int64(d), got, d.String())
		}
	}
}

func FuzzMatchesTextHandler(f *testing.F) {
	f.Add("request", "route", "GET /api/v1/events", int64(200), 0.25, int64(1234567))
	f.Add("", "", "", int64(0), 0.0, int64(0))
	f.Add("a b", "k=v", "bad\xff", int64(-1), math.Inf(-1), int64(math.MinInt64))
	f.Add("µ", "\u00a0", `\"`, int64(math.MaxInt64), 1e21, int64(61*time.Minute))
	f.Fuzz(func(t *testing.T, msg, key, s string, n int64, x float64, d int64) {
		if got, want := string(appendDuration(nil, time.Duration(d))), time.Duration(d).String(); got != want {
			t.Fatalf("appendDuration(%d) = %q, want %q", d, got, want)
		}
		at := time.Unix(0, n).In(zones[uint64(n)%uint64(len(zones))])
		// Seconds within about a thousand years of 1970 keep the time
		// attribute's year four digits wide, so the fast path writes it.
		attrTime := time.Unix(n%(1<<35), d).In(zones[uint64(d)%uint64(len(zones))])
		r := record(at, slog.Level(n%13), msg, slog.String(key, s), slog.Int64(key, n), slog.Uint64(key, uint64(n)),
			slog.Float64(key, x), slog.Bool(key, n%2 == 0), slog.Duration(key, time.Duration(d)),
			slog.Time(key, attrTime), slog.String(s, msg))
		if _, fast := appendRecord(nil, r); !fast {
			t.Fatal("the fast path passed the record on")
		}
		for _, d := range derivations[:2] {
			if got, want := written(t, newLogtext, d.derive, r), written(t, newText, d.derive, r); got != want {
				t.Fatalf("%s:\n got %q\nwant %q", d.name, got, want)
			}
		}
	})
}

// lineWriter records each Write, keeping concurrent ones apart as the
// handler's writer must.
type lineWriter struct {
	mu     sync.Mutex
	writes []string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func TestConcurrentLinesAreWhole(t *testing.T) {
	const goroutines, perGoroutine = 8, 200
	out := &lineWriter{}
	h := New(out)
	derived := h.WithAttrs([]slog.Attr{slog.String("derived", "yes")})
	// Each goroutine's records in turn take the fast path, the fallback,
	// and a derived handler's; the zero time makes their lines known.
	recordFor := func(g, i int) (slog.Handler, slog.Record) {
		r := record(time.Time{}, slog.LevelInfo, "request", slog.Int("g", g), slog.Int("i", i),
			slog.String("filler", strings.Repeat("x", i)))
		switch i % 3 {
		case 1:
			r.AddAttrs(slog.Any("err", fmt.Errorf("failure %d", i)))
			return h, r
		case 2:
			return derived, r
		}
		return h, r
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range perGoroutine {
				hh, r := recordFor(g, i)
				if err := hh.Handle(context.Background(), r); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()

	want := map[string]int{}
	var text bytes.Buffer
	textHandler := slog.NewTextHandler(&text, nil)
	for g := range goroutines {
		for i := range perGoroutine {
			text.Reset()
			hh, r := recordFor(g, i)
			if hh == derived {
				textHandler.WithAttrs([]slog.Attr{slog.String("derived", "yes")}).Handle(context.Background(), r)
			} else {
				textHandler.Handle(context.Background(), r)
			}
			want[text.String()]++
		}
	}
	if len(out.writes) != goroutines*perGoroutine {
		t.Fatalf("%d writes, want %d", len(out.writes), goroutines*perGoroutine)
	}
	for _, line := range out.writes {
		if want[line] == 0 {
			t.Fatalf("unexpected write %q", line)
		}
		want[line]--
	}
}

func TestFastPathDoesNotAllocate(t *testing.T) {
	h := New(io.Discard)
	r := requestRecord(time.Now())
	r.AddAttrs(slog.Float64("load", 0.75), slog.Bool("bot", false), slog.Uint64("bytes", 1<<40),
		slog.Time("since", time.Now().Add(-time.Hour)), slog.String("reason", `needs "quoting"`))
	if _, fast := appendRecord(nil, r); !fast {
		t.Fatal("the record does not take the fast path")
	}
	if n := testing.AllocsPerRun(1000, func() { h.Handle(context.Background(), r) }); n != 0 {
		t.Errorf("%v allocations per record, want 0", n)
	}
}

func BenchmarkHandle(b *testing.B) {
	r := requestRecord(time.Now())
	for _, c := range []struct {
		name string
		h    slog.Handler
	}{{"logtext", New(io.Discard)}, {"slog.TextHandler", slog.NewTextHandler(io.Discard, nil)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.h.Handle(context.Background(), r)
			}
		})
	}
}
