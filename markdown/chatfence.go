package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fence is how a chat fence opened, so only its own closing line ends it.
type fence struct {
	char   byte
	length int
}

func (f *fence) opened() *fence { return f }

// chatFence is implemented by the blocks chatFenceParser opens.
type chatFence interface{ opened() *fence }

// quoteBlock is a ```quote fence: a block quote written as a fence.
type quoteBlock struct {
	ast.BaseBlock
	fence
}

// kindQuoteBlock is the node kind of ```quote fences.
var kindQuoteBlock = ast.NewNodeKind("QuoteBlock")

func (n *quoteBlock) Kind() ast.NodeKind            { return kindQuoteBlock }
func (n *quoteBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// maxFenceDepth bounds nested chat fences; deeper ones are ordinary code,
// so hostile nesting cannot make parsing quadratic.
const maxFenceDepth = 10

// chatFenceParser opens ```quote (or quoted), ```spoiler Header and
// ```math fences; every other fence is left to goldmark's code fence
// parser. Quote and spoiler bodies are markdown (children); math bodies are
// raw lines.
type chatFenceParser struct{}

func (*chatFenceParser) Trigger() []byte { return []byte{'`', '~'} }

// openingFence reads a fence line: its character, length, and where the
// info string starts and ends in the line.
func openingFence(line []byte) (c byte, n, infoStart, infoEnd int, ok bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '`' && line[i] != '~' {
		return 0, 0, 0, 0, false
	}
	c = line[i]
	start := i
	for i < len(line) && line[i] == c {
		i++
	}
	if n = i - start; n < 3 {
		return 0, 0, 0, 0, false
	}
	infoEnd = lineLength(line)
	for i < infoEnd && line[i] == ' ' {
		i++
	}
	for infoEnd > i && util.IsSpace(line[infoEnd-1]) {
		infoEnd--
	}
	return c, n, i, infoEnd, true
}

// fenceLanguage is the language word of a fence's info string as Zulip
// reads it ("{.python}" and ".py" work too), lower-cased.
func fenceLanguage(info []byte) string {
	info = bytes.TrimPrefix(bytes.TrimPrefix(info, []byte("{")), []byte("."))
	end := 0
	for end < len(info) && (util.IsAlphaNumeric(info[end]) || bytes.IndexByte([]byte("_+-./#"), info[end]) >= 0) {
		end++
	}
	return string(bytes.ToLower(info[:end]))
}

func (*chatFenceParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	c, n, infoStart, infoEnd, ok := openingFence(line)
	if !ok || c == '`' && bytes.IndexByte(line[infoStart:infoEnd], '`') >= 0 || fenceDepth(parent) >= maxFenceDepth {
		return nil, parser.NoChildren
	}
	info := line[infoStart:infoEnd]
	lang := fenceLanguage(info)
	f := fence{char: c, length: n}
	var node ast.Node
	state := parser.HasChildren
	switch lang {
	case "quote", "quoted":
		node = &quoteBlock{fence: f}
	case "spoiler":
		headerStart := infoStart + bytes.Index(info, []byte("spoiler")) + len("spoiler")
		for headerStart < infoEnd && line[headerStart] == ' ' {
			headerStart++
		}
		node = newSpoiler(f, text.NewSegment(segment.Start+headerStart, segment.Start+infoEnd))
	case "math":
		node, state = &mathBlock{fence: f}, parser.NoChildren
	default:
		return nil, parser.NoChildren
	}
	reader.Advance(lineLength(line))
	return node, state
}

func fenceDepth(n ast.Node) int {
	depth := 0
	for ; n != nil; n = n.Parent() {
		if _, ok := n.(chatFence); ok {
			depth++
		}
	}
	return depth
}

func (*chatFenceParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, segment := reader.PeekLine()
	f := node.(chatFence).opened()
	if c, n, infoStart, infoEnd, ok := openingFence(line); ok && c == f.char && n >= f.length && infoStart == infoEnd && !innerFenceOpen(node, pc) {
		reader.Advance(lineLength(line))
		return parser.Close
	}
	if node.Kind() == kindMathBlock {
		node.Lines().Append(segment)
		reader.Advance(lineLength(line))
		return parser.Continue | parser.NoChildren
	}
	return parser.Continue | parser.HasChildren
}

// innerFenceOpen tells whether a fence inside node is still open: its
// closing line must close it, not node (fences nest like a stack, as in
// Zulip).
func innerFenceOpen(node ast.Node, pc parser.Context) bool {
	blocks := pc.OpenedBlocks()
	for i, b := range blocks {
		if b.Node != node {
			continue
		}
		for _, inner := range blocks[i+1:] {
			if _, ok := inner.Node.(chatFence); ok || inner.Node.Kind() == ast.KindFencedCodeBlock {
				return true
			}
		}
	}
	return false
}

// lineLength is a line's length without its newline (the last line of a
// message has none).
func lineLength(line []byte) int {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	return n
}

func (*chatFenceParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (*chatFenceParser) CanInterruptParagraph() bool { return true }

func (*chatFenceParser) CanAcceptIndentedLine() bool { return false }

// quoteRenderer writes ```quote as the block quote it stands for.
type quoteRenderer struct{}

func (quoteRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindQuoteBlock, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString("<blockquote>\n")
		} else {
			_, _ = w.WriteString("</blockquote>\n")
		}
		return ast.WalkContinue, nil
	})
}
