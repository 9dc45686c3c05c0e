package markdown

import (
	"fmt"
	"strings"
	"testing"
)

func mustLinkifiers(t testing.TB, list ...Linkifier) *Linkifiers {
	t.Helper()
	links, err := CompileLinkifiers(list)
	if err != nil {
		t.Fatal(err)
	}
	return links
}

func TestLinkifiersInMessages(t *testing.T) {
	links := mustLinkifiers(t,
		Linkifier{1, `#(?P<id>[0-9]+)`, "https://github.com/o/r/issues/{id}"},
		Linkifier{2, `RFC(?P<num>[0-9]+)`, "https://tools.ietf.org/html/rfc%(num)s"},
		Linkifier{3, `(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)`, "https://github.com/{org}/{repo}/pull/{id}"},
		Linkifier{4, `ticket:(?P<q>[a-z ]+)!`, "https://t.example/search{?q}"},
		Linkifier{5, `(?i)jira-(?P<key>[0-9]+)`, "https://jira.example/{key}"},
	)
	cases := []struct{ in, want string }{
		{"fixes #123", `<p>fixes <a href="https://github.com/o/r/issues/123">#123</a></p>`},
		{"#1 #2", `<p><a href="https://github.com/o/r/issues/1">#1</a> <a href="https://github.com/o/r/issues/2">#2</a></p>`},
		{"(#7) and RFC2119", `<p>(<a href="https://github.com/o/r/issues/7">#7</a>) and <a href="https://tools.ietf.org/html/rfc2119">RFC2119</a></p>`},
		{"abc#123 #12x #1_", `<p>abc#123 #12x <a href="https://github.com/o/r/issues/1">#1</a>_</p>`},
		{"zulip/zulip#42", `<p><a href="https://github.com/zulip/zulip/pull/42">zulip/zulip#42</a></p>`},
		{"ticket:red car!", `<p><a href="https://t.example/search?q=red%20car">ticket:red car!</a></p>`},
		{"`#123` [#9](https://x.org)", `<p><code>#123</code> <a href="https://x.org">#9</a></p>`},
		{"https://x.org/#123", `<p><a href="https://x.org/#123">https://x.org/#123</a></p>`},
		{"**#5**", `<p><strong>#5</strong></p>`},
		{"- #5\n> #6", "<ul>\n<li><a href=\"https://github.com/o/r/issues/5\">#5</a></li>\n</ul>\n<blockquote>\n<p><a href=\"https://github.com/o/r/issues/6\">#6</a></p>\n</blockquote>"},
		{"a\n#5", "<p>a<br>\n<a href=\"https://github.com/o/r/issues/5\">#5</a></p>"},
		// The search starts a character before each "#": here a two-byte
		// space (U+00A0) and a three-byte one (U+3000), after a "#" that
		// cannot match and one inside a word.
		{"x# a#1\u00a0#2\u3000#3", "<p>x# a#1\u00a0<a href=\"https://github.com/o/r/issues/2\">#2</a>\u3000<a href=\"https://github.com/o/r/issues/3\">#3</a></p>"},
		// No literal prefix under (?i): every case links.
		{"JIRA-7, Jira-8", `<p><a href="https://jira.example/7">JIRA-7</a>, <a href="https://jira.example/8">Jira-8</a></p>`},
	}
	r := New()
	for _, tc := range cases {
		if got := r.Render(tc.in, fakeLookup{}, links).HTML; got != tc.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if res := r.Render("see #5", nil, links); !res.HasLink {
		t.Error("linkifier links do not count as links")
	}
}

func TestValidateLinkifier(t *testing.T) {
	cases := []struct {
		pattern, template, want, err string
	}{
		{`#(?P<id>[0-9]+)`, "https://x.org/{id}", "https://x.org/{id}", ""},
		{`#(?P<id>[0-9]+)`, " https://x.org/%(id)s ", "https://x.org/{id}", ""},
		{`(?P<a>x)(?P<b>y)`, "https://x.org/{a}{?b}", "https://x.org/{a}{?b}", ""},
		{`(?P<a>x)`, "https://x.org/{+a}/{#a}/{a:3}", "https://x.org/{+a}/{#a}/{a:3}", ""},
		{`(?P<id>\d+)`, "mailto:x{id}@example.org", "mailto:x{id}@example.org", ""},
		{`#(?P<id>[0-9]+`, "https://x.org/{id}", "", "Bad regular expression: missing closing ): #(?P<id>[0-9]+"},
		{`(?P<id>a)(?<!b)`, "https://x.org/{id}", "", "Bad regular expression: "},
		{`#(?P<id>[0-9]+)`, "https://x.org/{other}", "", "Group 'other' in URL template is not present in linkifier pattern."},
		{`#(?P<id>[0-9]+)(?P<b>x)`, "https://x.org/{id}", "", "Group 'b' in linkifier pattern is not present in URL template."},
		{`#(?P<id>[0-9]+)`, "javascript:{id}", "", "Invalid URL template."},
		{`#(?P<id>[0-9]+)`, "/etc/{id}", "", "Invalid URL template."},
		{`#(?P<id>[0-9]+)`, "https://x.org/{id", "", "Invalid URL template."},
		{`#(?P<id>[0-9]+)`, "https://x.org/{!id}", "", "Invalid URL template."},
		{`#(?P<id>[0-9]+)`, "https://x.org/a b/{id}", "", "Invalid URL template."},
		{``, "https://x.org", "", "The linkifier pattern must not be empty."},
	}
	for _, tc := range cases {
		got, err := ValidateLinkifier(tc.pattern, tc.template)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("ValidateLinkifier(%q, %q) = %q, %v; want %q, %q", tc.pattern, tc.template, got, err, tc.want, tc.err)
		}
	}
	if _, err := CompileLinkifiers([]Linkifier{{9, `(`, "https://x.org"}}); err == nil || !strings.Contains(err.Error(), "linkifier 9") {
		t.Errorf("CompileLinkifiers of a bad pattern: %v", err)
	}
}

