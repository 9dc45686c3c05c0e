package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
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
	return pushDelimiter(block, pc, starDelimiters{}, 0)
}

// tildeParser is ~~strikethrough~~: exactly two tildes, as in Zulip (GFM
// would also take one).
type tildeParser struct{}

type tildeDelimiters struct{}

func (tildeDelimiters) IsDelimiter(b byte) bool { return b == '~' }

func (tildeDelimiters) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (tildeDelimiters) OnMatch(consumes int) ast.Node { return east.NewStrikethrough() }

func (*tildeParser) Trigger() []byte { return []byte{'~'} }

func (*tildeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	node := pushDelimiter(block, pc, tildeDelimiters{}, 2)
	if d, ok := node.(*parser.Delimiter); ok {
		// Zulip's ~~ pairs regardless of the spaces around it.
		d.CanOpen, d.CanClose = true, true
	}
	return node
}

// pushDelimiter scans a delimiter run (of exactly length bytes, if length
// is not 0) and hands it to goldmark's delimiter processing.
func pushDelimiter(block text.Reader, pc parser.Context, p parser.DelimiterProcessor, length int) ast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	node := parser.ScanDelimiter(line, before, 1, p)
	if node == nil || length != 0 && (node.OriginalLength != length || before == '~') {
		return nil
	}
	node.Segment = segment.WithStop(segment.Start + node.OriginalLength)
	block.Advance(node.OriginalLength)
	pc.PushDelimiter(node)
	return node
}

// strongOutside writes ***x*** as <strong><em>x</em></strong>, Zulip's
// nesting, where goldmark nests the other way.
func strongOutside(outer *ast.Emphasis) {
	if outer.Level != 1 || outer.ChildCount() != 1 {
		return
	}
	if inner, ok := outer.FirstChild().(*ast.Emphasis); ok && inner.Level == 2 {
		outer.Level, inner.Level = 2, 1
	}
}
