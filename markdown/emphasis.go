package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// starParser is goldmark's emphasis for '*' only: in chat, underscores
// (snake_case, file_names) never emphasise.
type starParser struct{}

type starDelimiters struct{}

func (starDelimiters) IsDelimiter(b byte) bool { return b == '*' }

func (starDelimiters) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (starDelimiters) OnMatch(consumes int) ast.Node { return ast.NewEmphasis(consumes) }

func (*starParser) Trigger() []byte { return []byte{'*'} }

func (*starParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, starDelimiters{})
	if node == nil {
		return nil
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

// strongOutside writes ***x*** as <strong><em>x</em></strong>, Zulip's
// nesting, where goldmark nests the other way.
type strongOutside struct{}

func (*strongOutside) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		outer, ok := n.(*ast.Emphasis)
		if !entering || !ok || outer.Level != 1 || outer.ChildCount() != 1 {
			return ast.WalkContinue, nil
		}
		if inner, ok := outer.FirstChild().(*ast.Emphasis); ok && inner.Level == 2 {
			outer.Level, inner.Level = 2, 1
		}
		return ast.WalkContinue, nil
	})
}
