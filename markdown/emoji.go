package markdown

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"lanchat/assets"
)

// Emoji is a Unicode emoji (Code set) or a custom one (Custom set), written
// as :name: or typed as the character itself.
type Emoji struct {
	ast.BaseInline
	Name   string
	Code   string
	Custom *CustomEmoji
}

// KindEmoji is the node kind of emoji.
var KindEmoji = ast.NewNodeKind("Emoji")

func (n *Emoji) Kind() ast.NodeKind { return KindEmoji }

func (n *Emoji) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type emojiParser struct{}

func (*emojiParser) Trigger() []byte { return []byte{':'} }

func isEmojiNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '+'
}

// Parse reads :name:. Custom emoji take precedence over Unicode names, as
// in Zulip; unknown names stay text.
func (*emojiParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	end := 1
	for end < len(line) && end <= 100 && isEmojiNameByte(line[end]) {
		end++
	}
	if end == 1 || end >= len(line) || line[end] != ':' {
		return nil
	}
	name := string(line[1:end])
	e := envOf(pc)
	if e.lookup != nil {
		if c, ok := e.lookup.CustomEmoji(name); ok {
			block.Advance(end + 1)
			return &Emoji{Name: name, Custom: &c}
		}
	}
	u, ok := assets.EmojiByName(name)
	if !ok {
		return nil
	}
	block.Advance(end + 1)
	return &Emoji{Name: name, Code: u.Code}
}

// unicodeEmojiTransformer turns emoji characters typed in text into Emoji
// nodes, so they render like :name: does.
type unicodeEmojiTransformer struct{}

func (*unicodeEmojiTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	source := reader.Source()
	texts := proseTexts(doc)
	for _, t := range texts {
		splitEmoji(t, source)
	}
}

// splitEmoji replaces t by text and Emoji nodes around each emoji in it.
func splitEmoji(t *ast.Text, source []byte) {
	seg := t.Segment
	value := seg.Value(source)
	if !bytes.ContainsFunc(value, func(r rune) bool { return r >= 0x2000 }) {
		return
	}
	parent := t.Parent()
	start := 0
	var last ast.Node = t
	changed := false
	for i := 0; i < len(value); {
		r, size := utf8.DecodeRune(value[i:])
		if !assets.MayStartEmoji(r) {
			i += size
			continue
		}
		e, n := assets.EmojiAt(string(value[i:min(len(value), i+64)]))
		if n == 0 {
			i += size
			continue
		}
		if i > start {
			piece := ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Start+i))
			parent.InsertAfter(parent, last, piece)
			last = piece
		}
		node := &Emoji{Name: e.Name, Code: e.Code}
		parent.InsertAfter(parent, last, node)
		last = node
		i += n
		start = i
		changed = true
	}
	if !changed {
		return
	}
	if start < len(value) {
		rest := ast.NewTextSegment(text.NewSegment(seg.Start+start, seg.Stop))
		rest.SetSoftLineBreak(t.SoftLineBreak())
		rest.SetHardLineBreak(t.HardLineBreak())
		parent.InsertAfter(parent, last, rest)
	} else if t.SoftLineBreak() || t.HardLineBreak() {
		// Keep the line break that ended the original text.
		tail := ast.NewTextSegment(text.NewSegment(seg.Stop, seg.Stop))
		tail.SetSoftLineBreak(t.SoftLineBreak())
		tail.SetHardLineBreak(t.HardLineBreak())
		parent.InsertAfter(parent, last, tail)
	}
	parent.RemoveChild(parent, t)
}
