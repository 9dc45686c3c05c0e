package markdown

import (
	"math"
	"slices"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// plainPattern matches a plain rule's pattern by walking regexp2's own
// parse tree, with regexp2's character sets and word test, backtracking
// as regexp2 does (alternatives in order, greedy loops longest first).
// It covers what most lexer rules are made of (literals, sets, loops of
// one character, alternation, groups, look-aheads, one-character
// look-behinds, ^ $ \b \G); a regexp2 run costs a
// microsecond or so of setup, more than most tokens take to match here.
type plainPattern struct {
	root *walkNode
	// groups is the number of capture groups kept for rules that read
	// them (0: only the whole match is wanted).
	groups int
}

// walkNode is a node of the parse tree with what the walk looks up at it
// worked out when the pattern is built.
type walkNode struct {
	*syntax.RegexNode
	// sub are the node's Children as walkNodes; a one-character
	// look-behind's is its character.
	sub []*walkNode
	// ascii are the ASCII runes a one-character node or loop takes: a
	// set parsed rather than compiled has no bitmap of its own, and
	// CharSet.Contains goes through its ranges and Unicode categories
	// for every rune.
	ascii asciiSet
	// branches are an alternation's of many branches, else nil.
	branches *branches
	// lookBehind: a look-behind of the one character sub[0].
	lookBehind bool
	// fixed: n has one way through at most (see fixed).
	fixed bool
}

// newWalkNode wraps n, leaving out groups that only group (captures
// too, unless they are kept) and splicing sequences into the sequences
// that hold them: the walk takes fewer steps, and a sequence meets more
// of its fixed nodes in its own loop.
func newWalkNode(n *syntax.RegexNode, captures bool) *walkNode {
	for n.T == syntax.NtGroup || n.T == syntax.NtCapture && !captures {
		n = n.Children[0]
	}
	w := &walkNode{RegexNode: n, fixed: fixed(n)}
	if c := lookBehindChar(n); c != nil {
		w.lookBehind = true
		w.sub = []*walkNode{newWalkNode(c, captures)}
		return w
	}
	if _, loop := loopKind(n); loop || n.T == syntax.NtOne || n.T == syntax.NtNotone || n.T == syntax.NtSet {
		for r := range rune(128) {
			if accepts(n, r) {
				w.ascii.add(r)
			}
		}
	}
	if n.T == syntax.NtAlternate && len(n.Children) >= manyBranches {
		w.branches = newBranches(n)
	}
	for _, c := range n.Children {
		if c := newWalkNode(c, captures); n.T == syntax.NtConcatenate && c.T == syntax.NtConcatenate {
			w.sub = append(w.sub, c.sub...)
		} else {
			w.sub = append(w.sub, c)
		}
	}
	return w
}

// manyBranches is where an alternation starts to be worth a lookup of
// the branches that may match: lexers' keyword and builtin lists hold
// tens of words, of which a rune at hand begins few.
const manyBranches = 4

// branches are, for each ASCII rune (128: any other rune; 129: the end of
// the text), the branches of an alternation, in order, that can match
// there: those that can begin with the rune, and those that can match
// empty.
type branches [130][]int

func newBranches(n *syntax.RegexNode) *branches {
	b := &branches{}
	for i, c := range n.Children {
		var f firstChars
		empty := f.add(c)
		for r := range b {
			if empty || r < 129 && f.mayBegin(rune(r)) {
				b[r] = append(b[r], i)
			}
		}
	}
	return b
}

func (b *branches) at(text []rune, i int) []int {
	switch {
	case i >= len(text):
		return b[129]
	case text[i] >= 0 && text[i] < 128:
		return b[text[i]]
	}
	return b[128]
}

// newPlainPattern returns nil when the pattern uses anything else
// (back-references, case folding, general loops...). groups are kept if
// captures is set; then a pattern whose group numbers are not simply 0 to
// n, or that captures inside a look-around, is left to regexp2.
func newPlainPattern(root *syntax.RegexNode, re *regexp2.Regexp, captures bool) *plainPattern {
	if !walkable(root) {
		return nil
	}
	p := &plainPattern{}
	if captures {
		numbers := re.GetGroupNumbers()
		for slot, number := range numbers {
			if slot != number {
				return nil
			}
		}
		if captureInLook(root, false) {
			return nil
		}
		p.groups = len(numbers)
	}
	p.root = newWalkNode(root, captures)
	return p
}

func captureInLook(n *syntax.RegexNode, inLook bool) bool {
	if n.T == syntax.NtCapture && (inLook || n.N != -1) {
		return true
	}
	inLook = inLook || n.T == syntax.NtPosLook || n.T == syntax.NtNegLook
	for _, c := range n.Children {
		if captureInLook(c, inLook) {
			return true
		}
	}
	return false
}

func walkable(n *syntax.RegexNode) bool {
	if lookBehindChar(n) != nil {
		return true
	}
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtPosLook, syntax.NtNegLook:
		return walkable(n.Children[0])
	case syntax.NtLoop, syntax.NtLazyloop:
		// Each turn must take a rune: regexp2's rules for a turn that
		// matches empty are its own.
		var f firstChars
		return !f.add(n.Children[0]) && walkable(n.Children[0])
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet, syntax.NtMulti, syntax.NtEmpty, syntax.NtNothing,
		syntax.NtStart, syntax.NtBol, syntax.NtEol, syntax.NtBoundary, syntax.NtNonboundary:
		return true
	case syntax.NtConcatenate, syntax.NtAlternate, syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic:
		for _, c := range n.Children {
			if !walkable(c) {
				return false
			}
		}
		return true
	}
	_, ok := loopKind(n)
	return ok
}

