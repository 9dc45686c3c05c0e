package markdown

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// mentionNode is @**Name**, @**Name|id**, @**|id**, @_**Name** (silent), a
// wildcard, or @*group* / @_*group*.
type mentionNode struct {
	ast.BaseInline
	Silent   bool
	UserID   int64  // a user mention
	GroupID  int64  // a group mention
	Wildcard string // "all", "everyone", "stream", "channel" or "topic"
	Name     string // as shown
}

// kindMention is the node kind of mentions.
var kindMention = ast.NewNodeKind("Mention")

func (n *mentionNode) Kind() ast.NodeKind            { return kindMention }
func (n *mentionNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

var streamWildcards = map[string]bool{"all": true, "everyone": true, "stream": true, "channel": true}

// mentionBoundary tells whether a mention or stream link may follow r:
// Zulip's rule is the start, whitespace, or one of ' " ( { [ / <.
func mentionBoundary(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`'"({[/<`, r) }

type mentionParser struct{}

func (*mentionParser) Trigger() []byte { return []byte{'@'} }

// Parse reads @**…** and @*…*; anything that names nobody stays text (and
// may still be bold or italic).
func (*mentionParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	e := envOf(pc)
	if e.lookup == nil || !mentionBoundary(block.PrecendingCharacter()) {
		return nil
	}
	line, _ := block.PeekLine()
	rest := line[1:]
	silent := bytes.HasPrefix(rest, []byte("_"))
	if silent {
		rest = rest[1:]
	}
	stars := 1
	if bytes.HasPrefix(rest, []byte("**")) {
		stars = 2
	} else if !bytes.HasPrefix(rest, []byte("*")) {
		return nil
	}
	end := bytes.IndexByte(rest[stars:], '*')
	if end <= 0 || !bytes.HasPrefix(rest[stars+end:], []byte("**")[:stars]) {
		return nil
	}
	inside := string(rest[stars : stars+end])
	if strings.ContainsRune(inside, '\n') {
		return nil
	}
	var n *mentionNode
	if stars == 2 {
		n = resolveUser(e.lookup, inside)
	} else if g, ok := e.lookup.GroupByName(inside); ok {
		n = &mentionNode{GroupID: g.ID, Name: g.Name}
	}
	if n == nil {
		return nil
	}
	n.Silent = n.Silent || silent
	block.Advance(len(line) - len(rest) + 2*stars + end)
	return n
}

// resolveUser resolves the inside of @**…**: a wildcard, Name|id (the name
// must be the user's exact full name), |id, or a full name. Deactivated
// users render silent.
func resolveUser(lookup Lookup, inside string) *mentionNode {
	if streamWildcards[inside] || inside == "topic" {
		return &mentionNode{Wildcard: inside, Name: inside}
	}
	var u User
	var found bool
	if name, idText, ok := strings.Cut(inside, "|"); ok && isDigits(idText) {
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			return nil
		}
		u, found = lookup.UserByID(id)
		if found && name != "" && name != u.FullName {
			return nil
		}
	} else {
		u, found = lookup.UserByName(inside)
	}
	if !found {
		return nil
	}
	return &mentionNode{UserID: u.ID, Name: u.FullName, Silent: !u.Active}
}

func isDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// silenceQuoted makes a mention inside a quote silent, as Zulip does:
// quoting someone's message must not notify anyone again.
func silenceQuoted(m *mentionNode) {
	if insideQuote(m) {
		m.Silent = true
	}
}

func insideQuote(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindBlockquote || p.Kind() == kindQuoteBlock {
			return true
		}
	}
	return false
}

// mentionRenderer writes Zulip's mention spans; silent ones drop the @.
type mentionRenderer struct{}

func (mentionRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMention, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*mentionNode)
		silent, at := "", "@"
		if n.Silent {
			silent, at = " silent", ""
		}
		name := escapeText(n.Name)
		switch {
		case n.Wildcard == "topic":
			_, _ = w.WriteString(`<span class="topic-mention` + silent + `">` + at + name + "</span>")
		case n.Wildcard != "":
			_, _ = w.WriteString(`<span class="user-mention channel-wildcard-mention` + silent + `" data-user-id="*">` + at + name + "</span>")
		case n.GroupID != 0:
			_, _ = w.WriteString(`<span class="user-group-mention` + silent + `" data-user-group-id="` + strconv.FormatInt(n.GroupID, 10) + `">` + at + name + "</span>")
		default:
			_, _ = w.WriteString(`<span class="user-mention` + silent + `" data-user-id="` + strconv.FormatInt(n.UserID, 10) + `">` + at + name + "</span>")
		}
		return ast.WalkSkipChildren, nil
	})
}

// BreaksMention tells the characters a name cannot hold and still be
// mentioned as @**Name**: * ` \ > " @ and control characters. Zulip
// refuses them in full names, and so do the API and imports.
func BreaksMention(r rune) bool {
	return strings.ContainsRune("*`\\>\"@", r) || r < ' ' || r == 0x7f
}
