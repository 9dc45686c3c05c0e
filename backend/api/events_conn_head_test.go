package api

import (
	"bufio"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// pollHead takes a head only when net/http would read the same request
// from it, and leaves everything else to net/http.
func TestPollHeadReadsWhatNetHTTPReads(t *testing.T) {
	const auth = "Authorization: Basic YWxpY2U6a2V5\r\n"
	for _, tc := range []struct {
		name string
		head string
		own  bool
	}{
		{"a poll", "GET /api/v1/events?queue_id=q&last_event_id=3 HTTP/1.1\r\nHost: lanchat.test:9991\r\n" + auth + "\r\n", true},
		{"no query", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\n" + auth + "\r\n", true},
		{"odd spacing and case", "GET /api/v1/events?queue_id=q HTTP/1.1\r\nhost:h\r\naccept-encoding: \t gzip, br \t\r\nX-A: 1\r\nx-a: 2\r\n" + auth + "\r\n", true},
		{"an empty value", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nX-Empty:\r\n\r\n", true},
		{"a zero body", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", true},
		{"another route", "GET /api/v1/users/me HTTP/1.1\r\nHost: h\r\n\r\n", false},
		{"a longer path", "GET /api/v1/events/socket HTTP/1.1\r\nHost: h\r\n\r\n", false},
		{"HEAD", "HEAD /api/v1/events HTTP/1.1\r\nHost: h\r\n\r\n", false},
		{"DELETE", "DELETE /api/v1/events HTTP/1.1\r\nHost: h\r\n\r\n", false},
		{"HTTP/1.0", "GET /api/v1/events HTTP/1.0\r\nHost: h\r\n\r\n", false},
		{"Connection: close", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n", false},
		{"no Host", "GET /api/v1/events HTTP/1.1\r\n\r\n", false},
		{"two Hosts", "GET /api/v1/events HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", false},
		{"a bad Host", "GET /api/v1/events HTTP/1.1\r\nHost: a b\r\n\r\n", false},
		{"a body", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\n", false},
		{"chunked", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n", false},
		{"Expect", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n", false},
		{"Upgrade", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n\r\n", false},
		{"a folded line", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n 2\r\n\r\n", false},
		{"a space before the colon", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nX-A : 1\r\n\r\n", false},
		{"no colon", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nX-A\r\n\r\n", false},
		{"a control byte", "GET /api/v1/events HTTP/1.1\r\nHost: h\r\nX-A: a\x01b\r\n\r\n", false},
		{"an absolute target", "GET http://h/api/v1/events HTTP/1.1\r\nHost: h\r\n\r\n", false},
		{"a bad escape", "GET /api/v1/events?q=%zz HTTP/1.1\r\nHost: h\r\n\r\n", true},
		{"a space in the target", "GET /api/v1/events?a b HTTP/1.1\r\nHost: h\r\n\r\n", false},
	} {
		got := &http.Request{Header: http.Header{}}
		own := pollHead(tc.head, got)
		if own != tc.own {
			t.Errorf("%s: owned %v, want %v", tc.name, own, tc.own)
			continue
		}
		if !own {
			continue
		}
		want, err := http.ReadRequest(bufio.NewReader(strings.NewReader(tc.head)))
		if err != nil {
			t.Errorf("%s: net/http refuses it: %v", tc.name, err)
			continue
		}
		delete(want.Header, "Host") // net/http's server does too
		for _, f := range []struct {
			field     string
			got, want any
		}{
			{"method", got.Method, want.Method}, {"URL", got.URL, want.URL}, {"target", got.RequestURI, want.RequestURI},
			{"proto", got.Proto, want.Proto}, {"host", got.Host, want.Host}, {"header", got.Header, want.Header},
			{"close", got.Close, want.Close}, {"length", got.ContentLength, want.ContentLength},
		} {
			if !reflect.DeepEqual(f.got, f.want) {
				t.Errorf("%s: %s %#v, net/http %#v", tc.name, f.field, f.got, f.want)
			}
		}
	}
}

// An owned poll's headers are the bytes http.Header.Write gives: sorted,
// invalid names dropped, values trimmed and their line breaks made spaces.
func FuzzAppendHeader(f *testing.F) {
	f.Add("Content-Type", "application/json", "X-B", "b")
	f.Add("Vary", " Accept-Encoding \t", "Cache-Control", "no-store")
	f.Add("X-Split", "one\r\ntwo\nthree\r", "X-Empty", "")
	f.Add("Bad Name", "v", "Bad:Name", "\r\n")
	f.Add("a", "lower", "A", "upper")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		h := http.Header{}
		h[k1] = append(h[k1], v1)
		h[k2] = append(h[k2], v2, v1)
		var want strings.Builder
		h.Write(&want)
		if got := string(appendHeader(nil, h)); got != want.String() {
			t.Errorf("appendHeader\n%q\nhttp.Header.Write\n%q", got, want.String())
		}
	})
}
