package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Math is written as KaTeX writes its MathML, with the TeX source in the
// annotation: texMathML makes the MathML, which browsers typeset natively.

// mathBlock is a ```math fence: display TeX, one formula per paragraph.
type mathBlock struct {
	ast.BaseBlock
	fence
}

// mathNode is inline $$TeX$$.
type mathNode struct {
	ast.BaseInline
	TeX []byte
}

// Node kinds of math.
var (
	kindMathBlock = ast.NewNodeKind("MathBlock")
	kindMath      = ast.NewNodeKind("Math")
)

func (n *mathBlock) Kind() ast.NodeKind            { return kindMathBlock }
func (n *mathBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }
func (n *mathNode) Kind() ast.NodeKind             { return kindMath }
func (n *mathNode) Dump(source []byte, level int)  { ast.DumpHelper(n, source, level, nil, nil) }

// IsRaw tells goldmark that a math block's lines are not markdown.
func (n *mathBlock) IsRaw() bool { return true }

// mathParser reads $$TeX$$ with Zulip's rules: not next to a word
// character or another $, nothing before the end of the line, the TeX not
// starting with '_' (so "$$_$$" is a smiley), and \$ a literal dollar.
type mathParser struct{}

func (*mathParser) Trigger() []byte { return []byte{'$'} }

func (*mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if before := block.PrecendingCharacter(); before == '$' || isWordRune(before) {
		return nil
	}
	line, _ := block.PeekLine()
	end := lineLength(line)
	if end < 5 || !bytes.HasPrefix(line, []byte("$$")) || line[2] == '_' || line[2] == '$' {
		return nil
	}
	closes := func(i int) bool {
		if i+2 > end || line[i] != '$' || line[i+1] != '$' {
			return false
		}
		if i+2 == end {
			return true
		}
		r, _ := utf8.DecodeRune(line[i+2 : end])
		return r != '$' && !isWordRune(r)
	}
	// The TeX runs to the first unescaped $; failing that, an escaped \$
	// may be a backslash followed by the closing $$.
	var escapes []int
	i := 2
	for i < end && line[i] != '$' {
		if line[i] == '\\' && i+1 < end && line[i+1] == '$' {
			escapes = append(escapes, i)
			i += 2
			continue
		}
		i++
	}
	for k := len(escapes) - 1; !closes(i) && k >= 0; k-- {
		i = escapes[k] + 1
	}
	if !closes(i) {
		return nil
	}
	block.Advance(i + 2)
	return &mathNode{TeX: bytes.Clone(line[2:i])}
}

// katexEscaper escapes as KaTeX does inside its annotation.
var katexEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// katex is the markup of one formula, in KaTeX's structure; ok is false
// when the TeX cannot be read.
func katex(tex string, display bool) (html string, ok bool) {
	mathml, ok := texMathML(tex)
	if !ok {
		return "", false
	}
	mathAttrs := ` xmlns="http://www.w3.org/1998/Math/MathML"`
	if display {
		mathAttrs += ` display="block"`
	}
	return `<span class="katex"><span class="katex-mathml"><math` + mathAttrs +
		`><semantics>` + mathml + `<annotation encoding="application/x-tex">` + katexEscaper.Replace(tex) +
		`</annotation></semantics></math></span></span>`, true
}

// mathRenderer writes inline math and ```math blocks.
type mathRenderer struct{}

func (mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMath, renderMath)
	reg.Register(kindMathBlock, renderMathBlock)
}

func renderMath(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	tex := string(node.(*mathNode).TeX)
	if html, ok := katex(tex, false); ok {
		_, _ = w.WriteString(html)
	} else {
		_, _ = w.WriteString(`<span class="tex-error">$$` + escapeText(tex) + `$$</span>`)
	}
	return ast.WalkSkipChildren, nil
}

// renderMathBlock writes each blank-line-separated formula as its own
// display paragraph, as Zulip does; trailing spaces on lines are dropped.
func renderMathBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering || node.Lines().Len() == 0 {
		return ast.WalkSkipChildren, nil
	}
	lines := make([]string, node.Lines().Len())
	for i := range lines {
		lines[i] = strings.TrimRight(string(nodeLine(node, i, source)), " \t\n")
	}
	for _, tex := range strings.Split(strings.Join(lines, "\n"), "\n\n") {
		if html, ok := katex(tex, true); ok {
			_, _ = w.WriteString(`<p><span class="katex-display">` + html + "</span></p>\n")
		} else {
			_, _ = w.WriteString(`<p><span class="tex-error">` + katexEscaper.Replace(tex) + "</span></p>\n")
		}
	}
	return ast.WalkSkipChildren, nil
}
