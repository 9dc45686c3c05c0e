package markdown

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// allowedElements and allowedAttrs are everything rendering may produce.
var allowedElements = map[string]bool{
	"p": true, "br": true, "em": true, "strong": true, "del": true, "code": true, "pre": true, "div": true,
	"span": true, "a": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"blockquote": true, "ul": true, "ol": true, "li": true, "table": true, "thead": true, "tbody": true,
	"tr": true, "th": true, "td": true, "img": true, "time": true, "math": true, "semantics": true,
	"annotation": true, "hr": true,
}

var allowedAttrs = map[string]bool{
	"class": true, "href": true, "data-user-id": true, "data-user-group-id": true, "data-stream-id": true,
	"data-code-language": true, "aria-label": true, "aria-hidden": true, "role": true, "title": true,
	"alt": true, "src": true, "datetime": true, "start": true, "encoding": true, "align": true,
}

// checkHTML fails unless out is a well-formed fragment of allowed elements
// and attributes whose links use safe schemes.
func checkHTML(t *testing.T, in, out string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(out))
	var open []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if len(open) != 0 {
				t.Fatalf("Render(%q): unclosed %v in %q", in, open, out)
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !allowedElements[tok.Data] {
				t.Fatalf("Render(%q): element <%s> in %q", in, tok.Data, out)
			}
			for _, a := range tok.Attr {
				if !allowedAttrs[a.Key] {
					t.Fatalf("Render(%q): attribute %s in %q", in, a.Key, out)
				}
				if (a.Key == "href" || a.Key == "src") && !safeURL(a.Val) {
					t.Fatalf("Render(%q): unsafe %s=%q", in, a.Key, a.Val)
				}
			}
			if tt == html.StartTagToken && tok.Data != "br" && tok.Data != "img" && tok.Data != "hr" {
				open = append(open, tok.Data)
			}
		case html.EndTagToken:
			tok := z.Token()
			if len(open) == 0 || open[len(open)-1] != tok.Data {
				t.Fatalf("Render(%q): </%s> closes %v in %q", in, tok.Data, open, out)
			}
			open = open[:len(open)-1]
		}
	}
}

func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"text", "a\nb", "*x* **x** ***x***", "```python\nprint(1)\n```", "> q\n> @**Full Name**",
		"```spoiler H\n* a\n```", "[t](javascript:x) <img src=x onerror=alert(1)>", "@*grp* #**Verona>t@1**",
		":smile: 🙂 👍🏽", "$$x$$ <time:1>", "| a |\n|---|\n| <b> |", "```quote\n```quote\nx\n```\n```",
		"[a](https://x.org \"title\")", "![i](https://x.org/i.png)", "1. a\n   * b\n     > c",
	} {
		f.Add(seed)
	}
	r := New()
	links, _ := CompileLinkifiers([]Linkifier{{1, `#(?P<id>[0-9]+)`, "https://x.org/{id}"}})
	f.Fuzz(func(t *testing.T, in string) {
		res := r.Render(in, fakeLookup{}, links)
		checkHTML(t, in, res.HTML)
		r.TopicLinks(in, links)
	})
}

// Hostile nesting and repetition must render in linear-ish time; this test
// only has to finish (make test has a timeout), it asserts no duration.
func TestHostileInputFinishes(t *testing.T) {
	r := New()
	for _, in := range []string{
		strings.Repeat("[", 50000), strings.Repeat("**", 25000), strings.Repeat("> ", 20000) + "x",
		strings.Repeat("*a ", 20000), strings.Repeat("@**", 20000), strings.Repeat(":a", 30000),
		strings.Repeat("```quote\n", 5000), strings.Repeat("- ", 10000) + "x", strings.Repeat("$$", 30000),
		strings.Repeat("#**", 20000), strings.Repeat("<time:", 20000), strings.Repeat("🙂", 20000),
	} {
		start := time.Now()
		res := r.Render(in, fakeLookup{}, nil)
		checkHTML(t, in[:20], res.HTML)
		t.Logf("%q…: %v", in[:10], time.Since(start))
	}
}
