package markdown

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Linkifier turns matches of Pattern into links built from URLTemplate.
type Linkifier struct {
	ID          int64
	Pattern     string
	URLTemplate string
}

// Linkifiers is a compiled, immutable set, safe for concurrent use. Earlier
// linkifiers win where matches overlap.
type Linkifiers struct {
	list []compiledLinkifier
}

type compiledLinkifier struct {
	re       *regexp.Regexp // the pattern with Zulip's boundaries around it
	match    int            // index of the group holding the pattern's match
	literal  string         // what every match of the pattern starts with
	template uriTemplate
}

// matchGroup names the group around the user's pattern.
const matchGroup = "linkifier_actual_match"

// legacyVar is Zulip's old %(name)s template variable.
var legacyVar = regexp.MustCompile(`%\(([A-Za-z_][A-Za-z0-9_]*)\)s`)

// ValidateLinkifier checks a pattern (RE2 syntax; Python-style named groups
// (?P<name>...) work) and a template (RFC 6570, or the legacy %(name)s
// form), and returns the template in RFC 6570 form. Errors are sentences
// for the user, worded as Zulip's.
func ValidateLinkifier(pattern, template string) (string, error) {
	if strings.TrimSpace(pattern) == "" {
		return "", fmt.Errorf("The linkifier pattern must not be empty.")
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		detail := err.Error()
		if se, ok := err.(*syntax.Error); ok {
			detail = fmt.Sprintf("%s: %s", se.Code, se.Expr)
		}
		return "", fmt.Errorf("Bad regular expression: %s", detail)
	}
	template = legacyVar.ReplaceAllString(strings.TrimSpace(template), "{$1}")
	t, err := parseTemplate(template)
	if err != nil || !safeTemplate(t) {
		return "", errTemplate
	}
	groups := map[string]bool{}
	for _, name := range re.SubexpNames() {
		if name != "" {
			groups[name] = true
		}
	}
	used := map[string]bool{}
	for _, name := range t.variables() {
		used[name] = true
	}
	if name := firstMissing(used, groups); name != "" {
		return "", fmt.Errorf("Group '%s' in URL template is not present in linkifier pattern.", name)
	}
	if name := firstMissing(groups, used); name != "" {
		return "", fmt.Errorf("Group '%s' in linkifier pattern is not present in URL template.", name)
	}
	return template, nil
}

