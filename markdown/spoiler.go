package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// spoilerBlock is a ```spoiler Header fence: content hidden under a
// header. Its first child is the header; the rest is the content.
type spoilerBlock struct {
	ast.BaseBlock
	fence
}

// spoilerHeader holds the header's paragraph, if there is a header. The
// header is markdown, like the content.
type spoilerHeader struct {
	ast.BaseBlock
}

// Node kinds of spoilers.
var (
	kindSpoilerBlock  = ast.NewNodeKind("SpoilerBlock")
	kindSpoilerHeader = ast.NewNodeKind("SpoilerHeader")
)

func (n *spoilerBlock) Kind() ast.NodeKind             { return kindSpoilerBlock }
func (n *spoilerBlock) Dump(source []byte, level int)  { ast.DumpHelper(n, source, level, nil, nil) }
func (n *spoilerHeader) Kind() ast.NodeKind            { return kindSpoilerHeader }
func (n *spoilerHeader) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// newSpoiler opens a spoiler whose header text is at header in the source.
func newSpoiler(f fence, header text.Segment) *spoilerBlock {
	s := &spoilerBlock{fence: f}
	h := &spoilerHeader{}
	if header.Len() > 0 {
		p := ast.NewParagraph()
		p.Lines().Append(header)
		h.AppendChild(h, p)
	}
	s.AppendChild(s, h)
	return s
}

// spoilerRenderer writes Zulip's spoiler markup.
type spoilerRenderer struct{}

func (spoilerRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindSpoilerBlock, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<div class="spoiler-block"><div class="spoiler-header">` + "\n")
		} else {
			_, _ = w.WriteString("</div></div>\n")
		}
		return ast.WalkContinue, nil
	})
	reg.Register(kindSpoilerHeader, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			_, _ = w.WriteString(`</div><div class="spoiler-content" aria-hidden="true">` + "\n")
		}
		return ast.WalkContinue, nil
	})
}
