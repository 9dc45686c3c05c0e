package markdown

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// chatRenderer writes the chat dialect's nodes, and replaces goldmark's
// renderers for links (safe schemes only), images (shown as links) and code
// (highlighted in Zulip's codehilite wrapper).
type chatRenderer struct{}

func (r *chatRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindMention, r.mention)
	reg.Register(KindStreamLink, r.streamLink)
	reg.Register(KindEmoji, r.emoji)
	reg.Register(KindQuoteBlock, r.quote)
	reg.Register(KindSpoilerBlock, r.spoiler)
	reg.Register(KindMathBlock, r.mathBlock)
	reg.Register(KindMath, r.math)
	reg.Register(KindTime, r.time)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindAutoLink, r.autoLink)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindFencedCodeBlock, r.code)
	reg.Register(ast.KindCodeBlock, r.code)
}

func write(w util.BufWriter, parts ...string) {
	for _, p := range parts {
		w.WriteString(p)
	}
}

func attr(s string) string { return escape(s) }

func (r *chatRenderer) mention(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Mention)
	silent := ""
	at := "@"
	if n.Silent {
		silent, at = " silent", ""
	}
	switch {
	case n.Wildcard == "topic":
		write(w, `<span class="topic-mention`, silent, `">`, at, "topic</span>")
	case n.Wildcard != "":
		write(w, `<span class="user-mention channel-wildcard-mention`, silent, `" data-user-id="*">`, at, attr(n.Wildcard), "</span>")
	case n.GroupID != 0:
		write(w, `<span class="user-group-mention`, silent, `" data-user-group-id="`, strconv.FormatInt(n.GroupID, 10), `">`, at, attr(n.Name), "</span>")
	default:
		write(w, `<span class="user-mention`, silent, `" data-user-id="`, strconv.FormatInt(n.UserID, 10), `">`, at, attr(n.Name), "</span>")
	}
	return ast.WalkSkipChildren, nil
}

func (r *chatRenderer) streamLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*StreamLink)
	id := strconv.FormatInt(n.Stream.ID, 10)
	switch {
	case n.MessageID != 0:
		write(w, `<a class="message-link" href="`, attr(n.href()), `">#`, attr(n.Stream.Name), " &gt; ", attr(n.Topic), " @ 💬</a>")
	case n.HasTopic:
		write(w, `<a class="stream-topic" data-stream-id="`, id, `" href="`, attr(n.href()), `">#`, attr(n.Stream.Name), " &gt; ", attr(n.Topic), "</a>")
	default:
		write(w, `<a class="stream" data-stream-id="`, id, `" href="`, attr(n.href()), `">#`, attr(n.Stream.Name), "</a>")
	}
	return ast.WalkSkipChildren, nil
}

func (r *chatRenderer) emoji(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Emoji)
	title := attr(strings.ReplaceAll(n.Name, "_", " "))
	if n.Custom != nil {
		write(w, `<img alt=":`, attr(n.Name), `:" class="emoji" src="`, attr(n.Custom.SourceURL), `" title="`, title, `">`)
	} else {
		write(w, `<span aria-label="`, title, `" class="emoji emoji-`, attr(n.Code), `" role="img" title="`, title, `">:`, attr(n.Name), ":</span>")
	}
	return ast.WalkSkipChildren, nil
}

func (r *chatRenderer) quote(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString("<blockquote>\n")
	} else {
		w.WriteString("</blockquote>\n")
	}
	return ast.WalkContinue, nil
}

func (r *chatRenderer) spoiler(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*SpoilerBlock)
	if entering {
		w.WriteString(`<div class="spoiler-block"><div class="spoiler-header">` + "\n")
		if len(n.Header) > 0 {
			write(w, "<p>", escape(string(n.Header)), "</p>\n")
		}
		w.WriteString(`</div><div class="spoiler-content" aria-hidden="true">` + "\n")
	} else {
		w.WriteString("</div></div>\n")
	}
	return ast.WalkContinue, nil
}

