package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// urlKind is how a bare address was written.
type urlKind int

const (
	urlScheme urlKind = iota + 1 // http:// or https://
	urlWWW                       // www.example.org
	urlEmail                     // someone@example.org
)

// maxParenDepth is how deeply parentheses may nest in a bare URL's path
// (Zulip's pattern allows a fixed depth too).
const maxParenDepth = 7

// maxURLBytes bounds a bare URL, so scanning stays linear on long runs of
// text without spaces.
const maxURLBytes = 4096

// urlCandidate is the word at the start of s, if scanURL could accept
// it: short enough, and starting like http://, https://, www. or local@
// (mayStartURL). It runs at every space, so it looks at as little as it
// can.
func urlCandidate[T string | []byte](s T) (string, bool) {
	if len(s) < 4 || !mayStartURL(s) {
		return "", false
	}
	end := 0
	for end < len(s) && end <= maxURLBytes && s[end] != ' ' && s[end] != '\t' && s[end] != '\n' {
		end++
	}
	word := string(s[:end])
	if i := strings.IndexFunc(word, unicode.IsSpace); i >= 0 {
		word = word[:i]
	}
	return word, len(word) >= 4 && len(word) <= maxURLBytes
}

// mayStartURL is a cheap test for what scanURL could accept: http:// or
// https://, www., or a local part followed by '@'.
func mayStartURL[T string | []byte](word T) bool {
	if kind, _ := urlStart(word); kind != 0 {
		return true
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c == '@' {
			return i > 0
		}
		if c < 0x80 && !util.IsAlphaNumeric(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return false
}

// urlStart is how s begins a URL of the scheme or www. kind, and where
// its host starts; kind 0 for neither.
func urlStart[T string | []byte](s T) (kind urlKind, hostStart int) {
	switch {
	case hasPrefix(s, "https://"):
		return urlScheme, len("https://")
	case hasPrefix(s, "http://"):
		return urlScheme, len("http://")
	case len(s) > 4 && strings.EqualFold(string(s[:4]), "www."):
		return urlWWW, 0
	}
	return 0, 0
}

// hasPrefix is strings.HasPrefix for a string or a byte slice, without
// converting a byte slice to a string.
func hasPrefix[T string | []byte](s T, prefix string) bool {
	return len(s) >= len(prefix) && string(s[:len(prefix)]) == prefix
}

// trailingPunct may follow a bare URL without being part of it.
const trailingPunct = "!:;?),.'\">"

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDomainRune(r rune) bool { return isWordRune(r) || strings.ContainsRune(".:@-", r) }

// scanURL reads a bare URL at the start of s with Zulip's rules: http(s)
// with any host, www. names, or an e-mail address; a path may hold
// balanced parentheses; the URL must be followed by nothing but trailing
// punctuation before whitespace or the end. It returns the URL's length
// in bytes (0 if there is none) and its kind.
func scanURL(s string) (int, urlKind) {
	word := len(s)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		word = i
	}
	// The URL must end where only trailing punctuation is left.
	tail := word
	for tail > 0 && strings.IndexByte(trailingPunct, s[tail-1]) >= 0 {
		tail--
	}
	kind, hostStart := urlStart(s)
	if kind == 0 {
		if n := scanEmail(s[:word], tail); n > 0 {
			return n, urlEmail
		}
		return 0, 0
	}
	host := hostStart
	for host < word {
		r, size := utf8.DecodeRuneInString(s[host:])
		if !isDomainRune(r) {
			break
		}
		host += size
	}
	if host == hostStart {
		return 0, 0
	}
	if tail <= host {
		// No path: the shortest host that reaches the trailing punctuation
		// (which may start inside the host, as in "https://t.co.").
		end := max(tail, hostStart+1)
		if kind == urlWWW && !wwwHost(s[:end]) {
			return 0, 0
		}
		return end, kind
	}
	if s[host] != '/' || kind == urlWWW && !wwwHost(s[:host]) {
		return 0, 0
	}
	// The shortest path with balanced parentheses that reaches the
	// trailing punctuation.
	depth := 0
	for i := host; i < word; {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '"':
			return 0, 0
		case '(':
			if depth++; depth > maxParenDepth {
				return 0, 0
			}
		case ')':
			if depth--; depth < 0 {
				return 0, 0
			}
		}
		if i += size; i >= tail && depth == 0 {
			return i, kind
		}
	}
	return 0, 0
}

// wwwHost checks a www. name: dot-separated words ending in a
// letters-only top-level domain.
func wwwHost(host string) bool {
	labels := strings.Split(host, ".")
	if len(labels) < 3 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.IndexFunc(l, func(r rune) bool { return !isWordRune(r) && r != '-' }) >= 0 {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return len(tld) >= 2 && strings.IndexFunc(tld, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// scanEmail reads local@domain.tld covering at least s[:tail].
func scanEmail(s string, tail int) int {
	at := strings.IndexByte(s, '@')
	if at <= 0 || tail <= at+1 {
		return 0
	}
	addr := s[:tail]
	dot := strings.LastIndexByte(addr, '.')
	if dot <= at+1 || dot == len(addr)-1 {
		return 0
	}
	valid := func(part string, extra string) bool {
		return strings.IndexFunc(part, func(r rune) bool { return !isWordRune(r) && !strings.ContainsRune(extra, r) }) < 0
	}
	if !valid(addr[:at], ".-") || !valid(addr[at+1:dot], ".-") || !valid(addr[dot+1:], "") {
		return 0
	}
	return tail
}

// autoLinkParser links bare URLs in text. As in Zulip, a URL must start a
// line or follow whitespace or one of ( ' " , : <.
type autoLinkParser struct{}

func (*autoLinkParser) Trigger() []byte { return []byte{' ', '(', '\'', '"', ',', ':', '<'} }

func (*autoLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, seg := block.PeekLine()
	skip := 0
	if r, size := utf8.DecodeRune(line); unicode.IsSpace(r) || strings.ContainsRune("('\",:<", r) {
		skip = size
	} else if before := block.PrecendingCharacter(); !unicode.IsSpace(before) {
		// goldmark also calls here after every inline node; a URL right
		// after one (**bold**http://…) is not linked, as in Zulip.
		return nil
	}
	word, ok := urlCandidate(line[skip:])
	if !ok {
		return nil
	}
	n, kind := scanURL(word)
	if n == 0 {
		return nil
	}
	if skip > 0 {
		ast.MergeOrAppendTextSegment(parent, seg.WithStop(seg.Start+skip))
	}
	block.Advance(skip + n)
	label := ast.NewTextSegment(text.NewSegment(seg.Start+skip, seg.Start+skip+n))
	label.SetRaw(true)
	link := ast.NewLink()
	link.Destination = []byte(string(line[skip : skip+n]))
	if kind == urlEmail {
		link.Destination = append([]byte("mailto:"), link.Destination...)
	}
	link.AppendChild(link, label)
	return link
}
