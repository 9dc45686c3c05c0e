package api

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// compressAbove is the size from which JSON answers are gzipped for clients
// that accept it: history pages and register's initial state (hundreds of
// kilobytes) shrink several times over, while small answers, most long-poll
// wake-ups among them, are not worth the CPU.
const compressAbove = 8 << 10

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// acceptsEncoding says whether the request's Accept-Encoding admits coding
// (a q of 0 refuses it).
func acceptsEncoding(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}

// varyByEncoding says the answer depends on the client's Accept-Encoding.
func varyByEncoding(h http.Header) {
	if _, ok := h["Vary"]; ok {
		h.Add("Vary", "Accept-Encoding")
		return
	}
	h["Vary"] = varyAcceptEncoding
}

// gzipAnswer compresses an encoded answer when the client takes gzip and
// the answer is large; it sets Content-Encoding when it does.
func gzipAnswer(w http.ResponseWriter, data []byte) []byte {
	l, ok := w.(*requestLog)
	if !ok || !l.gzips(data) {
		return data
	}
	var out bytes.Buffer
	out.Grow(len(data) / 4)
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&out)
	_, err := zw.Write(data)
	if err == nil {
		err = zw.Close()
	}
	gzipWriters.Put(zw)
	if err != nil {
		return data
	}
	w.Header().Set("Content-Encoding", "gzip")
	return out.Bytes()
}

// precompressed are the codings the UI's build writes beside each asset,
// best first.
var precompressed = []struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveAsset serves a built file, as its precompressed twin when the client
// takes one (made at build time by frontend/scripts/compress.mjs).
func serveAsset(w http.ResponseWriter, r *http.Request, files fs.FS, name string, plain http.Handler) {
	varyByEncoding(w.Header())
	for _, p := range precompressed {
		if !acceptsEncoding(r, p.coding) {
			continue
		}
		data, err := fs.ReadFile(files, name+p.suffix)
		if err != nil {
			continue
		}
		if t := mime.TypeByExtension(path.Ext(name)); t != "" {
			w.Header().Set("Content-Type", t)
		}
		w.Header().Set("Content-Encoding", p.coding)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
		return
	}
	plain.ServeHTTP(w, r)
}
