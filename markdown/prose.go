package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// proseTransformer is the chat dialect's one walk over inline text: it
// joins text nodes goldmark left split, then applies linkifiers and
// emoji to the text outside code, math and links. These were three
// walks; folding them saves two tree walks and a list per message.
type proseTransformer struct{}

func (*proseTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	source := reader.Source()
	e := envOf(pc)
	links := e.links
	if links != nil && len(links.list) == 0 {
		links = nil
	}
	for _, t := range proseTexts(doc) {
		parent, prev, next := t.Parent(), t.PreviousSibling(), t.NextSibling()
		if links != nil {
			linkify(t, links, source, e.source)
		}
		// The text parts linkify left in t's place (t itself when none
		// matched) take the emoji; links and their labels do not.
		c := parent.FirstChild()
		if prev != nil {
			c = prev.NextSibling()
		}
		for c != next {
			after := c.NextSibling()
			if part, ok := c.(*ast.Text); ok && !part.IsRaw() {
				splitEmoji(part, source)
			}
			c = after
		}
	}
}

// proseTexts joins split text nodes throughout doc and lists the text
// nodes outside code, math and links.
func proseTexts(doc ast.Node) []*ast.Text {
	var texts []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindCodeSpan, ast.KindLink, ast.KindCodeBlock, ast.KindFencedCodeBlock, kindMathBlock:
			mergeTextsUnder(n)
			return ast.WalkSkipChildren, nil
		}
		mergeTexts(n)
		if t, ok := n.(*ast.Text); ok && !t.IsRaw() {
			texts = append(texts, t)
		}
		return ast.WalkContinue, nil
	})
	return texts
}

// textPiece is a node that replaces bytes [start, end) of a text node.
type textPiece struct {
	start, end int
	node       ast.Node
}

// replacePieces splits t around pieces (in order, not overlapping), keeping
// the line break that ended t on its last part.
func replacePieces(t *ast.Text, pieces []textPiece) {
	if len(pieces) == 0 {
		return
	}
	parent, seg := t.Parent(), t.Segment
	var last ast.Node = t
	insert := func(n ast.Node) {
		parent.InsertAfter(parent, last, n)
		last = n
	}
	pos := 0
	for _, p := range pieces {
		if p.start > pos {
			insert(ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Start+p.start)))
		}
		insert(p.node)
		pos = p.end
	}
	rest := ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Stop))
	rest.SetSoftLineBreak(t.SoftLineBreak())
	rest.SetHardLineBreak(t.HardLineBreak())
	insert(rest)
	parent.RemoveChild(parent, t)
}

// nodeLine is a block's i-th line as written.
func nodeLine(n ast.Node, i int, source []byte) []byte {
	seg := n.Lines().At(i)
	return seg.Value(source)
}

// mergeTexts joins adjacent text children of n that goldmark leaves split
// where an inline parser was tried and failed, so that patterns running
// across such characters (linkifiers like org/repo#12) see the text whole.
func mergeTexts(n ast.Node) {
	for c := n.FirstChild(); c != nil; {
		t, ok := c.(*ast.Text)
		next, nextOK := c.NextSibling().(*ast.Text)
		if ok && nextOK && !t.IsRaw() && !next.IsRaw() && !t.SoftLineBreak() && !t.HardLineBreak() && t.Segment.Stop == next.Segment.Start {
			t.Segment = t.Segment.WithStop(next.Segment.Stop)
			t.SetSoftLineBreak(next.SoftLineBreak())
			t.SetHardLineBreak(next.HardLineBreak())
			n.RemoveChild(n, next)
			continue
		}
		c = c.NextSibling()
	}
}

// mergeTextsUnder joins split text throughout n's subtree, which the prose
// walk skips.
func mergeTextsUnder(n ast.Node) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			mergeTexts(c)
		}
		return ast.WalkContinue, nil
	})
}
