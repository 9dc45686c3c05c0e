package markdown

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// inlineImage is Zulip's preview of an uploaded image a message links to
// (`message_inline_image`), placed after the top-level block holding the
// link, so every client shows it. Only uploads are previewed: an image
// elsewhere on the web would be fetched by every reader's browser from off
// the LAN, which Zulip avoids with an image proxy that Lanchat has not.
type inlineImage struct {
	ast.BaseBlock
	href, title string
	size        ImageSize // zero when unknown
}

var kindInlineImage = ast.NewNodeKind("InlineImage")

func (n *inlineImage) Kind() ast.NodeKind            { return kindInlineImage }
func (n *inlineImage) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// previewedImage says whether a link's destination is an uploaded image.
func previewedImage(dest string) bool {
	if !strings.HasPrefix(dest, "/user_uploads/") {
		return false
	}
	switch strings.ToLower(path.Ext(dest)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// inlinePreviews adds the previews after their top-level blocks, in the
// order of their links.
type inlinePreviews struct {
	doc    *ast.Document
	lookup Lookup                // the uploads' sizes (level 276)
	last   map[ast.Node]ast.Node // a top-level block → the last preview after it
}

func (p *inlinePreviews) add(link *ast.Link, source []byte) {
	if !previewedImage(string(link.Destination)) {
		return
	}
	var block ast.Node = link
	for block.Parent() != nil && block.Parent() != ast.Node(p.doc) {
		block = block.Parent()
	}
	after := p.last[block]
	if after == nil {
		after = block
	}
	preview := &inlineImage{href: string(link.Destination), title: plainText(link, source)}
	if p.lookup != nil {
		preview.size, _ = p.lookup.ImageDimensions(preview.href)
	}
	p.doc.InsertAfter(p.doc, after, preview)
	if p.last == nil {
		p.last = map[ast.Node]ast.Node{}
	}
	p.last[block] = preview
}

// plainText is the text of n's descendants.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// fileName is an upload's file name, the preview's text alternative (an
// image without one is a critical accessibility failure).
func fileName(href string) string {
	name := path.Base(href)
	if unescaped, err := url.PathUnescape(name); err == nil {
		return unescaped
	}
	return name
}

type inlineImageRenderer struct{}

func (inlineImageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindInlineImage, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			n := node.(*inlineImage)
			href := escapeAttr(n.href)
			_, _ = w.WriteString(`<div class="message_inline_image"><a href="` + href + `" title="` + escapeAttr(n.title) + `"><img`)
			if n.size.Width > 0 && n.size.Height > 0 {
				// Zulip 9.0 (level 276): the original's size, so clients can
				// lay the preview out before it loads.
				_, _ = w.WriteString(` data-original-dimensions="` + strconv.Itoa(n.size.Width) + "x" + strconv.Itoa(n.size.Height) + `"`)
			}
			_, _ = w.WriteString(` src="` + href + `" alt="` + escapeAttr(fileName(n.href)) + `"></a></div>` + "\n")
		}
		return ast.WalkContinue, nil
	})
}