// lookBehindChar is the one-character node a look-behind of one character
// tests, as in (?<!\.), or nil.
func lookBehindChar(n *syntax.RegexNode) *syntax.RegexNode {
	if n.T != syntax.NtPosLook && n.T != syntax.NtNegLook || n.Options&syntax.RightToLeft == 0 {
		return nil
	}
	c := n.Children[0]
	if c.Options&(syntax.IgnoreCase|syntax.ECMAScript) != 0 {
		return nil
	}
	switch c.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		return c
	}
	return nil
}

type loop int

const (
	greedyLoop loop = iota
	lazyLoop
	atomicLoop
)

func loopKind(n *syntax.RegexNode) (loop, bool) {
	switch n.T {
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtSetloop:
		return greedyLoop, true
	case syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		return lazyLoop, true
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic:
		return atomicLoop, true
	}
	return 0, false
}

// maxPlainSteps bounds one walk; past it the rule is left to regexp2,
// which gives the same answer (and has its own timeout).
const maxPlainSteps = 2000

// patternWalk is one attempt to match at start.
type patternWalk struct {
	text  []rune
	start int
	steps int
	spans []int // start and end of each group's capture, -1 if none
}

// match returns the length in runes of the match at pos, -1 for none, or
// ok false when the walk went past its bound; and, for a pattern keeping
// groups, each group's start and end (-1 where it took no part), in room
// if it has enough.
func (p *plainPattern) match(text []rune, pos int, room []int) (length int, spans []int, ok bool) {
	w := &patternWalk{text: text, start: pos}
	if p.groups > 0 {
		w.spans = slices.Grow(room[:0], 2*p.groups)[:2*p.groups]
		for i := range w.spans {
			w.spans[i] = -1
		}
	}
	end := -1
	w.node(p.root, pos, func(e int) bool { end = e; return true })
	if w.steps > maxPlainSteps {
		return 0, nil, false
	}
	if end < 0 {
		return -1, nil, true
	}
	return end - pos, w.spans, true
}

// node matches n at i and then the rest of the pattern, k.
func (w *patternWalk) node(n *walkNode, i int, k func(int) bool) bool {
	if n.fixed {
		i = w.advance(n, i)
		return i >= 0 && k(i)
	}
	if w.steps++; w.steps > maxPlainSteps {
		return false
	}
	switch n.T {
	case syntax.NtConcatenate:
		return w.sequence(n.sub, i, k)
	case syntax.NtAlternate:
		if n.branches != nil {
			for _, c := range n.branches.at(w.text, i) {
				if w.node(n.sub[c], i, k) {
					return true
				}
			}
			return false
		}
		for _, c := range n.sub {
			if w.node(c, i, k) {
				return true
			}
		}
		return false
	case syntax.NtCapture:
		// The group's span holds while the rest matches, and is put back
		// when the rest fails and the walk backtracks through it.
		slot := 2 * n.M
		return w.node(n.sub[0], i, func(e int) bool {
			start, end := w.spans[slot], w.spans[slot+1]
			w.spans[slot], w.spans[slot+1] = i, e
			if k(e) {
				return true
			}
			w.spans[slot], w.spans[slot+1] = start, end
			return false
		})
	case syntax.NtLoop, syntax.NtLazyloop:
		return w.turns(n, i, 0, k)
	}
	// A greedy or lazy loop of one character.
	run := w.run(n, i)
	if run < 0 {
		return false
	}
	if kind, _ := loopKind(n.RegexNode); kind == lazyLoop {
		for c := n.M; c <= run; c++ {
			if k(i + c) {
				return true
			}
		}
		return false
	}
	for c := run; c >= n.M; c-- {
		if k(i + c) {
			return true
		}
	}
	return false
}

