package markdown

import "github.com/yuin/goldmark/ast"

// proseTexts lists the text nodes outside code, math and links: the text
// that emoji and linkifier transformers may rewrite.
func proseTexts(doc ast.Node) []*ast.Text {
	var texts []*ast.Text
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindCodeSpan, ast.KindLink, ast.KindAutoLink, ast.KindCodeBlock, ast.KindFencedCodeBlock, KindMathBlock:
			return ast.WalkSkipChildren, nil
		}
		if t, ok := n.(*ast.Text); ok {
			texts = append(texts, t)
		}
		return ast.WalkContinue, nil
	})
	return texts
}

// blockText joins a leaf block's lines (code, math) as written.
func blockText(n ast.Node, source []byte) []byte {
	var out []byte
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		out = append(out, seg.Value(source)...)
	}
	return out
}
