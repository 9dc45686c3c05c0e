// Package logring keeps the last warnings and errors a process logged, in
// memory and bounded, for hosts that show them (the desktop host panel):
// a slog handler that passes every record on and remembers the serious
// ones.
package logring

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Entry is one remembered record.
type Entry struct {
	Time    time.Time `json:"time"`
	Level   string    `json:"level"`
	Message string    `json:"message"`
	// Attrs are the record's attributes as key=value text, as the text
	// log shows them.
	Attrs string `json:"attrs"`
}

// Ring holds the last entries at or above a level.
type Ring struct {
	level slog.Level
	mu    sync.Mutex
	buf   []Entry
	next  int // where the next entry goes once buf is full
}

// New keeps the last size records at level or above.
func New(size int, level slog.Level) *Ring {
	return &Ring{level: level, buf: make([]Entry, 0, size)}
}

// Entries are the remembered records, newest first.
func (r *Ring) Entries() []Entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Entry, 0, len(r.buf))
	for i := range r.buf {
		out = append(out, r.buf[(r.next-1-i+2*len(r.buf))%len(r.buf)])
	}
	return out
}

func (r *Ring) add(e Entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) < cap(r.buf) {
		r.buf = append(r.buf, e)
		r.next = len(r.buf) % cap(r.buf)
		return
	}
	r.buf[r.next] = e
	r.next = (r.next + 1) % len(r.buf)
}

// Handler passes records on to next and remembers those at the ring's
// level or above.
func (r *Ring) Handler(next slog.Handler) slog.Handler {
	return &handler{ring: r, next: next}
}

type handler struct {
	ring  *Ring
	next  slog.Handler
	attrs []slog.Attr // from WithAttrs, keys already prefixed by groups
	group string      // the open groups, "a.b."
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.ring.level || h.next.Enabled(ctx, l)
}

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	if rec.Level >= h.ring.level {
		var b strings.Builder
		for _, a := range h.attrs {
			writeAttr(&b, "", a)
		}
		rec.Attrs(func(a slog.Attr) bool {
			writeAttr(&b, h.group, a)
			return true
		})
		h.ring.add(Entry{Time: rec.Time, Level: rec.Level.String(), Message: rec.Message, Attrs: b.String()})
	}
	if !h.next.Enabled(ctx, rec.Level) {
		return nil
	}
	return h.next.Handle(ctx, rec)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]slog.Attr(nil), h.attrs...)
	for _, a := range attrs {
		c.attrs = append(c.attrs, slog.Attr{Key: h.group + a.Key, Value: a.Value})
	}
	c.next = h.next.WithAttrs(attrs)
	return &c
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group = h.group + name + "."
	c.next = h.next.WithGroup(name)
	return &c
}

// writeAttr appends " key=value", quoting values with spaces or quotes,
// and flattening groups into dotted keys.
func writeAttr(b *strings.Builder, prefix string, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, ga := range v.Group() {
			writeAttr(b, p, ga)
		}
		return
	}
	if a.Equal(slog.Attr{}) {
		return
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	s := v.String()
	if strings.ContainsAny(s, " \"=\n") || s == "" {
		s = fmt.Sprintf("%q", s)
	}
	b.WriteString(prefix + a.Key + "=" + s)
}
