package markdown

import (
	"bufio"
	"bytes"
	"log/slog"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Renderer converts messages. It holds one goldmark instance, built once
// and never changed, so it is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
}

// New builds the renderer: goldmark's CommonMark blocks without raw HTML,
// setext headings and link reference definitions (Zulip has none of
// them), GFM tables, and the chat dialect's parsers and renderers.
func New() *Renderer {
	p := parser.NewParser(
		parser.WithBlockParsers(blockParsers()...),
		parser.WithInlineParsers(
			util.Prioritized(&codeSpanParser{}, 100),
			util.Prioritized(&mathParser{}, 150),
			util.Prioritized(guardedLinkParser{parser.NewLinkParser()}, 200),
			util.Prioritized(&timeParser{}, 250),
			util.Prioritized(&autoLinkParser{}, 300),
			util.Prioritized(&mentionParser{}, 450),
			util.Prioritized(&streamLinkParser{}, 460),
			util.Prioritized(&emojiParser{}, 470),
			util.Prioritized(&starParser{}, 500),
			util.Prioritized(&tildeParser{}, 510),
		),
		parser.WithParagraphTransformers(
			util.Prioritized(extension.NewTableParagraphTransformer(), 200),
		),
		parser.WithASTTransformers(
			util.Prioritized(extension.NewTableASTTransformer(), 0),
			util.Prioritized(&proseTransformer{}, 100),
			util.Prioritized(&finishTransformer{}, 300),
		),
	)
	r := renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(html.NewRenderer(html.WithHardWraps(), html.WithWriter(zulipWriter{})), 1000),
		util.Prioritized(extension.NewTableHTMLRenderer(), 500),
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
		util.Prioritized(linkRenderer{}, 100),
		util.Prioritized(codeRenderer{}, 100),
		util.Prioritized(layoutRenderer{}, 100),
		util.Prioritized(quoteRenderer{}, 100),
		util.Prioritized(spoilerRenderer{}, 100),
		util.Prioritized(mathRenderer{}, 100),
		util.Prioritized(timeRenderer{}, 100),
		util.Prioritized(mentionRenderer{}, 100),
		util.Prioritized(streamLinkRenderer{}, 100),
		util.Prioritized(emojiRenderer{}, 100),
		util.Prioritized(inlineImageRenderer{}, 100),
	))
	return &Renderer{md: goldmark.New(goldmark.WithParser(p), goldmark.WithRenderer(r))}
}

// blockParsers are goldmark's CommonMark block parsers without raw HTML
// blocks and setext headings, plus the chat fences (```quote, ```spoiler,
// ```math), tried before ordinary code fences.
func blockParsers() []util.PrioritizedValue {
	return []util.PrioritizedValue{
		util.Prioritized(parser.NewThematicBreakParser(), 200),
		util.Prioritized(nestingLimited{parser.NewListParser()}, 300),
		util.Prioritized(nestingLimited{parser.NewListItemParser()}, 400),
		util.Prioritized(parser.NewCodeBlockParser(), 500),
		util.Prioritized(parser.NewATXHeadingParser(), 600),
		util.Prioritized(&chatFenceParser{}, 650),
		util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
		util.Prioritized(nestingLimited{parser.NewBlockquoteParser()}, 800),
		util.Prioritized(parser.NewParagraphParser(), 1000),
	}
}

// env is one render's inputs, carried through goldmark's parser context.
type env struct {
	lookup Lookup
	links  *Linkifiers
	source string // the parsed source, for linkifiers, which match strings
	result Result // what the message mentions and links to, noted as the tree is finished
}

var envKey = parser.NewContextKey()

func envOf(pc parser.Context) *env {
	if e, ok := pc.Get(envKey).(*env); ok {
		return e
	}
	return &env{}
}

var sourceCleaner = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "\uFFFD")

