package markdown

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// lexerSamples are what people paste, in many languages, plus the odd
// things chat code holds: unclosed strings, stray backslashes, non-ASCII,
// tabs, carriage returns, invalid UTF-8 and a missing final newline. Every lexer sees
// every sample, so each is also lexed in a language it is not.
var lexerSamples = []string{
	"def retry(fn, n=3):\n    for i in range(n):\n        try:\n            return fn()\n        except IOError as e:\n            print(f\"retry {i}: {e!r}\")\n",
	"@dataclass\nclass Point:\n    x: int = 0\n    '''doc'''\n    s = r'\\d+' + b\"\\x00\" + u'é'\n",
	"func main() {\n\tfmt.Println(\"hi\", 0x1F, 1.5e3, 'x', `raw`)\n\tgo func() { ch <- struct{}{} }()\n}\n",
	"const f = async (a, b) => { await fetch(`/api/${a}`); return /re[g]+x/gi.test(b) ?? null; } // done\n",
	"#include <stdio.h>\nint main(int argc, char **argv) { /* c */ printf(\"%d\\n\", argc); return 0; }\n",
	"#!/bin/sh\nset -eu\nfor f in *.log; do echo \"$f\" | grep -v '^#' > \"${f%.log}.txt\"; done\n",
	"SELECT u.id, count(*) FROM users u LEFT JOIN messages m ON m.sender = u.id WHERE u.name LIKE 'a%' GROUP BY 1;\n",
	"<div class=\"x\"><script>var a = 1 < 2;</script><!-- c --><p>&amp; text</p></div>\n",
	"{\"a\": [1, 2.5, true, null], \"b\": {\"c\": \"d\\\"e\"}}\n",
	"key: value\nlist:\n  - one\n  - \"two\" # comment\nanchor: &a {x: 1}\n",
	"fn main() -> Result<(), Box<dyn Error>> { let v: Vec<u8> = vec![1, 2]; println!(\"{:?}\", v); Ok(()) }\n",
	"public class A { @Override public String toString() { return \"A\" + 1L; } }\n",
	"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n",
	"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: bad\n",
	"s = \"unclosed\nnext line ' also unclosed\n/* open comment\n",
	"\\\\\\ \\n \\\n$ @ ` ~ ^ | ; : , ? ! % & * ( ) [ ] { } < > = + - / #\n",
	"naïve café — 日本語 ünïcödé 🎉 \u00a0nbsp\n",
	"invalid \xff\xfe UTF-8 \xc3(\n",
	"\tindented\twith\ttabs\n\n\n   trailing   \n",
	"line one\r\nline two\rline three",
	"x",
	"",
}

// chromaTokens are chroma's own tokens for code, at most limit of them
// (false past that), and whether it panicked.
func chromaTokens(lexer chroma.Lexer, code string, limit int) (tokens []chroma.Token, finished bool, panicked any) {
	defer func() { panicked = recover() }()
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return nil, false, err
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		if len(tokens) == limit {
			return tokens, false, nil
		}
		tokens = append(tokens, tok)
	}
	return tokens, true, nil
}

func codeLexerTokens(c *codeLexer, code string, limit int) (tokens []chroma.Token, finished bool, panicked any) {
	defer func() { panicked = recover() }()
	tokens, finished = c.tokens(code, limit, time.Now().Add(time.Hour), nil)
	return tokens, finished, nil
}

// TestCodeLexerMatchesChroma holds codeLexer to chroma's own tokens, for
// every regex lexer and every sample: same types, same text, same panics,
// and the same lexers running on without end.
func TestCodeLexerMatchesChroma(t *testing.T) {
	langs := regexLanguages()
	for _, lang := range langs {
		c, err := lang.compiled()
		if err != nil {
			t.Errorf("%s: %v", lang.lexer.Config().Name, err)
			continue
		}
		matchesChroma(t, lang.lexer, c, lexerSamples)
	}
	if len(langs) < 100 {
		t.Errorf("only %d regex lexers checked", len(langs))
	}
}

// regexLanguages are the languages of chroma's regex lexers, each once
// (most have several aliases).
func regexLanguages() []*codeLanguage {
	seen := map[*codeLanguage]bool{}
	var langs []*codeLanguage
	for _, lang := range languageByAlias {
		if lang.compiled != nil && !seen[lang] {
			seen[lang] = true
			langs = append(langs, lang)
		}
	}
	return langs
}

func matchesChroma(t *testing.T, lexer chroma.Lexer, c *codeLexer, samples []string) {
	t.Helper()
	name := lexer.Config().Name
	for i, sample := range samples {
		limit := 16*len(sample) + 1024
		want, wantFinished, wantPanic := chromaTokens(lexer, sample, limit)
		got, gotFinished, gotPanic := codeLexerTokens(c, sample, limit)
		switch {
		case (wantPanic == nil) != (gotPanic == nil):
			t.Errorf("%s, sample %d: panic %v, chroma's %v", name, i, gotPanic, wantPanic)
		case gotFinished != wantFinished:
			t.Errorf("%s, sample %d: finished %v, chroma %v", name, i, gotFinished, wantFinished)
		case gotFinished && !slices.Equal(got, want):
			t.Errorf("%s, sample %d:\n got %v\nwant %v", name, i, got, want)
		}
	}
}