// fixed reports whether n has one way through at most, so advance can
// match it without the rest of the pattern.
func fixed(n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet, syntax.NtMulti, syntax.NtEmpty, syntax.NtNothing,
		syntax.NtStart, syntax.NtBol, syntax.NtEol, syntax.NtBoundary, syntax.NtNonboundary,
		syntax.NtPosLook, syntax.NtNegLook, syntax.NtAtomic:
		return true
	}
	kind, loop := loopKind(n)
	return loop && (kind == atomicLoop || n.M == n.N)
}

// advance matches a fixed node at i: where its match ends, or -1.
func (w *patternWalk) advance(n *walkNode, i int) int {
	if w.steps++; w.steps > maxPlainSteps {
		return -1
	}
	text := w.text
	var holds bool // for a zero-width node
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		if i < len(text) && n.accepts(text[i]) {
			return i + 1
		}
		return -1
	case syntax.NtMulti:
		for j, r := range n.Str {
			if i+j >= len(text) || text[i+j] != r {
				return -1
			}
		}
		return i + len(n.Str)
	case syntax.NtNothing:
		return -1
	case syntax.NtEmpty:
		holds = true
	case syntax.NtStart:
		holds = i == w.start
	case syntax.NtBol:
		holds = i == 0 || text[i-1] == '\n'
	case syntax.NtEol:
		holds = i == len(text) || text[i] == '\n'
	case syntax.NtBoundary, syntax.NtNonboundary:
		boundary := (i > 0 && syntax.IsWordChar(text[i-1])) != (i < len(text) && syntax.IsWordChar(text[i]))
		holds = boundary == (n.T == syntax.NtBoundary)
	case syntax.NtPosLook, syntax.NtNegLook:
		// The look's own way through is not kept.
		var seen bool
		if n.lookBehind {
			seen = i > 0 && n.sub[0].accepts(text[i-1])
		} else {
			seen = w.node(n.sub[0], i, func(int) bool { return true })
		}
		holds = seen == (n.T == syntax.NtPosLook)
	case syntax.NtAtomic:
		// The group's first way through is its only one.
		end := -1
		w.node(n.sub[0], i, func(e int) bool { end = e; return true })
		return end
	default:
		// An atomic loop, or one of a fixed count, of one character.
		if run := w.run(n, i); run >= 0 {
			return i + run
		}
		return -1
	}
	if !holds {
		return -1
	}
	return i
}

// run is how many runes from i a loop of one character takes at most, or
// -1 if fewer than its least.
func (w *patternWalk) run(n *walkNode, i int) int {
	most := n.N
	if most == math.MaxInt32 || most > len(w.text)-i {
		most = len(w.text) - i
	}
	run := 0
	for run < most && n.accepts(w.text[i+run]) {
		run++
	}
	if run < n.M {
		return -1
	}
	return run
}

// turns matches loop n's child again at i, having matched it done times:
// greedy loops try another turn first, lazy ones the rest first.
func (w *patternWalk) turns(n *walkNode, i, done int, k func(int) bool) bool {
	more := func() bool {
		return done < n.N && w.node(n.sub[0], i, func(e int) bool { return w.turns(n, e, done+1, k) })
	}
	if done < n.M {
		return more()
	}
	if n.T == syntax.NtLazyloop {
		return k(i) || more()
	}
	return more() || k(i)
}

// sequence matches nodes from i and then k. Leading fixed nodes are
// matched in a loop: only a node with ways to backtrack through needs the
// rest of the sequence as a continuation.
func (w *patternWalk) sequence(nodes []*walkNode, i int, k func(int) bool) bool {
	for len(nodes) > 0 && nodes[0].fixed {
		if i = w.advance(nodes[0], i); i < 0 {
			return false
		}
		nodes = nodes[1:]
	}
	switch len(nodes) {
	case 0:
		return k(i)
	case 1:
		return w.node(nodes[0], i, k)
	}
	return w.node(nodes[0], i, func(j int) bool { return w.sequence(nodes[1:], j, k) })
}

// accepts is accepts(n.RegexNode, r), from the bitmap for an ASCII rune.
func (n *walkNode) accepts(r rune) bool {
	if r >= 0 && r < 128 {
		return n.ascii.has(r)
	}
	return accepts(n.RegexNode, r)
}

// accepts reports whether a one-character node or loop takes r.
func accepts(n *syntax.RegexNode, r rune) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		return r == n.Ch
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		return r != n.Ch
	}
	return n.Set.Contains(r)
}
