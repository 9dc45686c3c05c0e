package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// texMathML converts TeX to presentation MathML, which browsers typeset
// natively (MathML Core), so math needs no script in any client. It covers
// what chat math uses: scripts, fractions, roots, Greek, operators and
// relations, accents, fonts, \left…\right, \text and the matrix, cases
// and align environments. An unknown command shows as an <merror> in its
// place; malformed TeX (a missing argument, an unclosed environment,
// nesting past maxTeXDepth) gives ok false, and the caller shows the
// source as an error, as Zulip does when KaTeX fails.
func texMathML(tex string) (mathml string, ok bool) {
	p := &texParser{src: tex}
	body := p.row(texStopNone)
	if p.failed || p.pos < len(p.src) {
		return "", false
	}
	return "<mrow>" + body + "</mrow>", true
}

// maxTeXDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxTeXDepth = 48

type texParser struct {
	src    string
	pos    int
	depth  int
	failed bool
	font   string // the alphabet of \mathbb and the like, applied to letters
}

// What ends a row besides the end of the source.
type texStop int

const (
	texStopNone  texStop = iota
	texStopBrace         // }
	texStopRight         // \right
	texStopCell          // & \\ \end
	texStopOpt           // ] of \sqrt[n]
)

func (p *texParser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\n\r", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// peek returns the next token without taking it: a command ("\frac",
// "\,", "\\"), or one character.
func (p *texParser) peek() string {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return ""
	}
	if p.src[p.pos] == '\\' {
		end := p.pos + 1
		for end < len(p.src) && isASCIILetter(p.src[end]) {
			end++
		}
		if end == p.pos+1 && end < len(p.src) {
			_, size := utf8.DecodeRuneInString(p.src[end:])
			end += size
		}
		return p.src[p.pos:end]
	}
	_, size := utf8.DecodeRuneInString(p.src[p.pos:])
	return p.src[p.pos : p.pos+size]
}

func (p *texParser) next() string {
	t := p.peek()
	p.pos += len(t)
	return t
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (p *texParser) stops(t string, stop texStop) bool {
	switch stop {
	case texStopBrace:
		return t == "}"
	case texStopRight:
		return t == `\right`
	case texStopCell:
		return t == "&" || t == `\\` || t == `\end`
	case texStopOpt:
		return t == "]"
	}
	return false
}

// row reads atoms, each with its scripts, up to the stop token (left
// unread) or the end.
func (p *texParser) row(stop texStop) string {
	if p.depth++; p.depth > maxTeXDepth {
		p.failed = true
	}
	defer func() { p.depth-- }()
	var b strings.Builder
	for !p.failed {
		t := p.peek()
		if t == "" || p.stops(t, stop) {
			break
		}
		if t == "&" || t == `\\` {
			p.next() // outside an environment \\ breaks a line in KaTeX; here the lines join
			continue
		}
		if t == "}" || t == `\right` || t == `\end` {
			p.failed = true
			break
		}
		b.WriteString(p.scripted())
	}
	return b.String()
}

// scripted reads one atom and any ^, _ and primes after it.
func (p *texParser) scripted() string {
	base, limits := p.atom(false)
	var sub, sup string
	for !p.failed {
		switch p.peek() {
		case "^":
			p.next()
			sup = p.argument()
			continue
		case "_":
			p.next()
			sub = p.argument()
			continue
		case "'":
			p.next()
			sup += "<mo>′</mo>"
			continue
		}
		break
	}
	if sub == "" && sup == "" {
		return base
	}
	if base == "" {
		base = "<mrow></mrow>"
	}
	under, over := "msub", "msup"
	both := "msubsup"
	if limits {
		under, over, both = "munder", "mover", "munderover"
	}
	switch {
	case sup == "":
		return "<" + under + ">" + base + sub + "</" + under + ">"
	case sub == "":
		return "<" + over + ">" + base + wrapRow(sup) + "</" + over + ">"
	}
	return "<" + both + ">" + base + sub + wrapRow(sup) + "</" + both + ">"
}

// wrapRow makes a run of elements one element, as script and fraction
// slots need.
func wrapRow(s string) string {
	if strings.HasPrefix(s, "<mrow>") && strings.HasSuffix(s, "</mrow>") && strings.Count(s, "<mrow>") == 1 {
		return s
	}
	return "<mrow>" + s + "</mrow>"
}

// argument reads what a command or script takes: a {group} or one token.
func (p *texParser) argument() string {
	if p.peek() == "" || p.stops(p.peek(), texStopBrace) {
		p.failed = true
		return ""
	}
	a, _ := p.atom(true)
	return wrapRow(a)
}

// group reads a braced argument as it is written (for \text, \begin).
func (p *texParser) rawGroup() string {
	if p.next() != "{" {
		p.failed = true
		return ""
	}
	depth, start := 1, p.pos
	for ; p.pos < len(p.src); p.pos++ {
		switch p.src[p.pos] {
		case '\\':
			p.pos++
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				p.pos++
				return p.src[start : p.pos-1]
			}
		}
	}
	p.failed = true
	return ""
}

