package markdown

import (
	"unicode"

	"github.com/dlclark/regexp2/v2/syntax"
)

// firstChars is where a pattern's match can begin: the runes it can
// start with (exactly, for ASCII, and "maybe" for every other rune when
// any of them might) and whether it needs a line start (a leading ^).
type firstChars struct {
	ascii     asciiSet
	other     bool
	lineStart bool
}

// mayBegin reports whether a match can begin with r (wherever a leading
// ^ allows it to begin at all).
func (f firstChars) mayBegin(r rune) bool {
	if r >= 0 && r < 128 {
		return f.ascii.has(r)
	}
	return f.other
}

// asciiSet is a set of ASCII runes.
type asciiSet [2]uint64

func (s *asciiSet) add(r rune) { s[r/64] |= 1 << (r % 64) }

// has reports whether the set holds r, which must be ASCII.
func (s *asciiSet) has(r rune) bool { return s[r/64]&(1<<(r%64)) != 0 }

// firstCharsOf is a sound over-estimate of the runes a match of the
// parsed pattern can start with: a rule skipped because of it could not
// have matched. A pattern that can match the empty string may start
// anywhere; so may any construct not understood here.
func firstCharsOf(root *syntax.RegexNode) firstChars {
	f := firstChars{lineStart: startsWithBol(root)}
	if f.add(root) {
		f.addAny()
	}
	return f
}

// startsWithBol reports whether every match of n begins with a multi-line
// ^, so can only start at the text's start or after a newline.
func startsWithBol(n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtBol:
		return true
	case syntax.NtGroup, syntax.NtCapture, syntax.NtAtomic:
		return startsWithBol(n.Children[0])
	case syntax.NtAlternate:
		for _, c := range n.Children {
			if !startsWithBol(c) {
				return false
			}
		}
		return true
	case syntax.NtConcatenate:
		for _, c := range n.Children {
			// \G and empty nodes hold no place: look past them.
			if c.T != syntax.NtStart && c.T != syntax.NtEmpty && c.T != syntax.NtUpdateBumpalong {
				return startsWithBol(c)
			}
		}
	}
	return false
}

func (f *firstChars) addAny() {
	f.ascii = asciiSet{^uint64(0), ^uint64(0)}
	f.other = true
}

// addMatching adds the ASCII runes a leaf accepts; under IgnoreCase a rune
// counts when either of its cases does, and any other rune may match.
func (f *firstChars) addMatching(n *syntax.RegexNode, accepts func(rune) bool) {
	fold := n.Options&syntax.IgnoreCase != 0
	for r := rune(0); r < 128; r++ {
		if accepts(r) || fold && (accepts(unicode.ToLower(r)) || accepts(unicode.ToUpper(r))) {
			f.ascii.add(r)
		}
	}
	if fold {
		f.other = true
	}
}

// add adds the runes node's match can start with and reports whether it
// can match empty (then what follows it can supply the first rune).
func (f *firstChars) add(n *syntax.RegexNode) (nullable bool) {
	switch n.T {
	case syntax.NtPosLook, syntax.NtNegLook:
		// Zero-width (a look-behind runs right to left inside, which
		// does not matter here): the rune comes from what follows.
		return true
	}
	if n.Options&syntax.RightToLeft != 0 {
		f.addAny()
		return true
	}
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		f.addMatching(n, func(r rune) bool { return r == n.Ch })
		f.other = f.other || n.Ch >= 128
		return n.T != syntax.NtOne && n.M == 0
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		f.addMatching(n, func(r rune) bool { return r != n.Ch })
		f.other = true
		return n.T != syntax.NtNotone && n.M == 0
	case syntax.NtSet, syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		f.addMatching(n, n.Set.Contains)
		f.other = true
		return n.T != syntax.NtSet && n.M == 0
	case syntax.NtMulti:
		first := n.Str[0]
		f.addMatching(n, func(r rune) bool { return r == first })
		f.other = f.other || first >= 128
		return false
	case syntax.NtNothing:
		return false
	case syntax.NtEmpty, syntax.NtBol, syntax.NtEol, syntax.NtBoundary, syntax.NtNonboundary,
		syntax.NtECMABoundary, syntax.NtNonECMABoundary, syntax.NtBeginning, syntax.NtStart,
		syntax.NtEndZ, syntax.NtEnd, syntax.NtUpdateBumpalong:
		// Zero-width: the rune comes from what follows.
		return true
	case syntax.NtAlternate:
		for _, c := range n.Children {
			if f.add(c) {
				nullable = true
			}
		}
		return nullable
	case syntax.NtConcatenate:
		for _, c := range n.Children {
			if !f.add(c) {
				return false
			}
		}
		return true
	case syntax.NtLoop, syntax.NtLazyloop:
		return f.add(n.Children[0]) || n.M == 0
	case syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic:
		return f.add(n.Children[0])
	}
	// Back-references, conditionals and anything newer: anywhere.
	f.addAny()
	return true
}
