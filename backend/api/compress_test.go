package api

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

func TestAcceptsEncoding(t *testing.T) {
	for _, c := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br", "gzip", true},
		{"gzip, deflate, br", "br", true},
		{"deflate", "gzip", false},
		{"", "gzip", false},
		{"br;q=0, gzip;q=0.5", "br", false},
		{"br;q=0, gzip;q=0.5", "gzip", true},
		{"GZIP", "gzip", true},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", c.header)
		if got := acceptsEncoding(r, c.coding); got != c.want {
			t.Errorf("%q accepts %s = %v, want %v", c.header, c.coding, got, c.want)
		}
	}
}

func TestAssetsAreServedPrecompressed(t *testing.T) {
	files := fstest.MapFS{
		"assets/app.js":    {Data: []byte("plain")},
		"assets/app.js.br": {Data: []byte("brotli")},
		"assets/app.js.gz": {Data: []byte("gzipped")},
		"assets/small.css": {Data: []byte("tiny")},
	}
	plain := http.FileServerFS(files)
	for _, c := range []struct{ name, accept, coding, body string }{
		{"assets/app.js", "gzip, deflate, br", "br", "brotli"},
		{"assets/app.js", "gzip", "gzip", "gzipped"},
		{"assets/app.js", "", "", "plain"},
		{"assets/small.css", "gzip, br", "", "tiny"},
	} {
		r := httptest.NewRequest("GET", "/"+c.name, nil)
		if c.accept != "" {
			r.Header.Set("Accept-Encoding", c.accept)
		}
		w := httptest.NewRecorder()
		serveAsset(w, r, files, c.name, plain)
		if got := w.Header().Get("Content-Encoding"); got != c.coding || w.Body.String() != c.body {
			t.Errorf("%s with %q: encoding %q body %q, want %q %q", c.name, c.accept, got, w.Body.String(), c.coding, c.body)
		}
		if c.coding != "" && w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", c.name, w.Header().Get("Content-Type"))
		}
	}
}
