package markdown

import (
	"slices"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// TestPlainPatternMatchesRegexp2 holds the tree walk to regexp2 on the
// constructs it takes, at every position of texts that make them
// backtrack: the same match length and groups, or no match, everywhere.
func TestPlainPatternMatchesRegexp2(t *testing.T) {
	patterns := []string{
		`(for|format|form)\b`, `(a|ab)(c|bcd)`, `[a-z]+[0-9]`, `[a-z]+?[0-9]`, `(?>a+)a`, `a++b|a`,
		`x*`, `.{2,3}$`, `^\s*#`, `\Bb\w*`, `\w+\b!?`, `(?:a|b)*c`, `0[xX][0-9a-f]{1,4}`, `[^\W\d]\w*`,
		`//[^\n]*`, `[]{}:(),;[]`, `(?:\n|\s)+`, `a\Gb`, `(?:)`, `[^\S\n]+`, `ö+\w`,
		`(?<!\.)(ab|abc)\b`, `(?<=[a-z])\d`, `(?=a)\w+`, `(?!for\b)[a-z]+`, `\w(?=\s*\()`,
		`(def)(\s+)([a-z]*)`, `((a)|(b))+c|(x)?(y)`, `(?>(a+))(b)?`, `(?<name>\w+)(:)?`, `(\s*)(#.*)?$`,
		// Alternations of many branches: keyword lists, empty and
		// zero-width branches, non-ASCII, the text's end.
		`(for|format|form|fo|x|ab)\b`, `(ab|cd|ef|gh|)(x|$)`, `(?:if|do|else|for|(?=\d)|ö+)\w`, `(?:(?=f)\w+|ö+|\d+|\s|-)+?c`, `(?:if|in|is|import|)(?:\n|$|\.|,)`,
		// Nodes with one way through, matched without a continuation:
		// fixed counts, atomic groups and loops, looks, mid-sequence.
		`\d{2}-?[a-z]{2}\b`, `(?:x|a)\w{2}(?<!b)\W`, `a(?=b)\w+(?>c|cd)d?`, `(f)o{2}(?!r)(\w)?`, `[a-z](?>[a-z]*)\s*+\d`,
		// Groups and sequences within sequences, left out and spliced in.
		`(?:a(?:b(c))(?:d|e))f`, `((?:x)(?:y)?)+z`,
	}
	texts := []string{"format for forms\nab abcd bcd abc", "aaab a0 abc1 xy9z", "  # x\n0x1f 0XAB0000 00 x", "naïve öö ö_ 9a b\n\n", "x.ab abc .abc a1 format for( fo (", "abx cd efx gh ifx do9 else 7 öx ö", ""}
	for _, p := range patterns {
		pattern := `\G(?m)(?:` + p + `)`
		re := regexp2.MustCompile(pattern)
		tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, captures := range []bool{true, false} {
			matchesRegexp2(t, p, re, newPlainPattern(tree.Root, re, captures), captures, texts)
		}
	}
}

// matchesRegexp2 holds walk to re at every position of texts: the same
// match length and, if captures, groups.
func matchesRegexp2(t *testing.T, p string, re *regexp2.Regexp, walk *plainPattern, captures bool, texts []string) {
	t.Helper()
	if walk == nil {
		t.Errorf("%s: not walkable", p)
		return
	}
	for _, text := range texts {
		runes := []rune(text)
		for pos := 0; pos < len(runes); pos++ {
			want, wantGroups := -1, []string(nil)
			if m, err := re.FindRunesMatchStartingAt(runes, pos); err == nil && m != nil && m.RuneIndex == pos {
				want = m.RuneLength
				for _, g := range m.Groups() {
					wantGroups = append(wantGroups, g.String())
				}
				if !captures {
					wantGroups = nil
				}
			}
			got, spans, ok := walk.match(runes, pos, nil)
			var gotGroups []string
			for i := 0; i < len(spans); i += 2 {
				g := ""
				if spans[i] >= 0 {
					g = string(runes[spans[i]:spans[i+1]])
				}
				gotGroups = append(gotGroups, g)
			}
			if !ok || got != want || !slices.Equal(gotGroups, wantGroups) {
				t.Errorf("%s on %q at %d: %d %q (ok %v), regexp2 %d %q", p, text, pos, got, gotGroups, ok, want, wantGroups)
			}
		}
	}
}

// TestASCIIBitmapsMatchCharIn holds each one-character node's ASCII
// bitmap, in every walked pattern of every lexer shipped, to regexp2's
// own test of each ASCII rune.
func TestASCIIBitmapsMatchCharIn(t *testing.T) {
	charIn := func(n *syntax.RegexNode, r rune) bool { return n.Set.CharIn(r) }
	one := func(n *syntax.RegexNode, r rune) bool { return r == n.Ch }
	notOne := func(n *syntax.RegexNode, r rune) bool { return r != n.Ch }
	reference := map[syntax.NodeType]func(*syntax.RegexNode, rune) bool{
		syntax.NtSet: charIn, syntax.NtSetloop: charIn, syntax.NtSetlazy: charIn, syntax.NtSetloopatomic: charIn,
		syntax.NtOne: one, syntax.NtOneloop: one, syntax.NtOnelazy: one, syntax.NtOneloopatomic: one,
		syntax.NtNotone: notOne, syntax.NtNotoneloop: notOne, syntax.NtNotonelazy: notOne, syntax.NtNotoneloopatomic: notOne,
	}
	sets := 0
	var check func(lexer string, n *walkNode)
	check = func(lexer string, n *walkNode) {
		if want := reference[n.T]; want != nil {
			if n.Set != nil {
				sets++
			}
			for r := range rune(128) {
				if n.accepts(r) != want(n.RegexNode, r) {
					t.Errorf("%s: %s: bitmap says %v for %q", lexer, n.Description(), n.accepts(r), r)
				}
			}
		}
		for _, c := range n.sub {
			check(lexer, c)
		}
	}
	for _, lang := range regexLanguages() {
		c, err := lang.compiled()
		if err != nil {
			continue // TestCodeLexerMatchesChroma reports it
		}
		for _, s := range c.states {
			for _, info := range s.info {
				if info.pattern != nil {
					check(lang.lexer.Config().Name, info.pattern.root)
				}
			}
		}
	}
	if sets < 1000 {
		t.Errorf("only %d set nodes checked", sets)
	}
}