// atom reads one thing: a group, a number, a letter, an operator or a
// command with its arguments. single takes one digit only, as TeX does for
// x^23. limits says scripts go under and over it (\sum, \lim).
func (p *texParser) atom(single bool) (string, bool) {
	start := p.pos
	t := p.next()
	switch {
	case t == "{":
		inner := p.row(texStopBrace)
		if p.next() != "}" {
			p.failed = true
		}
		return "<mrow>" + inner + "</mrow>", false
	case t >= "0" && t <= "9" && len(t) == 1:
		end := p.pos
		if !single {
			for end < len(p.src) && (p.src[end] >= '0' && p.src[end] <= '9' || p.src[end] == '.' && end+1 < len(p.src) && p.src[end+1] >= '0' && p.src[end+1] <= '9') {
				end++
			}
		}
		num := p.src[start:end]
		p.pos = end
		return "<mn>" + p.styled(num) + "</mn>", false
	case t == "~":
		return "<mtext>\u00a0</mtext>", false
	case strings.HasPrefix(t, `\`):
		return p.command(t)
	}
	r, _ := utf8.DecodeRuneInString(t)
	if unicode.IsLetter(r) {
		return p.identifier(t), false
	}
	if op, found := texCharOperators[t]; found {
		return "<mo>" + op + "</mo>", false
	}
	if unicode.IsDigit(r) {
		return "<mn>" + escapeText(t) + "</mn>", false
	}
	return "<mo>" + escapeText(t) + "</mo>", false
}

// identifier writes a letter in the current font: upright in \mathrm,
// otherwise italic (MathML's default for one letter).
func (p *texParser) identifier(s string) string {
	if p.font == "rm" {
		return `<mi mathvariant="normal">` + escapeText(s) + "</mi>"
	}
	return "<mi>" + p.styled(s) + "</mi>"
}

// styled maps letters and digits into the Unicode alphabet of the
// current font: MathML Core draws only what the characters are.
func (p *texParser) styled(s string) string {
	alphabet, found := texAlphabets[p.font]
	if !found {
		return escapeText(s)
	}
	var b strings.Builder
	for _, r := range s {
		if special, found := alphabet.exceptions[r]; found {
			b.WriteRune(special)
		} else if r >= 'A' && r <= 'Z' {
			b.WriteRune(alphabet.upper + r - 'A')
		} else if r >= 'a' && r <= 'z' && alphabet.lower != 0 {
			b.WriteRune(alphabet.lower + r - 'a')
		} else if r >= '0' && r <= '9' && alphabet.digits != 0 {
			b.WriteRune(alphabet.digits + r - '0')
		} else {
			b.WriteString(escapeText(string(r)))
		}
	}
	return b.String()
}

func (p *texParser) command(t string) (string, bool) {
	name := t[1:]
	if name == "" { // a backslash ends the formula
		p.failed = true
		return "", false
	}
	if s, found := texIdentifiers[name]; found {
		return "<mi>" + s + "</mi>", false
	}
	if s, found := texOperators[name]; found {
		return "<mo>" + s + "</mo>", false
	}
	if s, found := texLargeOperators[name]; found {
		return `<mo movablelimits="true">` + s + "</mo>", true
	}
	if s, found := texIntegrals[name]; found {
		return "<mo>" + s + "</mo>", false
	}
	if texFunctions[name] {
		return "<mi>" + name + "</mi><mo>\u2061</mo>", false
	}
	if texLimitFunctions[name] {
		return `<mo movablelimits="true" form="prefix">` + name + "</mo>", true
	}
	if width, found := texSpaces[name]; found {
		return `<mspace width="` + width + `"></mspace>`, false
	}
	if s, found := texAccents[name]; found {
		return `<mover accent="true">` + p.argument() + "<mo>" + s + "</mo></mover>", false
	}
	if font, found := texFonts[name]; found {
		outer := p.font
		p.font = font
		arg := p.argument()
		p.font = outer
		return arg, false
	}
	if variant, found := texTextFonts[name]; found {
		text := p.rawGroup()
		alphabet := p.font
		p.font = variant
		styled := p.styled(strings.NewReplacer(`\{`, "{", `\}`, "}", `\_`, "_", `\&`, "&", `\%`, "%", `\$`, "$", `\ `, " ", "~", "\u00a0").Replace(text))
		p.font = alphabet
		return "<mtext>" + styled + "</mtext>", false
	}
	switch name {
	case "frac", "dfrac", "tfrac", "cfrac":
		num := p.argument()
		return "<mfrac>" + num + p.argument() + "</mfrac>", false
	case "binom", "dbinom", "tbinom":
		top := p.argument()
		return `<mrow><mo>(</mo><mfrac linethickness="0">` + top + p.argument() + "</mfrac><mo>)</mo></mrow>", false
	case "sqrt":
		if p.peek() == "[" {
			p.next()
			index := p.row(texStopOpt)
			if p.next() != "]" {
				p.failed = true
			}
			return "<mroot>" + p.argument() + wrapRow(index) + "</mroot>", false
		}
		return "<msqrt>" + p.argument() + "</msqrt>", false
	case "underline":
		return `<munder accentunder="true">` + p.argument() + "<mo>_</mo></munder>", false
	case "overbrace":
		return `<mover>` + p.argument() + "<mo>⏞</mo></mover>", true
	case "underbrace":
		return `<munder>` + p.argument() + "<mo>⏟</mo></munder>", true
	case "left":
		open := p.delimiter()
		inner := p.row(texStopRight)
		if p.next() != `\right` {
			p.failed = true
		}
		closing := p.delimiter()
		return `<mrow>` + texFence(open, "prefix") + inner + texFence(closing, "postfix") + `</mrow>`, false
	case "big", "Big", "bigg", "Bigg", "bigl", "Bigl", "biggl", "Biggl", "bigr", "Bigr", "biggr", "Biggr", "bigm", "Bigm":
		size := map[byte]string{'b': "1.2em", 'B': "1.8em"}[name[0]]
		if strings.HasPrefix(name[1:], "igg") {
			size = map[byte]string{'b': "2.4em", 'B': "3em"}[name[0]]
		}
		d := p.delimiter()
		return `<mo minsize="` + size + `" maxsize="` + size + `">` + d + "</mo>", false
	case "operatorname":
		outer := p.font
		p.font = "rm"
		arg := p.argument()
		p.font = outer
		return arg + "<mo>\u2061</mo>", false
	case "begin":
		return p.environment(), false
	case "displaystyle", "textstyle", "scriptstyle", "limits", "nolimits", "nonumber", "notag":
		return "", false
	case "not":
		next, _ := p.atom(true)
		return `<mpadded width="0px"><mo>/</mo></mpadded>` + next, false
	case "pmod":
		return "<mo>(</mo><mo>mod</mo>" + p.argument() + "<mo>)</mo>", false
	}
	// Escaped characters: \{ \} \| \$ \% \# \& \_ and the like.
	if r, _ := utf8.DecodeRuneInString(name); name != "" && !isASCIILetter(name[0]) && utf8.RuneLen(r) == len(name) {
		if s, found := texOperators[name]; found {
			return "<mo>" + s + "</mo>", false
		}
		return "<mo>" + escapeText(name) + "</mo>", false
	}
	return `<merror><mtext>` + escapeText(t) + `</mtext></merror>`, false
}

// texFence writes a \left or \right delimiter; "." is none.
func texFence(d, form string) string {
	if d == "" {
		return ""
	}
	return `<mo fence="true" form="` + form + `">` + d + "</mo>"
}

// delimiter reads what follows \left, \right or \big.
func (p *texParser) delimiter() string {
	t := p.next()
	switch {
	case t == ".":
		return ""
	case t == "":
		p.failed = true
		return ""
	case strings.HasPrefix(t, `\`):
		if s, found := texDelimiters[t[1:]]; found {
			return s
		}
		p.failed = true
		return ""
	case t == "<":
		return "⟨"
	case t == ">":
		return "⟩"
	case strings.Contains("()[]|/", t):
		return t
	}
	p.failed = true
	return ""
}

// texEnvironmentFences are the delimiters around each matrix.
var texEnvironmentFences = map[string][2]string{
	"matrix": {"", ""}, "smallmatrix": {"", ""}, "pmatrix": {"(", ")"}, "bmatrix": {"[", "]"}, "Bmatrix": {"{", "}"},
	"vmatrix": {"|", "|"}, "Vmatrix": {"‖", "‖"}, "cases": {"{", ""}, "rcases": {"", "}"},
	"aligned": {"", ""}, "align": {"", ""}, "align*": {"", ""}, "gathered": {"", ""}, "gather": {"", ""},
	"gather*": {"", ""}, "split": {"", ""}, "array": {"", ""}, "alignat": {"", ""}, "alignedat": {"", ""},
}

// environment reads \begin{name} … \end{name}: rows split by \\, cells by &.
func (p *texParser) environment() string {
	name := p.rawGroup()
	fences, known := texEnvironmentFences[name]
	if !known {
		p.failed = true
		return ""
	}
	if name == "array" || name == "alignat" || name == "alignedat" {
		p.rawGroup() // column spec or count: the cells say enough
	}
	align := ""
	switch {
	case strings.HasPrefix(name, "align") || name == "split":
		align = ` columnalign="right left right left right left"`
	case strings.HasSuffix(name, "cases"):
		align = ` columnalign="left left"`
	}
	var rows strings.Builder
	for !p.failed {
		var cells strings.Builder
		for !p.failed {
			cells.WriteString("<mtd>" + p.row(texStopCell) + "</mtd>")
			if p.peek() != "&" {
				break
			}
			p.next()
		}
		rows.WriteString("<mtr>" + cells.String() + "</mtr>")
		if p.peek() != `\\` {
			break
		}
		p.next()
	}
	if p.next() != `\end` || p.rawGroup() != name {
		p.failed = true
	}
	table := `<mtable` + align + `>` + rows.String() + `</mtable>`
	if fences == [2]string{"", ""} {
		return table
	}
	return "<mrow>" + texFence(fences[0], "prefix") + table + texFence(fences[1], "postfix") + "</mrow>"
}
