package api

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

// mapOnlyAnswer is an owned poll's writer that the preset head cannot
// recognize, so its answers go through the header map.
type mapOnlyAnswer struct{ *pollAnswer }

// A JSON answer to an owned poll that no handler added a header to is sent
// with the preset head, without taking a header map, and its bytes are
// those of the same answer built in a header map; anything else goes
// through the map.
func TestOwnedPollJSONAnswerPresetHead(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 2, 3, 0, time.UTC)
	large := []byte(`{"result":"success","msg":"","events":["` + strings.Repeat("x", compressAbove) + `"]}`)
	for _, tc := range []struct {
		name       string
		api, gzip  bool
		status     int
		body       []byte
		before     func(w http.ResponseWriter) // what the handler did first
		wantPreset bool
	}{
		{name: "events", api: true, status: http.StatusOK, body: []byte(`{"result":"success","msg":"","events":[]}`), wantPreset: true},
		{name: "an error", api: true, status: http.StatusBadRequest, body: []byte(`{"result":"error","msg":"Bad event queue ID: nope","code":"BAD_EVENT_QUEUE_ID"}`), wantPreset: true},
		{name: "large, gzip not taken", api: true, status: http.StatusOK, body: large, wantPreset: true},
		{name: "empty", api: true, status: http.StatusOK, body: []byte{}, wantPreset: true},
		{name: "large, gzipped", api: true, gzip: true, status: http.StatusOK, body: large},
		{name: "small, gzip taken", api: true, gzip: true, status: http.StatusOK, body: []byte(`{}`), wantPreset: true},
		{name: "not the API", status: http.StatusOK, body: []byte(`{}`)},
		{name: "a header of the handler's", api: true, status: http.StatusTooManyRequests, body: []byte(`{}`),
			before: func(w http.ResponseWriter) { w.Header().Set("Retry-After", "3") }},
		{name: "a header map taken, nothing in it", api: true, status: http.StatusOK, body: []byte(`{}`),
			before: func(w http.ResponseWriter) { w.Header() }, wantPreset: true},
		{name: "a status already written", api: true, status: http.StatusOK, body: []byte(`{}`),
			before: func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }},
	} {
		answer := func(w http.ResponseWriter) {
			l := &requestLog{ResponseWriter: w, api: tc.api, acceptsGzip: tc.gzip}
			if tc.before != nil {
				tc.before(l)
			}
			writeEncoded(l, tc.status, tc.body)
			l.secure() // as API.ServeHTTP does when the handler returns
		}
		var preset, mapped pollAnswer
		answer(&preset)
		answer(mapOnlyAnswer{&mapped})
		if preset.presetHead != tc.wantPreset || (tc.wantPreset && len(preset.header) > 0) {
			t.Errorf("%s: preset head %v with %d headers in the map, want %v", tc.name, preset.presetHead, len(preset.header), tc.wantPreset)
		}
		if mapped.presetHead {
			t.Errorf("%s: the map's writer took the preset head", tc.name)
		}
		if got, want := preset.appendTo(nil, now), mapped.appendTo(nil, now); !bytes.Equal(got, want) {
			t.Errorf("%s: answered\n%q\nthrough the map\n%q", tc.name, got, want)
		}
	}
}

// The Date line is the second's, formatted as net/http formats it, also
// when the second changes between answers.
func TestAppendDate(t *testing.T) {
	base := time.Date(2026, 11, 27, 1, 2, 3, 0, time.FixedZone("CET", 3600))
	for _, at := range []time.Time{base, base.Add(999 * time.Millisecond), base.Add(time.Second), base.Add(-time.Hour), base.Add(time.Second)} {
		want := "Date: " + at.UTC().Format(http.TimeFormat) + "\r\n"
		if got := string(appendDate([]byte("x"), at)); got != "x"+want {
			t.Errorf("appendDate(%v) = %q, want %q", at, got, "x"+want)
		}
	}
}
