package markdown

import (
	"strings"
	"testing"
	"time"
)

// hostileInputs are 50 KB of repetition and nesting that would make a
// careless parser quadratic or exponential.
var hostileInputs = map[string]string{
	"brackets":      strings.Repeat("[", 50000),
	"stars":         strings.Repeat("**", 25000),
	"star words":    strings.Repeat("*a ", 16000),
	"nested quotes": strings.Repeat("> ", 25000) + "x",
	"list nesting":  strings.Repeat("- ", 25000) + "x",
	"mentions":      strings.Repeat("@**", 16000),
	"groups":        strings.Repeat("@*a", 16000),
	"streams":       strings.Repeat("#**", 16000),
	"emoji colons":  strings.Repeat(":a", 25000),
	"dollars":       strings.Repeat("$$", 25000),
	"escaped math":  "$$" + strings.Repeat(`\$`, 25000),
	"times":         strings.Repeat("<time:", 8000),
	"backticks":     strings.Repeat("`", 50000),
	"backtick runs": func() string {
		var b strings.Builder
		for i := 1; b.Len() < 50000; i++ {
			b.WriteString(strings.Repeat("`", i%300) + " a ")
		}
		return b.String()
	}(),
	"quote fences":   strings.Repeat("```quote\n", 5000),
	"code fences":    strings.Repeat("```\n", 12000),
	"links":          strings.Repeat("[a](", 12000),
	"urls":           strings.Repeat("http://x.org/(", 3500),
	"url words":      strings.Repeat(" www.a", 8000),
	"parens":         "https://x.org/" + strings.Repeat("(", 50000),
	"emails":         strings.Repeat("a@", 25000),
	"unicode emoji":  strings.Repeat("🙂", 12500),
	"zwj":            strings.Repeat("👩\u200d", 7000),
	"tildes":         strings.Repeat("~~", 25000),
	"table":          "|a|\n|-|\n" + strings.Repeat("|x", 25000),
	"linkifier bait": strings.Repeat("#1#", 16000),
	"far link":       strings.Repeat("[a](", 12000) + ")",
	"url commas":     strings.Repeat(",http://a/", 5000),
}

// TestHostileInputFinishes renders each hostile input; it asserts no
// duration (that would be flaky) but logs them, and the test run's
// timeout catches anything runaway.
func TestHostileInputFinishes(t *testing.T) {
	r := New()
	links := mustLinkifiers(t, Linkifier{1, `#(?P<id>[0-9]+)`, "https://x.org/{id}"},
		Linkifier{2, `(?P<c>[a-z])(?:[^\n]*Q)?`, "https://x.org/{c}"}) // reads to the line's end at every letter
	for name, in := range hostileInputs {
		start := time.Now()
		res := r.Render(in, fakeLookup{}, links)
		r.TopicLinks(in, links)
		elapsed := time.Since(start)
		checkHTML(t, name, res.HTML)
		t.Logf("%-14s %6d bytes in %v", name, len(in), elapsed)
	}
}
