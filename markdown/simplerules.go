package markdown

import (
	"math"

	"github.com/dlclark/regexp2/v2/syntax"
)

// simpleRule is a pattern matched here, without a regexp2 run: runes that
// must each match one character (or literal) in turn, then at most one
// greedy loop of a single character, which nothing follows, so it takes
// the longest run, as the regexp would. `\n`, `\s+`, `[^\S\n]+`, `[{}(),;]`
// and identifiers are such rules, and they make most of code's tokens.
type simpleRule struct {
	steps []*syntax.RegexNode
}

// newSimpleRule returns the rule for root, or nil if root is not simple.
// Only a plain rule may use it: captures are flattened away.
func newSimpleRule(root *syntax.RegexNode) *simpleRule {
	var steps []*syntax.RegexNode
	if !flattenSimple(root, &steps) {
		return nil
	}
	for i, n := range steps {
		if isLoop(n) && i != len(steps)-1 {
			return nil
		}
	}
	return &simpleRule{steps: steps}
}

func flattenSimple(n *syntax.RegexNode, steps *[]*syntax.RegexNode) bool {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtCapture, syntax.NtGroup:
		return flattenSimple(n.Children[0], steps)
	case syntax.NtConcatenate:
		for _, c := range n.Children {
			if !flattenSimple(c, steps) {
				return false
			}
		}
		return true
	case syntax.NtStart, syntax.NtEmpty:
		// \G is where the match is tried; empty is nothing.
		return true
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet, syntax.NtMulti:
		*steps = append(*steps, n)
		return true
	}
	if isLoop(n) {
		*steps = append(*steps, n)
		return true
	}
	return false
}

func isLoop(n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtOneloop, syntax.NtOneloopatomic, syntax.NtNotoneloop, syntax.NtNotoneloopatomic,
		syntax.NtSetloop, syntax.NtSetloopatomic:
		return true
	}
	return false
}

// accepts reports whether a one-character node or loop takes r.
func accepts(n *syntax.RegexNode, r rune) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOneloopatomic:
		return r == n.Ch
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotoneloopatomic:
		return r != n.Ch
	}
	return n.Set.CharIn(r)
}

// match returns the length in runes of the match at pos, or -1.
func (s *simpleRule) match(text []rune, pos int) int {
	p := pos
	for _, n := range s.steps {
		switch {
		case n.T == syntax.NtMulti:
			for _, r := range n.Str {
				if p >= len(text) || text[p] != r {
					return -1
				}
				p++
			}
		case isLoop(n):
			limit := n.N
			if limit == math.MaxInt32 || limit > len(text)-p {
				limit = len(text) - p
			}
			count := 0
			for count < limit && accepts(n, text[p+count]) {
				count++
			}
			if count < n.M {
				return -1
			}
			p += count
		default:
			if p >= len(text) || !accepts(n, text[p]) {
				return -1
			}
			p++
		}
	}
	return p - pos
}
