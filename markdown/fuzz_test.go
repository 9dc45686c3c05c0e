package markdown

import (
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// allowed lists every element rendering may produce and the attributes
// each may carry.
var allowed = map[string]map[string]bool{
	"p": {}, "br": {}, "em": {}, "strong": {}, "del": {}, "code": {}, "pre": {}, "hr": {},
	"h1": {}, "h2": {}, "h3": {}, "h4": {}, "h5": {}, "h6": {}, "blockquote": {},
	"ul": {}, "ol": {"start": true}, "li": {},
	"table": {}, "thead": {}, "tbody": {}, "tr": {}, "th": {"style": true}, "td": {"style": true},
	"div":  {"class": true, "data-code-language": true, "aria-hidden": true},
	"span": {"class": true, "data-user-id": true, "data-user-group-id": true, "aria-label": true, "role": true, "title": true},
	"a":    {"href": true, "class": true, "data-stream-id": true, "title": true},
	"img":  {"alt": true, "class": true, "data-original-dimensions": true, "src": true, "title": true},
	"time": {"datetime": true},
	"math": {"xmlns": true, "display": true}, "semantics": {}, "annotation": {"encoding": true},
	"mrow": {}, "mi": {"mathvariant": true}, "mn": {}, "mo": {"movablelimits": true, "form": true, "fence": true, "minsize": true, "maxsize": true},
	"mtext": {}, "mspace": {"width": true}, "msub": {}, "msup": {}, "msubsup": {}, "munder": {"accentunder": true}, "mover": {"accent": true},
	"munderover": {}, "mfrac": {"linethickness": true}, "msqrt": {}, "mroot": {}, "mtable": {"columnalign": true}, "mtr": {}, "mtd": {},
	"mpadded": {"width": true}, "merror": {},
}

var (
	safeHref  = regexp.MustCompile(`^(https?://[^/]|mailto:|/user_uploads/|#narrow/|/#narrow/)`)
	safeSrc   = regexp.MustCompile(`^/user_(avatars|uploads)/`) // custom emoji; previews of uploaded images
	safeStyle = regexp.MustCompile(`^text-align: (left|center|right);$`)
	voids     = map[string]bool{"br": true, "hr": true, "img": true}
)

// checkHTML fails unless out is a well-formed fragment (parsing and
// rendering it again gives the same tokens) of allowed elements and
// attributes, with safe links.
func checkHTML(t *testing.T, in, out string) {
	t.Helper()
	tokens := tokenize(out)
	var open []string
	for _, tok := range tokens {
		switch tok.Type {
		case html.StartTagToken:
			attrs, ok := allowed[tok.Data]
			if !ok {
				t.Fatalf("Render(%q): element <%s> in %q", in, tok.Data, out)
			}
			for _, a := range tok.Attr {
				bad := !attrs[a.Key] ||
					a.Key == "href" && !safeHref.MatchString(a.Val) ||
					a.Key == "src" && !safeSrc.MatchString(a.Val) ||
					a.Key == "style" && !safeStyle.MatchString(a.Val)
				if bad {
					t.Fatalf("Render(%q): attribute %s=%q on <%s> in %q", in, a.Key, a.Val, tok.Data, out)
				}
			}
			if !voids[tok.Data] {
				open = append(open, tok.Data)
			}
		case html.EndTagToken:
			if len(open) == 0 || open[len(open)-1] != tok.Data {
				t.Fatalf("Render(%q): </%s> closes %v in %q", in, tok.Data, open, out)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) != 0 {
		t.Fatalf("Render(%q): unclosed %v in %q", in, open, out)
	}
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatalf("Render(%q): %v", in, err)
	}
	var again strings.Builder
	for _, n := range nodes {
		if err := html.Render(&again, n); err != nil {
			t.Fatalf("Render(%q): %v", in, err)
		}
	}
	if reparsed := tokenize(again.String()); !sameTokens(tokens, reparsed) {
		t.Fatalf("Render(%q): %q is not well-formed; it parses as %q", in, out, again.String())
	}
}

func tokenize(s string) []html.Token {
	z := html.NewTokenizer(strings.NewReader(s))
	var out []html.Token
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		tok := z.Token()
		if tok.Type == html.SelfClosingTagToken {
			tok.Type = html.StartTagToken
		}
		// Adjacent text may be split differently; join it.
		if n := len(out); n > 0 && tok.Type == html.TextToken && out[n-1].Type == html.TextToken {
			out[n-1].Data += tok.Data
			continue
		}
		out = append(out, tok)
	}
	return out
}

func sameTokens(a, b []html.Token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Data != b[i].Data || len(a[i].Attr) != len(b[i].Attr) {
			return false
		}
		for j := range a[i].Attr {
			if a[i].Attr[j].Key != b[i].Attr[j].Key || a[i].Attr[j].Val != b[i].Attr[j].Val {
				return false
			}
		}
	}
	return true
}

// fuzzSeeds are the table cases' inputs plus some hostile ones.
func fuzzSeeds() []string {
	var seeds []string
	for _, cases := range [][]renderCase{textCases, codeCases, blockCases, linkCases, inlineCases, safetyCases} {
		for _, c := range cases {
			seeds = append(seeds, c.in)
		}
	}
	return append(seeds,
		"[t](javascript:x) <img src=x onerror=alert(1)>", "[#**Verona**](https://x.org)", "[@**Full Name**](https://x.org)",
		"* a\n  > b\n  > ```spoiler h\n  > c", "| a |\n|---|\n| <b> |", "[a](https://x.org \"t\") ![i](https://x.org/i.png)",
		"1. a\n   * b\n     > c", "**[a](https://x.org)** ~~[b](https://y.org)~~", "$$x$$ <time:1> :smile: #5",
	)
}

func FuzzRender(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	r := New()
	links, err := CompileLinkifiers([]Linkifier{
		{1, `#(?P<id>[0-9]+)`, "https://x.org/{id}"},
		{2, `(?P<a>[a-z]+)!(?P<b>[0-9]*)`, "https://x.org/{a}{?b}"},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		res := r.Render(in, fakeLookup{}, links)
		checkHTML(t, in, res.HTML)
		for _, l := range r.TopicLinks(in, links) {
			if !safeHref.MatchString(l.URL) || !strings.Contains(in, l.Text) {
				t.Fatalf("TopicLinks(%q): %+v", in, l)
			}
		}
	})
}

// TestRenderedHTMLIsSafe runs the fuzz checks over the seeds.
func TestRenderedHTMLIsSafe(t *testing.T) {
	r := New()
	for _, in := range fuzzSeeds() {
		checkHTML(t, in, r.Render(in, fakeLookup{}, nil).HTML)
	}
}
