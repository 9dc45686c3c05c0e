package markdown

import (
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// codeLanguage is a chroma lexer and, for a regex lexer, its rules
// compiled for codeLexer on first use.
type codeLanguage struct {
	lexer    chroma.Lexer
	compiled func() (*codeLexer, error)
}

// tokens lexes code, or reports false when the lexer fails or runs on:
// some chroma lexers never end on some text (Jungle's pushes a state on
// an empty match, for ever), while a sane one takes a few steps per byte;
// others take time far beyond their steps (a rule backtracking over the
// rest of the text at each), so lexing also stops at deadline. A lexer
// that panics (YANG's names a state it lacks) fails only its block. The
// tokens are appended to into.
func (l *codeLanguage) tokens(code string, deadline time.Time, into []chroma.Token) (tokens []chroma.Token, ok bool) {
	defer func() {
		if recover() != nil {
			tokens, ok = nil, false
		}
	}()
	if time.Now().After(deadline) {
		return nil, false
	}
	limit := 16*len(code) + 1024
	if l.compiled != nil {
		c, err := l.compiled()
		if err != nil {
			return nil, false
		}
		return c.tokens(code, limit, deadline, into)
	}
	it, err := l.lexer.Tokenise(nil, code)
	if err != nil {
		return nil, false
	}
	tokens = into
	for tok := it(); tok != chroma.EOF; tok = it() {
		if len(tokens) == limit || len(tokens)%8 == 0 && time.Now().After(deadline) {
			return nil, false
		}
		tokens = append(tokens, tok)
	}
	return tokens, true
}

// languageByAlias finds chroma lexers the way Pygments'
// find_lexer_class_by_name does in Zulip: by alias (or lower-case name),
// never by file name.
var languageByAlias = func() map[string]*codeLanguage {
	m := map[string]*codeLanguage{}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		language := &codeLanguage{lexer: l}
		if regex, ok := l.(*chroma.RegexLexer); ok {
			language.compiled = sync.OnceValues(func() (*codeLexer, error) {
				return newCodeLexer(regex, lexers.GlobalLexerRegistry)
			})
		}
		c := l.Config()
		for _, alias := range append([]string{strings.ToLower(c.Name)}, c.Aliases...) {
			if _, taken := m[alias]; !taken {
				m[alias] = language
			}
		}
	}
	return m
}()

// pygmentsNames are Pygments' names for lexers chroma names differently;
// the name is what clients read in data-code-language.
var pygmentsNames = map[string]string{
	"Python 2":  "Python 2.x",
	"plaintext": "Text only",
	"R":         "S",
	"react":     "JSX",
	"markdown":  "Markdown",
}

// codeRenderer writes fenced and indented code in Zulip's codehilite
// wrapper, highlighted with Pygments' CSS classes when the language is
// known.
type codeRenderer struct{}

func (codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindCodeBlock, renderCode)
}

func renderCode(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering || node.Lines().Len() == 0 {
		return ast.WalkSkipChildren, nil
	}
	// As in Zulip: trailing spaces go, and so do blank lines at either end.
	lines := make([]string, node.Lines().Len())
	for i := range lines {
		lines[i] = strings.TrimRight(string(nodeLine(node, i, source)), " \t\r\n")
	}
	code := strings.Trim(strings.Join(lines, "\n"), "\n") + "\n"
	language := ""
	if fenced, ok := node.(*ast.FencedCodeBlock); ok && fenced.Info != nil {
		language = fenceLanguage(fenced.Info.Segment.Value(source))
	}
	lang := languageByAlias[language]
	_, _ = w.WriteString(`<div class="codehilite"`)
	if language != "" {
		name := language
		if lang != nil {
			name = lang.lexer.Config().Name
			if p, ok := pygmentsNames[name]; ok {
				name = p
			}
		}
		_, _ = w.WriteString(` data-code-language="` + escapeAttr(name) + `"`)
	}
	_, _ = w.WriteString("><pre><span></span><code>")
	if lang == nil || len(code) > maxHighlight || !highlight(w, lang, code, highlightDeadline(node)) {
		_, _ = w.WriteString(pygmentsEscaper.Replace(code))
	}
	_, _ = w.WriteString("</code></pre></div>\n")
	return ast.WalkSkipChildren, nil
}

