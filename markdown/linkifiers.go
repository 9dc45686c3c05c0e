package markdown

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Linkifier turns matches of Pattern into links built from URLTemplate.
type Linkifier struct {
	ID          int64
	Pattern     string
	URLTemplate string
}

// Linkifiers is a compiled, immutable set, safe for concurrent use.
type Linkifiers struct {
	list []compiledLinkifier
}

type compiledLinkifier struct {
	re       *regexp.Regexp
	template string
}

// legacyVar is Zulip's old %(name)s template variable.
var legacyVar = regexp.MustCompile(`%\(([A-Za-z_][A-Za-z0-9_]*)\)s`)

// templateVar is an RFC 6570 simple expression {name}.
var templateVar = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ValidateLinkifier checks a pattern and template (RFC 6570 {var} or the
// legacy %(var)s) and returns the template in {var} form.
func ValidateLinkifier(pattern, template string) (string, error) {
	if strings.TrimSpace(pattern) == "" {
		return "", fmt.Errorf("Pattern must not be empty")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", fmt.Errorf("Invalid linkifier pattern: %v", err)
	}
	template = legacyVar.ReplaceAllString(strings.TrimSpace(template), "{$1}")
	u, err := url.Parse(templateVar.ReplaceAllString(template, "x"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("Invalid URL template: it must be an http or https address")
	}
	groups := map[string]bool{}
	for _, name := range re.SubexpNames() {
		if name != "" {
			groups[name] = true
		}
	}
	for _, m := range templateVar.FindAllStringSubmatch(template, -1) {
		if !groups[m[1]] {
			return "", fmt.Errorf("Group %q in the URL template is not present in the pattern", m[1])
		}
	}
	return template, nil
}

// CompileLinkifiers prepares a set for rendering.
func CompileLinkifiers(list []Linkifier) (*Linkifiers, error) {
	out := &Linkifiers{}
	for _, l := range list {
		template, err := ValidateLinkifier(l.Pattern, l.URLTemplate)
		if err != nil {
			return nil, fmt.Errorf("linkifier %d: %w", l.ID, err)
		}
		out.list = append(out.list, compiledLinkifier{re: regexp.MustCompile(l.Pattern), template: template})
	}
	return out, nil
}

// match is one linkifier hit in a text.
type match struct {
	start, end int
	url        string
}

// find returns the non-overlapping hits in s, earliest first. A hit must
// start at the beginning, after whitespace or opening punctuation, and must
// not run into a letter or digit.
func (ls *Linkifiers) find(s string) []match {
	if ls == nil {
		return nil
	}
	var out []match
	taken := func(a, b int) bool {
		for _, m := range out {
			if a < m.end && b > m.start {
				return true
			}
		}
		return false
	}
	for _, l := range ls.list {
		for _, loc := range l.re.FindAllStringSubmatchIndex(s, -1) {
			a, b := loc[0], loc[1]
			if a == b || taken(a, b) || !boundaryBefore(s, a) || !boundaryAfter(s, b) {
				continue
			}
			out = append(out, match{a, b, l.expand(s, loc)})
		}
	}
	slices.SortFunc(out, func(a, b match) int { return a.start - b.start })
	return out
}

func (l compiledLinkifier) expand(s string, loc []int) string {
	return templateVar.ReplaceAllStringFunc(l.template, func(v string) string {
		i := l.re.SubexpIndex(v[1 : len(v)-1])
		if i < 0 || loc[2*i] < 0 {
			return ""
		}
		return url.PathEscape(s[loc[2*i]:loc[2*i+1]])
	})
}

func boundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsSpace(r) || strings.ContainsRune("([{\"'", r)
}

func boundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// linkifierTransformer applies linkifiers to text outside code and links,
// splitting text nodes around each hit.
type linkifierTransformer struct{}

func (*linkifierTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	links := envOf(pc).links
	if links == nil || len(links.list) == 0 {
		return
	}
	source := reader.Source()
	texts := proseTexts(doc)
	for _, t := range texts {
		seg := t.Segment
		matches := links.find(string(seg.Value(source)))
		if len(matches) == 0 {
			continue
		}
		parent, last := t.Parent(), ast.Node(t)
		pos := 0
		for _, m := range matches {
			if m.start > pos {
				piece := ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Start+m.start))
				parent.InsertAfter(parent, last, piece)
				last = piece
			}
			link := ast.NewLink()
			link.Destination = []byte(m.url)
			link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+m.start, seg.Start+m.end)))
			parent.InsertAfter(parent, last, link)
			last = link
			pos = m.end
		}
		rest := ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Stop))
		rest.SetSoftLineBreak(t.SoftLineBreak())
		rest.SetHardLineBreak(t.HardLineBreak())
		parent.InsertAfter(parent, last, rest)
		parent.RemoveChild(parent, t)
	}
}

// bareURL finds http(s) addresses in topics.
var bareURL = regexp.MustCompile(`https?://[^\s<>"]+[^\s<>".,;:!?)\]'}]`)

// TopicLinks finds links in a topic: linkifier hits and bare URLs, in order.
func (r *Renderer) TopicLinks(topic string, links *Linkifiers) []TopicLink {
	out := []TopicLink{}
	type hit struct {
		start int
		link  TopicLink
	}
	var hits []hit
	for _, m := range links.find(topic) {
		hits = append(hits, hit{m.start, TopicLink{Text: topic[m.start:m.end], URL: m.url}})
	}
	for _, loc := range bareURL.FindAllStringIndex(topic, -1) {
		hits = append(hits, hit{loc[0], TopicLink{Text: topic[loc[0]:loc[1]], URL: topic[loc[0]:loc[1]]}})
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.start - b.start })
	for _, h := range hits {
		out = append(out, h.link)
	}
	return out
}
