package api

import (
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// pollHead parses a request head (up to and including its blank line) when
// it is plainly a poll the loop serves: GET /api/v1/events over HTTP/1.1,
// well-formed header fields, one Host, no body. Anything else, odd or just
// rarer, is !ok and goes to net/http, which judges it as it does every
// request. It fills r directly (http.ReadRequest's general reader was a
// tenth of an owned poll's CPU): r comes with its context and an empty
// header map, nothing else set.
func pollHead(head string, r *http.Request) (ok bool) {
	line, rest, _ := strings.Cut(head, "\r\n")
	method, line, _ := strings.Cut(line, " ")
	target, proto, _ := strings.Cut(line, " ")
	path, _, _ := strings.Cut(target, "?")
	if method != http.MethodGet || proto != "HTTP/1.1" || path != "/api/v1/events" {
		return false
	}
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return false
	}
	h := r.Header
	for {
		line, rest, _ = strings.Cut(rest, "\r\n")
		if line == "" {
			break
		}
		name, value, found := strings.Cut(line, ":")
		if !found || !validFieldName(name) || !validFieldValue(value) {
			return false
		}
		key := textproto.CanonicalMIMEHeaderKey(name)
		h[key] = append(h[key], strings.Trim(value, " \t"))
	}
	hosts := h["Host"]
	if len(hosts) != 1 {
		return false
	}
	delete(h, "Host")
	r.Method, r.URL, r.Proto, r.ProtoMajor, r.ProtoMinor = method, u, proto, 1, 1
	r.Body, r.Host, r.RequestURI = http.NoBody, hosts[0], target
	if cl := h["Content-Length"]; len(cl) > 1 || len(cl) == 1 && cl[0] != "0" || h["Transfer-Encoding"] != nil {
		return false
	}
	r.Close = hasToken(h.Get("Connection"), "close")
	return ownable(r)
}

// validFieldName: a token (RFC 9110), as net/http requires.
func validFieldName(s string) bool { return alnumOr(s, "!#$%&'*+-.^_`|~") }

// alnumOr: s is not empty and holds only ASCII letters, digits and bytes of
// extra.
func alnumOr(s, extra string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// validFieldValue: no control characters but tab.
func validFieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
