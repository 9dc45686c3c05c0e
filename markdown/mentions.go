package markdown

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Mention is @**Name**, @**Name|id**, @_**Name** (silent), a wildcard or
// @*group* / @_*group*.
type Mention struct {
	ast.BaseInline
	Silent   bool
	UserID   int64  // a user mention
	GroupID  int64  // a group mention
	Wildcard string // "all", "everyone", "stream", "channel" or "topic"
	Name     string // as shown
}

// KindMention is the node kind of mentions.
var KindMention = ast.NewNodeKind("Mention")

func (n *Mention) Kind() ast.NodeKind { return KindMention }

func (n *Mention) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

var streamWildcards = map[string]bool{"all": true, "everyone": true, "stream": true, "channel": true}

type mentionParser struct{}

func (*mentionParser) Trigger() []byte { return []byte{'@'} }

// Parse reads @**…** and @*…*; anything that names nobody stays text.
func (*mentionParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	rest := line[1:]
	silent := bytes.HasPrefix(rest, []byte("_"))
	if silent {
		rest = rest[1:]
	}
	e := envOf(pc)
	var n *Mention
	var consumed int
	switch {
	case bytes.HasPrefix(rest, []byte("**")):
		end := bytes.Index(rest[2:], []byte("**"))
		if end <= 0 {
			return nil
		}
		n = resolveUser(e, string(rest[2:2+end]))
		consumed = 2 + end + 2
	case bytes.HasPrefix(rest, []byte("*")):
		end := bytes.IndexByte(rest[1:], '*')
		if end <= 0 || e.lookup == nil {
			return nil
		}
		g, ok := e.lookup.GroupByName(string(rest[1 : 1+end]))
		if !ok {
			return nil
		}
		n = &Mention{GroupID: g.ID, Name: g.Name}
		consumed = 1 + end + 1
	default:
		return nil
	}
	if n == nil {
		return nil
	}
	n.Silent = n.Silent || silent
	total := 1 + consumed
	if silent {
		total++
	}
	block.Advance(total)
	return n
}

// resolveUser resolves the inside of @**…**: a wildcard, Name|id, or a full
// name. Deactivated users render silent.
func resolveUser(e *env, inside string) *Mention {
	if streamWildcards[inside] || inside == "topic" {
		return &Mention{Wildcard: inside, Name: inside}
	}
	if e.lookup == nil || strings.ContainsAny(inside, "\n") {
		return nil
	}
	if _, idText, ok := strings.Cut(inside, "|"); ok {
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			return nil
		}
		u, found := e.lookup.UserByID(id)
		if !found {
			return nil
		}
		return &Mention{UserID: u.ID, Name: u.FullName, Silent: !u.Active}
	}
	u, found := e.lookup.UserByName(inside)
	if !found {
		return nil
	}
	return &Mention{UserID: u.ID, Name: u.FullName, Silent: !u.Active}
}

// quoteSilencer makes mentions inside quotes silent, as Zulip does: quoting
// someone's message must not notify again.
type quoteSilencer struct{}

func (*quoteSilencer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if m, ok := n.(*Mention); ok && entering && insideQuote(m) {
			m.Silent = true
		}
		return ast.WalkContinue, nil
	})
}

func insideQuote(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindBlockquote || p.Kind() == KindQuoteBlock {
			return true
		}
	}
	return false
}
