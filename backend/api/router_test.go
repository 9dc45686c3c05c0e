package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The security headers are set as an answer's head goes out, however the
// handler answers, and a handler's own value for one of them stands.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	handlers := map[string]http.HandlerFunc{
		"/api/nothing": func(http.ResponseWriter, *http.Request) {},
		"/api/status":  func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) },
		"/api/write":   func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "{}") },
		"/api/flush": func(w http.ResponseWriter, _ *http.Request) {
			http.NewResponseController(w).Flush()
			io.WriteString(w, "{}")
		},
		"/api/own": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Cache-Control", "private, max-age=60")
			io.WriteString(w, "{}")
		},
		"/page": func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "<p>") },
	}
	a := &API{log: slog.New(slog.DiscardHandler), mux: http.NewServeMux()}
	for path, h := range handlers {
		a.mux.HandleFunc(path, h)
	}
	for path, cache := range map[string]string{
		"/api/nothing": "no-store", "/api/status": "no-store", "/api/write": "no-store", "/api/flush": "no-store",
		"/api/own": "private, max-age=60", "/page": "",
	} {
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		// What went out: the recorder's snapshot at the head, or its map
		// when nothing was written.
		h := rec.Result().Header
		for key, want := range map[string]string{
			"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Cache-Control": cache,
		} {
			if got := h.Get(key); got != want {
				t.Errorf("%s: %s = %q, want %q", path, key, got, want)
			}
		}
	}
}