// Render turns a message into HTML. It never panics: a failure renders the
// whole text escaped in one paragraph.
func (r *Renderer) Render(src string, lookup Lookup, links *Linkifiers) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			slog.Error("markdown render panic", "panic", v)
			res = Result{HTML: "<p>" + escapeText(src) + "</p>"}
		}
	}()
	// Line endings are normalized as in Zulip; NUL is replaced as
	// CommonMark requires, everywhere (code and math included).
	// Most messages have nothing to clean, and the general replacer costs
	// more than the scan.
	cleaned := src
	if strings.ContainsAny(src, "\r\x00") {
		cleaned = sourceCleaner.Replace(src)
	}
	out := outputs.Get().(*output)
	defer out.release()
	out.source = append(out.source[:0], cleaned...)
	source := out.source
	out.env = env{lookup: lookup, links: links, source: cleaned}
	out.freshContext()
	out.pc.Set(envKey, &out.env)
	doc := r.md.Parser().Parse(text.NewReader(source), out.parseOption)
	out.buf.Reset()
	out.w.Reset(&out.buf)
	if err := r.md.Renderer().Render(out.w, source, doc); err != nil {
		return Result{HTML: "<p>" + escapeText(src) + "</p>"}
	}
	res = out.env.result
	res.HTML = strings.TrimRight(out.buf.String(), "\n")
	res.IsMeMessage = isMeMessage(doc, source)
	return res
}

// output is a render's buffer and the buffered writer goldmark writes
// through, kept for the next render (goldmark makes a 4 KB writer for
// every message unless it is handed one), with the render's env, its
// copy of the source, which nothing keeps once the HTML is a string, and
// its parser context (goldmark's takes nine allocations to make).
type output struct {
	buf         bytes.Buffer
	w           *bufio.Writer
	env         env
	source      []byte
	pc          parser.Context
	parseOption parser.ParseOption // parser.WithContext(pc)
}

// freshContext readies the parser context as a new one would be. Every
// value a parser keeps in it is cleared through its own interface; one
// left holding what cannot be cleared (link reference definitions, or
// delimiters after a render that panicked) is replaced.
func (out *output) freshContext() {
	if out.pc == nil || out.pc.FirstDelimiter() != nil || len(out.pc.References()) > 0 {
		out.pc = parser.NewContext(parser.WithIDs(noHeadingIDs{}))
		out.parseOption = parser.WithContext(out.pc)
		return
	}
	for key := range parser.ContextKeyMax + 1 {
		out.pc.Set(key, nil)
	}
	out.pc.SetBlockOffset(-1)
	out.pc.SetBlockIndent(-1)
	out.pc.SetOpenedBlocks(out.pc.OpenedBlocks()[:0])
}

// noHeadingIDs is the context's ID generator. Only automatic heading IDs
// use one, and chat headings get none (as in Zulip), so a context needs no
// generator of its own, with its two maps.
type noHeadingIDs struct{}

func (noHeadingIDs) Generate(value []byte, _ ast.NodeKind) []byte { return value }
func (noHeadingIDs) Put([]byte)                                   {}

var outputs = sync.Pool{New: func() any {
	out := &output{}
	out.w = bufio.NewWriter(&out.buf)
	return out
}}

// release keeps the output for another render unless a large message
// grew it: the pool should not pin a rare big buffer.
func (out *output) release() {
	out.env = env{} // the lookup holds the caller's transaction
	if out.buf.Cap() <= 64<<10 && cap(out.source) <= 64<<10 {
		outputs.Put(out)
	}
}

// isMeMessage is Zulip's /me rule: one paragraph starting with "/me ".
func isMeMessage(doc ast.Node, source []byte) bool {
	first := doc.FirstChild()
	if first == nil || first.NextSibling() != nil || first.Kind() != ast.KindParagraph || first.Lines().Len() == 0 {
		return false
	}
	return bytes.HasPrefix(nodeLine(first, 0, source), []byte("/me "))
}
