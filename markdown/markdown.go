// Package markdown renders Lanchat's chat dialect (Zulip's flavour of
// markdown) to the HTML Zulip clients expect, on goldmark and its extension
// points: custom inline and block parsers, AST transformers and node
// renderers. Raw HTML is never passed through.
package markdown

import (
	"bytes"
	stdhtml "html"
	"log/slog"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// User, Group, Stream and CustomEmoji are what the renderer needs to know
// about the organization's people and things.
type (
	User struct {
		ID       int64
		FullName string
		Active   bool
	}
	Group struct {
		ID   int64
		Name string
	}
	Stream struct {
		ID   int64
		Name string
	}
	CustomEmoji struct {
		ID        string
		Name      string
		SourceURL string
	}
)

// Lookup answers the renderer's questions about the organization.
type Lookup interface {
	UserByName(fullName string) (User, bool) // case-insensitive; ambiguous names are not found
	UserByID(id int64) (User, bool)
	GroupByName(name string) (Group, bool)
	StreamByName(name string) (Stream, bool) // only streams the sender may see
	CustomEmoji(name string) (CustomEmoji, bool)
}

// TopicLink is a link found in a topic.
type TopicLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// Result is a rendered message and what rendering learned about it.
type Result struct {
	HTML              string
	MentionedUserIDs  []int64 // non-silent user mentions outside quotes, sorted, unique
	MentionedGroupIDs []int64
	StreamWildcard    bool // @**all**, @**everyone**, @**stream**, @**channel**
	TopicWildcard     bool // @**topic**
	IsMeMessage       bool
	HasLink           bool
	HasImage          bool
	HasAttachment     bool // links to /user_uploads/
}

// Renderer converts messages; it is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
}

// New builds the renderer once: goldmark's CommonMark blocks minus raw HTML,
// the chat dialect's parsers, GFM tables, strikethrough and bare-URL links.
func New() *Renderer {
	blocks := withoutHTMLBlocks(parser.DefaultBlockParsers())
	inlines := []util.PrioritizedValue{
		util.Prioritized(parser.NewCodeSpanParser(), 100),
		util.Prioritized(&mathParser{}, 150),
		util.Prioritized(parser.NewLinkParser(), 200),
		util.Prioritized(&timeParser{}, 250),
		util.Prioritized(parser.NewAutoLinkParser(), 300),
		util.Prioritized(&mentionParser{}, 450),
		util.Prioritized(&streamLinkParser{}, 460),
		util.Prioritized(&emojiParser{}, 470),
		util.Prioritized(&starParser{}, 500),
	}
	p := parser.NewParser(
		parser.WithBlockParsers(append(blocks, util.Prioritized(&chatFenceParser{}, 650))...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		parser.WithASTTransformers(
			util.Prioritized(&linkifierTransformer{}, 100),
			util.Prioritized(&unicodeEmojiTransformer{}, 200),
			util.Prioritized(&quoteSilencer{}, 300),
			util.Prioritized(&strongOutside{}, 400),
		),
	)
	r := renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(html.NewRenderer(html.WithHardWraps()), 1000),
		util.Prioritized(&chatRenderer{}, 100),
	))
	md := goldmark.New(
		goldmark.WithParser(p),
		goldmark.WithRenderer(r),
		goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.Linkify),
	)
	return &Renderer{md: md}
}

// withoutHTMLBlocks drops goldmark's HTML block parser (a singleton): raw
// HTML must show as text.
func withoutHTMLBlocks(values []util.PrioritizedValue) []util.PrioritizedValue {
	htmlBlock := parser.NewHTMLBlockParser()
	var out []util.PrioritizedValue
	for _, v := range values {
		if v.Value != htmlBlock {
			out = append(out, v)
		}
	}
	return out
}

// env is one render's inputs, carried through goldmark's parser context.
type env struct {
	lookup Lookup
	links  *Linkifiers
}

var envKey = parser.NewContextKey()

func envOf(pc parser.Context) *env {
	if e, ok := pc.Get(envKey).(*env); ok {
		return e
	}
	return &env{}
}

// Render turns a message into HTML. It never panics: a failure renders the
// text escaped in a paragraph.
func (r *Renderer) Render(src string, lookup Lookup, links *Linkifiers) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			slog.Error("markdown render panic", "panic", v)
			res = Result{HTML: "<p>" + escape(src) + "</p>"}
		}
	}()
	source := []byte(src)
	pc := parser.NewContext()
	pc.Set(envKey, &env{lookup: lookup, links: links})
	doc := r.md.Parser().Parse(text.NewReader(source), parser.WithContext(pc))
	var buf bytes.Buffer
	if err := r.md.Renderer().Render(&buf, source, doc); err != nil {
		return Result{HTML: "<p>" + escape(src) + "</p>"}
	}
	res = analyze(doc, source)
	res.HTML = strings.TrimRight(buf.String(), "\n")
	res.IsMeMessage = isMeMessage(doc, source)
	return res
}

// isMeMessage is Zulip's /me rule: one paragraph starting with "/me ".
func isMeMessage(doc ast.Node, source []byte) bool {
	first := doc.FirstChild()
	if first == nil || first.NextSibling() != nil || first.Kind() != ast.KindParagraph {
		return false
	}
	lines := first.Lines()
	if lines.Len() == 0 {
		return false
	}
	line := lines.At(0)
	return bytes.HasPrefix(line.Value(source), []byte("/me "))
}

func escape(s string) string { return stdhtml.EscapeString(s) }