// TestCodeLexerByGroups holds the tokens codeLexer makes straight from a
// ByGroups rule's groups to chroma's on what shipped lexers lack: groups
// of EOFType (empty, no token; else a token) and of Ignore, nil
// emitters, empty and unmatched groups, a pattern left to regexp2, and
// groups lexed by the lexer itself, empty (no tokens) or not (the general
// path).
func TestCodeLexerByGroups(t *testing.T) {
	lexer := chroma.MustNewLexer(&chroma.Config{Name: "ByGroups"}, func() chroma.Rules {
		return chroma.Rules{
			"root": {
				{Pattern: `(a*)(b)?(c*)(;)`, Type: chroma.ByGroups(chroma.EOFType, chroma.Keyword, chroma.Ignore, nil)},
				{Pattern: `(x)(\1?)(y*)`, Type: chroma.ByGroups(chroma.Name, chroma.EOFType, chroma.String), Mutator: chroma.Push("inner")},
				{Pattern: `(u)(\s*)(v)`, Type: chroma.ByGroups(chroma.Keyword, chroma.UsingSelf("inner"), chroma.Name)},
				{Pattern: `.`, Type: chroma.Text},
			},
			"inner": {
				{Pattern: `(z)()(q)?`, Type: chroma.ByGroups(chroma.Punctuation, chroma.Operator, chroma.EOFType), Mutator: chroma.Pop(1)},
				{Pattern: `\n`, Type: chroma.Text, Mutator: chroma.Pop(1)},
			},
		}
	})
	c, err := newCodeLexer(lexer, chroma.NewLexerRegistry())
	if err != nil {
		t.Fatal(err)
	}
	for state, rules := range map[string][]int{"root": {0, 1, 2}, "inner": {0}} {
		for _, i := range rules {
			if c.states[state].info[i].groupTypes == nil {
				t.Errorf("%s rule %d: not emitted by groups", state, i)
			}
		}
	}
	if c.states["root"].info[1].pattern != nil {
		t.Errorf("the back-reference was walked")
	}
	matchesChroma(t, lexer, c, []string{"aab;;bc;c;", "xxyyzq xz xzz\nxyz\n", "a;xyyy\nzxxq;", "ü;x\n;", "uvu v u\n\nvuzv"})
}

// TestEndlessLexerShownPlain: chroma's Jungle lexer pushes a state on an
// empty match for ever on ordinary text, so the block is shown plain
// instead of hanging the render (and growing its memory) without end.
func TestEndlessLexerShownPlain(t *testing.T) {
	got := New().Render("```jungle\ndef f(x):\n    pass\n```", fakeLookup{}, nil).HTML
	want := `<div class="codehilite" data-code-language="Jungle"><pre><span></span><code>def f(x):` + "\n    pass\n</code></pre></div>"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestSlowLexerShownPlain: chroma's V lexer backtracks over the rest of
// the text at every step on this text (8 KB took 59 s), so a member could
// hold a core for a minute per message; its highlighting stops at the
// message's budget and the block is shown plain.
func TestSlowLexerShownPlain(t *testing.T) {
	code := strings.Repeat("/*#--<!--", 900)
	got := New().Render("```v\n"+code+"\n```", fakeLookup{}, nil).HTML
	want := `<div class="codehilite" data-code-language="V"><pre><span></span><code>` + pygmentsEscaper.Replace(code) + "\n</code></pre></div>"
	if got != want {
		t.Errorf("got %.200q…\nwant %.200q…", got, want)
	}
}

// TestPanickingLexerShownPlain: chroma's YANG lexer enters a state it does
// not define inside a comment and panics; only its block is shown plain,
// the rest of the message renders.
func TestPanickingLexerShownPlain(t *testing.T) {
	got := New().Render("**before**\n```yang\n/*/*x\n```", fakeLookup{}, nil).HTML
	want := "<p><strong>before</strong></p>\n" + `<div class="codehilite" data-code-language="YANG"><pre><span></span><code>/*/*x` + "\n</code></pre></div>"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestSlowLexersShareOneBudget: the budget is the message's, not each
// block's: of nine blocks that each take a good part of it, the later ones
// are shown plain (a message of ten such blocks fits in 10,000 bytes).
func TestSlowLexersShareOneBudget(t *testing.T) {
	block := "```v\n" + strings.Repeat("/*#--<!--", 110) + "\n```\n"
	got := New().Render(strings.Repeat(block, 9), fakeLookup{}, nil).HTML
	plain := strings.Count(got, "<code>/*#--") // a highlighted block starts with a span
	if plain == 0 {
		t.Errorf("nine slow blocks were all highlighted")
	}
	t.Logf("%d of 9 blocks plain", plain)
}
