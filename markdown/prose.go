package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// proseTexts lists the text nodes outside code, math and links: the text
// that emoji and linkifier transformers may rewrite.
func proseTexts(doc ast.Node) []*ast.Text {
	var texts []*ast.Text
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindCodeSpan, ast.KindLink, ast.KindCodeBlock, ast.KindFencedCodeBlock, kindMathBlock:
			return ast.WalkSkipChildren, nil
		}
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

// textMerger joins adjacent text nodes that goldmark leaves split where an
// inline parser was tried and failed, so that patterns running across
// such characters (linkifiers like org/repo#12) see the text whole.
type textMerger struct{}

func (*textMerger) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
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
		return ast.WalkContinue, nil
	})
}