func TestURITemplateExpansion(t *testing.T) {
	values := map[string]string{"var": "value", "hello": "Hello World!", "path": "/foo/bar", "empty": "", "x": "1024", "y": "768"}
	lookup := func(name string) (string, bool) { v, ok := values[name]; return v, ok }
	// Examples from RFC 6570.
	cases := map[string]string{
		"{var}":           "value",
		"{hello}":         "Hello%20World%21",
		"{+hello}":        "Hello%20World!",
		"{+path}/here":    "/foo/bar/here",
		"{#path}":         "#/foo/bar",
		"X{.var}":         "X.value",
		"{/var,x}/here":   "/value/1024/here",
		"{;x,y,empty}":    ";x=1024;y=768;empty",
		"{?x,y,empty}":    "?x=1024&y=768&empty=",
		"?fixed=yes{&x}":  "?fixed=yes&x=1024",
		"{var:3}":         "val",
		"{undef}{?undef}": "",
		"{x,undef,y}":     "1024,768",
	}
	for template, want := range cases {
		parsed, err := parseTemplate(template)
		if err != nil {
			t.Errorf("parseTemplate(%q): %v", template, err)
			continue
		}
		if got := parsed.expand(lookup); got != want {
			t.Errorf("expand(%q) = %q, want %q", template, got, want)
		}
	}
}

func TestTopicLinks(t *testing.T) {
	links := mustLinkifiers(t,
		Linkifier{1, `#(?P<id>[0-9]+)`, "https://github.com/o/r/issues/{id}"},
		Linkifier{2, `(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)`, "https://github.com/{org}/{repo}/pull/{id}"},
	)
	r := New()
	cases := []struct {
		topic string
		want  []TopicLink
	}{
		{"plain", []TopicLink{}},
		{"fix #42, see https://x.org/doc", []TopicLink{{"#42", "https://github.com/o/r/issues/42"}, {"https://x.org/doc", "https://x.org/doc"}}},
		{"zulip/zulip#7", []TopicLink{{"zulip/zulip#7", "https://github.com/zulip/zulip/pull/7"}}},
		{"#1 #2", []TopicLink{{"#1", "https://github.com/o/r/issues/1"}, {"#2", "https://github.com/o/r/issues/2"}}},
		{"docs at www.example.org/a!", []TopicLink{{"www.example.org/a", "https://www.example.org/a"}}},
		{"url:https://x.org/#5", []TopicLink{{"https://x.org/#5", "https://x.org/#5"}}},
		{"mail a@b.com", []TopicLink{}},
		{"javascript://x.org", []TopicLink{}},
	}
	for _, tc := range cases {
		got := r.TopicLinks(tc.topic, links)
		if len(got) != len(tc.want) {
			t.Errorf("TopicLinks(%q) = %+v, want %+v", tc.topic, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("TopicLinks(%q) = %+v, want %+v", tc.topic, got, tc.want)
			}
		}
	}
	if got := r.TopicLinks("see https://x.org", nil); len(got) != 1 {
		t.Errorf("TopicLinks without linkifiers: %+v", got)
	}
	if got := r.TopicLinks("", nil); got == nil {
		t.Error("TopicLinks returned nil")
	}
}

// TestLinkifierWorkIsBounded: a pattern such as `[a-z](?:[^\n]*Q)?` matches
// at nearly every character and each search reads to the end of the line,
// so a 10 KB line cost 5000 searches of up to 10 KB each (1.8 s). A
// linkifier's searches now read at most maxScans times the text: the
// pathological line is cut after a few dozen links, while a line with a
// normal number of matches is linkified whole.
func TestLinkifierWorkIsBounded(t *testing.T) {
	r := New()
	hostile := mustLinkifiers(t, Linkifier{1, `(?P<c>[a-z])(?:[^\n]*Q)?`, "https://x.org/{c}"})
	res := r.Render(strings.Repeat("a b ", 2500), fakeLookup{}, hostile)
	if links := strings.Count(res.HTML, "<a "); links > maxScans {
		t.Errorf("%d searches of a 10 KB line", links)
	}
	normal := mustLinkifiers(t, Linkifier{1, `#(?P<id>[0-9]+)`, "https://x.org/{id}"})
	var line strings.Builder
	for i := range 60 {
		fmt.Fprintf(&line, "see #%d and %s ", i, strings.Repeat("words ", 25))
	}
	res = r.Render(line.String(), fakeLookup{}, normal)
	if links := strings.Count(res.HTML, "<a "); links != 60 {
		t.Errorf("%d of 60 references linkified on a %d-byte line", links, line.Len())
	}
}
