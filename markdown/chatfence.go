package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fence is how a chat fence opened, so only its own closing line ends it.
type fence struct {
	char   byte
	length int
}

func (f *fence) opened() *fence { return f }

// QuoteBlock is a ```quote fence: a block quote written as a fence.
type QuoteBlock struct {
	ast.BaseBlock
	fence
}

// SpoilerBlock is a ```spoiler Header fence: hidden content under a header.
type SpoilerBlock struct {
	ast.BaseBlock
	fence
	Header []byte
}

// MathBlock is a ```math fence: display TeX kept for the client to render.
type MathBlock struct {
	ast.BaseBlock
	fence
}

// maxFenceDepth bounds nested chat fences; deeper ones are plain code, so
// hostile nesting cannot make parsing quadratic.
const maxFenceDepth = 10

// Node kinds of the chat fences.
var (
	KindQuoteBlock   = ast.NewNodeKind("QuoteBlock")
	KindSpoilerBlock = ast.NewNodeKind("SpoilerBlock")
	KindMathBlock    = ast.NewNodeKind("MathBlock")
)

func (n *QuoteBlock) Kind() ast.NodeKind   { return KindQuoteBlock }
func (n *SpoilerBlock) Kind() ast.NodeKind { return KindSpoilerBlock }
func (n *MathBlock) Kind() ast.NodeKind    { return KindMathBlock }

func (n *QuoteBlock) Dump(source []byte, level int)   { ast.DumpHelper(n, source, level, nil, nil) }
func (n *SpoilerBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }
func (n *MathBlock) Dump(source []byte, level int)    { ast.DumpHelper(n, source, level, nil, nil) }

// IsRaw tells goldmark that a math block's lines are not markdown.
func (n *MathBlock) IsRaw() bool { return true }

// chatFenceParser opens ```quote, ```spoiler and ```math fences; every other
// fence is left to goldmark's code fence parser. Quote and spoiler bodies
// are markdown (children); math bodies are raw lines.
type chatFenceParser struct{}

func (*chatFenceParser) Trigger() []byte { return []byte{'`', '~'} }

// openingFence reads a fence line: its character, length and info string.
func openingFence(line []byte) (byte, int, []byte, bool) {
	line = bytes.TrimLeft(line, " ")
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return 0, 0, nil, false
	}
	c, n := line[0], 0
	for n < len(line) && line[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, nil, false
	}
	return c, n, bytes.TrimSpace(line[n:]), true
}

func (*chatFenceParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	c, n, info, ok := openingFence(line)
	if !ok {
		return nil, parser.NoChildren
	}
	word, rest, _ := bytes.Cut(info, []byte(" "))
	if fenceDepth(parent) >= maxFenceDepth {
		return nil, parser.NoChildren
	}
	f := fence{char: c, length: n}
	var node ast.Node
	state := parser.HasChildren
	switch string(word) {
	case "quote":
		node = &QuoteBlock{fence: f}
	case "spoiler":
		node = &SpoilerBlock{fence: f, Header: bytes.Clone(bytes.TrimSpace(rest))}
	case "math":
		node, state = &MathBlock{fence: f}, parser.NoChildren
	default:
		return nil, parser.NoChildren
	}
	reader.Advance(lineLength(line))
	return node, state
}

func fenceDepth(n ast.Node) int {
	depth := 0
	for ; n != nil; n = n.Parent() {
		if _, ok := n.(interface{ opened() *fence }); ok {
			depth++
		}
	}
	return depth
}

func (*chatFenceParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, segment := reader.PeekLine()
	f := node.(interface{ opened() *fence }).opened()
	if c, n, info, ok := openingFence(line); ok && c == f.char && n >= f.length && len(info) == 0 {
		reader.Advance(lineLength(line))
		return parser.Close
	}
	if util.IsBlank(line) && node.Kind() != KindMathBlock {
		return parser.Continue | parser.HasChildren
	}
	if node.Kind() == KindMathBlock {
		node.Lines().Append(segment)
		reader.Advance(lineLength(line))
		return parser.Continue | parser.NoChildren
	}
	return parser.Continue | parser.HasChildren
}

// lineLength is a line's length without its newline (the last line of a
// message has none).
func lineLength(line []byte) int {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	if n > 0 && line[n-1] == '\r' {
		n--
	}
	return n
}

func (*chatFenceParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (*chatFenceParser) CanInterruptParagraph() bool { return true }

func (*chatFenceParser) CanAcceptIndentedLine() bool { return false }
