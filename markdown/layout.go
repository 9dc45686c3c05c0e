package markdown

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// layoutRenderer matches Python-Markdown's whitespace and attributes where
// goldmark's differ: a tight list item's text runs straight into a nested
// list, and table cells are aligned with a style attribute.
type layoutRenderer struct{}

func (layoutRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindTextBlock, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering && n.NextSibling() != nil && n.NextSibling().Kind() != ast.KindList {
			_ = w.WriteByte('\n')
		}
		return ast.WalkContinue, nil
	})
	reg.Register(east.KindTableCell, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		tag := "td"
		if node.Parent().Kind() == east.KindTableHeader {
			tag = "th"
		}
		if !entering {
			_, _ = w.WriteString("</" + tag + ">\n")
			return ast.WalkContinue, nil
		}
		_, _ = w.WriteString("<" + tag)
		if a := node.(*east.TableCell).Alignment; a != east.AlignNone {
			_, _ = w.WriteString(` style="text-align: ` + a.String() + `;"`)
		}
		_ = w.WriteByte('>')
		return ast.WalkContinue, nil
	})
}