// katex keeps TeX for the client's KaTeX, in the structure Zulip's
// clients read (the source in an annotation).
func katex(tex []byte) string {
	return `<span class="katex"><span class="katex-mathml"><math><semantics><annotation encoding="application/x-tex">` +
		escape(string(tex)) + `</annotation></semantics></math></span></span>`
}

func (r *chatRenderer) mathBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	write(w, `<p><span class="katex-display">`, katex(bytes.TrimSpace(blockText(node, source))), "</span></p>\n")
	return ast.WalkSkipChildren, nil
}

func (r *chatRenderer) math(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Math)
	if n.Display {
		write(w, `<span class="katex-display">`, katex(n.TeX), "</span>")
	} else {
		w.WriteString(katex(n.TeX))
	}
	return ast.WalkSkipChildren, nil
}

func (r *chatRenderer) time(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*Time)
	if !n.Valid {
		write(w, `<span class="timestamp-error">Invalid time format: `, escape(string(n.Original)), "</span>")
		return ast.WalkSkipChildren, nil
	}
	write(w, `<time datetime="`, n.When.UTC().Format("2006-01-02T15:04:05Z"), `">`, escape(string(n.Original)), "</time>")
	return ast.WalkSkipChildren, nil
}

// safeURL tells the addresses that may become links: http(s), mailto, and
// this server's own relative paths and #narrow anchors.
func safeURL(dest string) bool {
	if strings.HasPrefix(dest, "/") && !strings.HasPrefix(dest, "//") || strings.HasPrefix(dest, "#") {
		return true
	}
	u, err := url.Parse(dest)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return true
	}
	return false
}

// link renders a markdown link; an unsafe one shows its text only.
func (r *chatRenderer) link(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	return linkTo(w, string(node.(*ast.Link).Destination), node, entering)
}

func (r *chatRenderer) autoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	label := string(n.Label(source))
	dest := string(n.URL(source))
	if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	if !safeURL(dest) {
		w.WriteString(escape(label))
		return ast.WalkSkipChildren, nil
	}
	write(w, `<a href="`, attr(dest), `">`, escape(label), "</a>")
	return ast.WalkSkipChildren, nil
}

// image renders ![alt](url) as a link to the image: clients show previews
// of image links themselves.
func (r *chatRenderer) image(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	return linkTo(w, string(node.(*ast.Image).Destination), node, entering)
}

// linkTo wraps node's children in a link to dest when dest is safe; an
// empty link shows its address.
func linkTo(w util.BufWriter, dest string, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !safeURL(dest) {
		return ast.WalkContinue, nil
	}
	if entering {
		write(w, `<a href="`, attr(dest), `">`)
		if node.FirstChild() == nil {
			w.WriteString(escape(dest))
		}
	} else {
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// code renders fenced and indented code in Zulip's wrapper, highlighted
// with Pygments-compatible classes when the language is known.
func (r *chatRenderer) code(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	body := string(blockText(node, source))
	language := ""
	if fenced, ok := node.(*ast.FencedCodeBlock); ok {
		language = string(fenced.Language(source))
	}
	w.WriteString(`<div class="codehilite"`)
	lexer := lexers.Get(language)
	if language != "" {
		name := language
		if lexer != nil {
			name = lexer.Config().Name
		}
		write(w, ` data-code-language="`, attr(name), `"`)
	}
	w.WriteString("><pre><span></span><code>")
	if lexer == nil || language == "" {
		w.WriteString(escape(body))
	} else if err := highlight(w, lexer, body); err != nil {
		w.WriteString(escape(body))
	}
	w.WriteString("</code></pre></div>\n")
	return ast.WalkSkipChildren, nil
}

var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

func highlight(w util.BufWriter, lexer chroma.Lexer, code string) error {
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return err
	}
	// With classes the style only names them; Pygments class names are fixed.
	return codeFormatter.Format(w, styles.Fallback, it)
}
