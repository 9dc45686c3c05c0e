package markdown

import (
	"strings"
	"testing"
)

func TestTeXMathML(t *testing.T) {
	for _, c := range []struct{ name, tex, want string }{
		{"letters and numbers", `2x + 3.5`, `<mn>2</mn><mi>x</mi><mo>+</mo><mn>3.5</mn>`},
		{"superscript", `x^2`, `<msup><mi>x</mi><mrow><mn>2</mn></mrow></msup>`},
		{"one digit per script", `x^23`, `<msup><mi>x</mi><mrow><mn>2</mn></mrow></msup><mn>3</mn>`},
		{"sub and superscript", `a_i^{n+1}`, `<msubsup><mi>a</mi><mrow><mi>i</mi></mrow><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></msubsup>`},
		{"prime", `f'`, `<msup><mi>f</mi><mrow><mo>′</mo></mrow></msup>`},
		{"fraction", `\frac{a}{b}`, `<mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi></mrow></mfrac>`},
		{"fraction of tokens", `\frac12`, `<mfrac><mrow><mn>1</mn></mrow><mrow><mn>2</mn></mrow></mfrac>`},
		{"binomial", `\binom nk`, `<mrow><mo>(</mo><mfrac linethickness="0"><mrow><mi>n</mi></mrow><mrow><mi>k</mi></mrow></mfrac><mo>)</mo></mrow>`},
		{"square root", `\sqrt{2}`, `<msqrt><mrow><mn>2</mn></mrow></msqrt>`},
		{"cube root", `\sqrt[3]{x}`, `<mroot><mrow><mi>x</mi></mrow><mrow><mn>3</mn></mrow></mroot>`},
		{"greek and operators", `\alpha \leq \pi \times \infty`, `<mi>α</mi><mo>≤</mo><mi>π</mi><mo>×</mo><mi>∞</mi>`},
		{"minus", `a-b`, `<mi>a</mi><mo>−</mo><mi>b</mi>`},
		{"sum with limits", `\sum_{i=1}^n`, `<munderover><mo movablelimits="true">∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mrow><mi>n</mi></mrow></munderover>`},
		{"limit", `\lim_{x\to0}`, `<munder><mo movablelimits="true" form="prefix">lim</mo><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder>`},
		{"integral", `\int_0^1`, `<msubsup><mo>∫</mo><mrow><mn>0</mn></mrow><mrow><mn>1</mn></mrow></msubsup>`},
		{"function", `\sin x`, `<mi>sin</mi><mo>` + "\u2061" + `</mo><mi>x</mi>`},
		{"blackboard bold", `\mathbb{R}^n`, `<msup><mrow><mi>ℝ</mi></mrow><mrow><mi>n</mi></mrow></msup>`},
		{"bold", `\mathbf{v1}`, `<mrow><mi>𝐯</mi><mn>𝟏</mn></mrow>`},
		{"upright", `\mathrm{d}x`, `<mrow><mi mathvariant="normal">d</mi></mrow><mi>x</mi>`},
		{"text keeps spaces", `\text{if } x`, `<mtext>if </mtext><mi>x</mi>`},
		{"accent", `\hat{x}`, `<mover accent="true"><mrow><mi>x</mi></mrow><mo>^</mo></mover>`},
		{"space", `a\,b`, `<mi>a</mi><mspace width="0.1667em"></mspace><mi>b</mi>`},
		{"escaped brace", `\{x\}`, `<mo>{</mo><mi>x</mi><mo>}</mo>`},
		{"left right", `\left(x\right.`, `<mrow><mo fence="true" form="prefix">(</mo><mi>x</mi></mrow>`},
		{"matrix", `\begin{pmatrix}a&b\\c&d\end{pmatrix}`, `<mrow><mo fence="true" form="prefix">(</mo><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable><mo fence="true" form="postfix">)</mo></mrow>`},
		{"cases", `\begin{cases}1&x\end{cases}`, `<mrow><mo fence="true" form="prefix">{</mo><mtable columnalign="left left"><mtr><mtd><mn>1</mn></mtd><mtd><mi>x</mi></mtd></mtr></mtable></mrow>`},
		{"escapes", `a<b`, `<mi>a</mi><mo>&lt;</mo><mi>b</mi>`},
		{"text escapes", `\text{<b>}`, `<mtext>&lt;b&gt;</mtext>`},
		{"unknown command", `\foo x`, `<merror><mtext>\foo</mtext></merror><mi>x</mi>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := texMathML(c.tex)
			if want := "<mrow>" + c.want + "</mrow>"; !ok || got != want {
				t.Errorf("texMathML(%q) = %q, %v; want %q", c.tex, got, ok, want)
			}
		})
	}
}

func TestTeXMathMLRefusesMalformed(t *testing.T) {
	for _, tex := range []string{
		`\frac{1`, `}`, `x^`, `\frac{a}`, `\sqrt[3{x}`, `\left(x`, `\left x\right)`, `\begin{pmatrix}a`,
		`\begin{pmatrix}a\end{bmatrix}`, `\begin{nosuch}a\end{nosuch}`, `a\`, `\text{a`,
		strings.Repeat("{", maxTeXDepth+1) + strings.Repeat("}", maxTeXDepth+1),
	} {
		if got, ok := texMathML(tex); ok {
			t.Errorf("texMathML(%q) = %q; want refused", tex, got)
		}
	}
}
