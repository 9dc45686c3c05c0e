package markdown

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Zulip escapes only what HTML needs: &, < and > in text, and " as well in
// attribute values.
var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\x00", "\uFFFD")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\x00", "\uFFFD")
)

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

// zulipWriter is goldmark's text writer with Zulip's escaping (quotes stay
// as typed). It resolves backslash escapes and entity references, as
// CommonMark does.
type zulipWriter struct{}

func (zulipWriter) RawWrite(w util.BufWriter, source []byte) {
	// Most text has nothing to escape: written as it is, it needs no
	// string copy for the replacer.
	if bytes.IndexAny(source, "&<>\x00") < 0 {
		_, _ = w.Write(source)
		return
	}
	_, _ = textEscaper.WriteString(w, string(source))
}

func (zulipWriter) SecureWrite(w util.BufWriter, source []byte) {
	_, _ = w.Write(bytes.ReplaceAll(source, []byte{0}, []byte("\uFFFD")))
}

func (z zulipWriter) Write(w util.BufWriter, source []byte) {
	start := 0
	for i := 0; i < len(source); i++ {
		switch c := source[i]; {
		case c == '\\' && i+1 < len(source) && util.IsPunct(source[i+1]):
			z.RawWrite(w, source[start:i])
			start = i + 1
			i++ // the escaped character is literal, even '&'
		case c == '&':
			end := entityEnd(source, i)
			if end < 0 {
				continue
			}
			ref := source[i:end]
			resolved := util.ResolveNumericReferences(util.ResolveEntityNames(ref))
			if bytes.Equal(resolved, ref) {
				continue
			}
			z.RawWrite(w, source[start:i])
			z.RawWrite(w, resolved)
			start = end
			i = end - 1
		}
	}
	z.RawWrite(w, source[start:])
}

// entityEnd is the end of an entity reference starting at source[i] ('&'),
// or -1.
func entityEnd(source []byte, i int) int {
	for j := i + 1; j < len(source) && j < i+34; j++ {
		c := source[j]
		if c == ';' {
			if j == i+1 {
				return -1
			}
			return j + 1
		}
		if !util.IsAlphaNumeric(c) && c != '#' {
			return -1
		}
	}
	return -1
}

// normalizeLink decides whether a destination may become a link and how
// its href reads. Allowed: http(s) with a host, mailto, this server's
// uploads (/user_uploads/…) and narrow links (#narrow/…). As in Zulip, an
// address without a scheme is taken as http://, or mailto: if it holds an
// '@'. Everything else (javascript:, data:, other relative paths) is not a
// link.
func normalizeLink(dest string) (string, bool) {
	dest = strings.ReplaceAll(strings.TrimSpace(dest), " ", "%20")
	switch {
	case dest == "":
		return "", false
	case strings.HasPrefix(dest, "/user_uploads/"), strings.HasPrefix(dest, "#narrow/"), strings.HasPrefix(dest, "/#narrow/"):
		return dest, !strings.ContainsAny(dest, "\\\x00\n\t")
	case strings.HasPrefix(dest, "/"), strings.HasPrefix(dest, "#"):
		return "", false
	}
	scheme, rest, hasScheme := strings.Cut(dest, ":")
	if !hasScheme || !isScheme(scheme) {
		if hostPart, _, _ := strings.Cut(dest, "/"); strings.Contains(hostPart, "@") {
			return normalizeLink("mailto:" + dest)
		}
		return normalizeLink("http://" + dest)
	}
	// Schemes are case-insensitive; the href gets the canonical lower case.
	scheme = strings.ToLower(scheme)
	dest = scheme + ":" + rest
	switch scheme {
	case "http", "https":
		u, err := url.Parse(dest)
		if err != nil || u.Host == "" || !strings.HasPrefix(rest, "//") {
			return "", false
		}
		return dest, true
	case "mailto":
		if _, err := url.Parse(dest); err != nil || rest == "" {
			return "", false
		}
		return dest, true
	}
	return "", false
}

func isScheme(s string) bool {
	if s == "" || !util.IsAlphaNumeric(s[0]) || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !util.IsAlphaNumeric(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// checkLink applies normalizeLink to a markdown link or image n, a child
// of parent, and returns the node after it (the first of its children
// when it is taken apart, so that an image among them is checked too). A
// link that may not be made stays its markdown source, as in Zulip;
// ![alt](url) is "!" and a link, since Zulip has no image syntax; a link
// without text shows its address. The prose walk calls it for each
// node's children before it joins their text.
func checkLink(parent, n ast.Node, source []byte) ast.Node {
	var dest []byte
	if img, ok := n.(*ast.Image); ok {
		dest = img.Destination
		parent.InsertBefore(parent, n, rawString("!"))
	} else {
		dest = n.(*ast.Link).Destination
	}
	href, ok := normalizeLink(string(dest))
	if !ok {
		open := rawString("[")
		parent.InsertBefore(parent, n, open)
		moveChildrenBefore(n, parent)
		parent.InsertBefore(parent, n, rawString("]("+string(dest)+")"))
		parent.RemoveChild(parent, n)
		return open.NextSibling()
	}
	link := ast.NewLink()
	link.Destination = []byte(href)
	if blankText(n, source) {
		link.AppendChild(link, rawString(href))
	} else {
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			link.AppendChild(link, c)
			c = next
		}
	}
	parent.ReplaceChild(parent, n, link)
	return link.NextSibling()
}

// rawString is literal text, escaped when written.
func rawString(s string) *ast.String {
	str := ast.NewString([]byte(s))
	str.SetRaw(true)
	return str
}

func moveChildrenBefore(n, parent ast.Node) {
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
}

// blankText tells whether a link's text is empty or only spaces.
func blankText(n ast.Node, source []byte) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok || len(bytes.TrimSpace(t.Value(source))) != 0 {
			return false
		}
	}
	return true
}

// linkRenderer writes links normalized by checkLink: an href
// and nothing else (no title or target, as in Zulip).
type linkRenderer struct{}

func (linkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<a href="` + escapeAttr(string(node.(*ast.Link).Destination)) + `">`)
		} else {
			_, _ = w.WriteString("</a>")
		}
		return ast.WalkContinue, nil
	})
}
