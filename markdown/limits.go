package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark's list, block quote and link parsers cost time proportional to
// the input for each level of nesting or each unclosed link; these limits
// keep hostile input (50 KB of "- - - -" or "[a](") near linear.

// maxNesting bounds nested lists and block quotes; deeper markers are text.
const maxNesting = 32

// nestingLimited refuses to open a block nested too deeply.
type nestingLimited struct {
	parser.BlockParser
}

func (p nestingLimited) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	depth := 0
	for n := parent; n != nil; n = n.Parent() {
		if depth++; depth > maxNesting {
			return nil, parser.NoChildren
		}
	}
	return p.BlockParser.Open(parent, reader, pc)
}

// maxLinkTail is how far after "](" a link's closing ')' may be.
const maxLinkTail = 4096

// guardedLinkParser is goldmark's link parser, skipped at "](" when no ')'
// follows closely: no link can end there, and goldmark would scan to the
// end of the line to find that out.
type guardedLinkParser struct {
	parser.InlineParser
}

type parenCache struct{ from, next int }

var parenKey = parser.NewContextKey()

func (p guardedLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if bytes.HasPrefix(line, []byte("](")) {
		next := nextParen(block.Source(), seg.Start, pc)
		if next < 0 || next-seg.Start > maxLinkTail {
			return nil
		}
	}
	return p.InlineParser.Parse(parent, block, pc)
}

// nextParen is the position of the first ')' at or after pos, remembered
// so that scanning forward through a message stays linear.
func nextParen(source []byte, pos int, pc parser.Context) int {
	if c, ok := pc.Get(parenKey).(*parenCache); ok && c.from <= pos && (c.next < 0 || c.next >= pos) {
		return c.next
	}
	next := bytes.IndexByte(source[pos:], ')')
	if next >= 0 {
		next += pos
	}
	pc.Set(parenKey, &parenCache{from: pos, next: next})
	return next
}

func (p guardedLinkParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	p.InlineParser.(parser.CloseBlocker).CloseBlock(parent, block, pc)
}
