package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// proseTransformer is the chat dialect's one walk over inline text: it
// checks markdown links, joins text nodes goldmark left split, then
// applies linkifiers and emoji to the text outside code, math and links.
// These were four walks; the walk is our own, so no list of links or
// texts is kept either.
type proseTransformer struct{}

func (*proseTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	e := envOf(pc)
	p := prose{source: reader.Source(), sourceText: e.source, links: e.links}
	if p.links != nil && len(p.links.list) == 0 {
		p.links = nil
	}
	p.walk(doc, true)
}

// prose is one message's walk.
type prose struct {
	source     []byte
	sourceText string
	links      *Linkifiers
}

// walk checks the links among n's children and joins their split text,
// then goes down into them. Text outside code, math and links (inProse)
// is taken as the walk meets it, in document order; its replacements are
// not walked again: the walk goes on from the node that followed it.
func (p *prose) walk(n ast.Node, inProse bool) {
	for c := n.FirstChild(); c != nil; {
		switch c.Kind() {
		case ast.KindLink, ast.KindImage:
			c = checkLink(n, c, p.source)
		default:
			c = c.NextSibling()
		}
	}
	mergeTexts(n)
	switch n.Kind() {
	case ast.KindCodeSpan, ast.KindLink, ast.KindCodeBlock, ast.KindFencedCodeBlock, kindMathBlock:
		inProse = false
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		if t, ok := c.(*ast.Text); ok {
			if inProse && !t.IsRaw() {
				p.text(t)
			}
		} else {
			p.walk(c, inProse)
		}
		c = next
	}
}

// text applies the linkifiers to t, then emoji to the text parts they
// left in its place (t itself when none matched); links and their labels
// take no emoji.
func (p *prose) text(t *ast.Text) {
	parent, prev, next := t.Parent(), t.PreviousSibling(), t.NextSibling()
	if p.links != nil {
		linkify(t, p.links, p.source, p.sourceText)
	}
	c := parent.FirstChild()
	if prev != nil {
		c = prev.NextSibling()
	}
	for c != next {
		after := c.NextSibling()
		if part, ok := c.(*ast.Text); ok && !part.IsRaw() {
			splitEmoji(part, p.source)
		}
		c = after
	}
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