// maxHighlight bounds the code chroma's backtracking lexers see; larger
// blocks are shown plain.
const maxHighlight = 20000

// highlightBudget is the time a message's code blocks may take to
// highlight, all together; blocks it does not cover are shown plain. A
// 10 KB file of an ordinary language takes a few milliseconds, while some
// lexers take minutes over hostile text, which any member could send.
const highlightBudget = 250 * time.Millisecond

var highlightDeadlineKey = []byte("lanchat-highlight-deadline")

// highlightDeadline is when the message holding node must stop
// highlighting: set on its document by its first code block.
func highlightDeadline(node ast.Node) time.Time {
	doc := node
	for doc.Parent() != nil {
		doc = doc.Parent()
	}
	if v, ok := doc.AttributeString(string(highlightDeadlineKey)); ok {
		return v.(time.Time)
	}
	deadline := time.Now().Add(highlightBudget)
	doc.SetAttribute(highlightDeadlineKey, deadline)
	return deadline
}

// pygmentsEscaper escapes as Pygments' HTML formatter does.
var pygmentsEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// tokenBuffers hold the slices highlight gathers a block's tokens in
// before it writes any: a fresh slice grown to each block's tokens was the
// largest part of the bytes highlighting allocated.
var tokenBuffers = sync.Pool{New: func() any { return new([]chroma.Token) }}

// highlight writes code's tokens as Pygments' HTML formatter would: a span
// per run of one CSS class, closed at each line end, plain text bare. It
// reports false, having written nothing, when the lexer fails or runs on.
func highlight(w util.BufWriter, lang *codeLanguage, code string, deadline time.Time) bool {
	buf := tokenBuffers.Get().(*[]chroma.Token)
	tokens, ok := lang.tokens(code, deadline, (*buf)[:0])
	defer func() {
		clear(tokens) // their text is the message's
		*buf = tokens[:0]
		tokenBuffers.Put(buf)
	}()
	if !ok {
		return false
	}
	classes := tokenClasses()
	open := ""
	closeSpan := func() {
		if open != "" {
			_, _ = w.WriteString("</span>")
			open = ""
		}
	}
	for _, tok := range tokens {
		var class string
		if t := int(tok.Type); t >= 0 && t < len(classes) {
			class = classes[t]
		} else {
			class = tokenClass(tok.Type)
		}
		for rest, more := tok.Value, true; more; {
			var part string
			part, rest, more = strings.Cut(rest, "\n")
			if part != "" {
				if class != open {
					closeSpan()
					if class != "" {
						_, _ = w.WriteString(`<span class="`)
						_, _ = w.WriteString(class)
						_, _ = w.WriteString(`">`)
						open = class
					}
				}
				_, _ = pygmentsEscaper.WriteString(w, part)
			}
			if more {
				closeSpan()
				_, _ = w.WriteString("\n")
			}
		}
	}
	closeSpan()
	return true
}

// tokenClasses holds tokenClass for every token type from 0 to 8999,
// where chroma's categories lie: up to three map lookups a token were
// over 1% of Render.
var tokenClasses = sync.OnceValue(func() []string {
	classes := make([]string, 9000)
	for t := range classes {
		classes[t] = tokenClass(chroma.TokenType(t))
	}
	return classes
})

// tokenClass is the Pygments short class of a token type, or of its
// nearest ancestor that has one.
func tokenClass(t chroma.TokenType) string {
	for _, candidate := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if class, ok := chroma.StandardTypes[candidate]; ok {
			return class
		}
	}
	return ""
}