// firstMissing is the alphabetically first name in want missing from have.
func firstMissing(want, have map[string]bool) string {
	var missing []string
	for name := range want {
		if !have[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return slices.Min(missing)
}

// safeTemplate tells whether a template's links can be made: it must name
// an http(s) or mailto address, or this server's uploads or narrows.
func safeTemplate(t uriTemplate) bool {
	sample := t.expand(func(string) (string, bool) { return "x", true })
	lower := strings.ToLower(sample)
	explicit := false
	for _, prefix := range []string{"http://", "https://", "mailto:", "/user_uploads/", "#narrow/", "/#narrow/"} {
		explicit = explicit || strings.HasPrefix(lower, prefix)
	}
	_, ok := normalizeLink(sample)
	return explicit && ok
}

// CompileLinkifiers prepares a set for rendering.
func CompileLinkifiers(list []Linkifier) (*Linkifiers, error) {
	out := &Linkifiers{}
	for _, l := range list {
		template, err := ValidateLinkifier(l.Pattern, l.URLTemplate)
		if err != nil {
			return nil, fmt.Errorf("linkifier %d: %w", l.ID, err)
		}
		t, _ := parseTemplate(template)
		// A match must follow whitespace or opening punctuation and not run
		// into a letter or digit, as in Zulip.
		re, err := regexp.Compile(`[\s\x{85}\pZ'"(,:<](?P<` + matchGroup + `>(?:` + l.Pattern + `))(?:$|[^\pL\pN])`)
		if err != nil {
			return nil, fmt.Errorf("linkifier %d: %w", l.ID, err)
		}
		// A text without the pattern's literal prefix ("#" of "#123") is
		// most text, and needs no search.
		literal, _ := regexp.MustCompile(l.Pattern).LiteralPrefix()
		out.list = append(out.list, compiledLinkifier{re: re, match: re.SubexpIndex(matchGroup), literal: literal, template: t})
	}
	return out, nil
}

// match is one linkifier hit in a text.
type match struct {
	start, end int
	url        string
}

// maxScans bounds a linkifier's work on one text: its searches read at
// most this many times the text. A search may read to the end of the text
// (a pattern like `[a-z](?:[^\n]*Q)?` does at every letter), so without a
// bound a line that matches at every character costs its length squared.
// One search per match: a line keeps every link unless it holds dozens of
// one linkifier's matches.
const maxScans = 64

// find returns l's hits in s, where before is the character before s
// (' ' at the start of a block).
func (l compiledLinkifier) find(s string, before rune) []match {
	if !strings.Contains(s, l.literal) {
		return nil
	}
	prefix := string(before)
	t := prefix + s
	var out []match
	budget := maxScans * len(t)
	for pos := 0; pos < len(t); {
		// A match is the pattern's literal prefix and the character before
		// it: the search starts there, and ends when no prefix is left.
		if l.literal != "" {
			next := strings.Index(t[pos:], l.literal)
			if next < 0 {
				break
			}
			_, size := utf8.DecodeLastRuneInString(t[:pos+next])
			pos = max(pos, pos+next-size)
		}
		if budget -= len(t) - pos; budget < 0 {
			break
		}
		loc := l.re.FindStringSubmatchIndex(t[pos:])
		if loc == nil {
			break
		}
		base := pos
		group := func(i int) (string, bool) {
			if i < 0 || loc[2*i] < 0 {
				return "", false
			}
			return t[base+loc[2*i] : base+loc[2*i+1]], true
		}
		a, b := base+loc[2*l.match], base+loc[2*l.match+1]
		// The next match may start with the character after this one.
		pos = max(b, pos+1)
		if a == b {
			continue
		}
		url := l.template.expand(func(name string) (string, bool) { return group(l.re.SubexpIndex(name)) })
		if href, ok := normalizeLink(url); ok {
			out = append(out, match{start: a - len(prefix), end: b - len(prefix), url: href})
		}
	}
	return out
}

// findAll returns every linkifier's hits in s, earlier linkifiers first,
// without overlaps.
func (ls *Linkifiers) findAll(s string, before rune) []match {
	if ls == nil {
		return nil
	}
	var out []match
	for _, l := range ls.list {
		for _, m := range l.find(s, before) {
			if !overlaps(out, m) {
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(a, b match) int { return a.start - b.start })
	return out
}

func overlaps(list []match, m match) bool {
	for _, o := range list {
		if m.start < o.end && o.start < m.end {
			return true
		}
	}
	return false
}

// linkify splits t around each linkifier hit in it; sourceText is source as
// the string it was made from, so text nodes need no copies.
func linkify(t *ast.Text, links *Linkifiers, source []byte, sourceText string) {
	var pieces []textPiece
	for _, m := range links.findAll(sourceText[t.Segment.Start:t.Segment.Stop], charBefore(t, source)) {
		link := ast.NewLink()
		link.Destination = []byte(m.url)
		label := ast.NewTextSegment(text.NewSegment(t.Segment.Start+m.start, t.Segment.Start+m.end))
		label.SetRaw(true)
		link.AppendChild(link, label)
		pieces = append(pieces, textPiece{start: m.start, end: m.end, node: link})
	}
	replacePieces(t, pieces)
}

// charBefore is what precedes a text node for the boundary rule: a space
// at the start of a block, else the source character before it (so a
// match right after **bold** or a mention does not count, as in Zulip).
func charBefore(t *ast.Text, source []byte) rune {
	if t.PreviousSibling() == nil && t.Parent() != nil && t.Parent().Type() == ast.TypeBlock || t.Segment.Start == 0 {
		return ' '
	}
	r, _ := utf8.DecodeLastRune(source[:t.Segment.Start])
	return r
}
