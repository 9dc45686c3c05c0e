package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// codeSpanParser reads `code` as Zulip does: the code is kept exactly,
// spaces included (CommonMark would strip one on each side), and never
// runs past the end of a line.
type codeSpanParser struct{}

func (*codeSpanParser) Trigger() []byte { return []byte{'`'} }

func (*codeSpanParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	open := run(line, 0)
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
	}
	for i := open; i < end; {
		if line[i] != '`' {
			i++
			continue
		}
		n := run(line, i)
		if n == open && i > open {
			block.Advance(i + n)
			code := ast.NewCodeSpan()
			code.AppendChild(code, ast.NewRawTextSegment(text.NewSegment(seg.Start+open, seg.Start+i)))
			return code
		}
		i += n
	}
	// An unmatched run is literal text as a whole, so it is not rescanned
	// from each of its backticks.
	block.Advance(open)
	return ast.NewTextSegment(seg.WithStop(seg.Start + open))
}

// run is the length of the backtick run starting at line[i].
func run(line []byte, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}
