package markdown

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"lanchat/assets"
)

// emojiNode is a Unicode emoji (Code set) or a custom one (Custom set), written
// as :name: or typed as the character itself.
type emojiNode struct {
	ast.BaseInline
	Name   string
	Code   string
	Custom *CustomEmoji
}

// kindEmoji is the node kind of emoji.
var kindEmoji = ast.NewNodeKind("Emoji")

func (n *emojiNode) Kind() ast.NodeKind            { return kindEmoji }
func (n *emojiNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// maxEmojiName bounds the scan for a closing ':'.
const maxEmojiName = 100

type emojiParser struct{}

func (*emojiParser) Trigger() []byte { return []byte{':'} }

func isEmojiNameByte(b byte) bool {
	return util.IsAlphaNumeric(b) || b == '_' || b == '-' || b == '+'
}

// Parse reads :name:. Custom emoji take precedence over Unicode names, as
// in Zulip; unknown names stay text.
func (*emojiParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	end := 1
	for end < len(line) && end <= maxEmojiName && isEmojiNameByte(line[end]) {
		end++
	}
	if end == 1 || end >= len(line) || line[end] != ':' {
		return nil
	}
	name := string(line[1:end])
	if lookup := envOf(pc).lookup; lookup != nil {
		if c, ok := lookup.CustomEmoji(name); ok {
			block.Advance(end + 1)
			return &emojiNode{Name: name, Custom: &c}
		}
	}
	u, ok := assets.EmojiByName(name)
	if !ok {
		return nil
	}
	block.Advance(end + 1)
	return &emojiNode{Name: name, Code: u.Code}
}

// splitEmoji replaces t by text and Emoji nodes around each known emoji in
// it; unknown sequences stay text whole.
func splitEmoji(t *ast.Text, source []byte) {
	value := t.Segment.Value(source)
	// Every emoji has a byte past ASCII (a keycap's FE0F at least), and
	// most text has none: one scan finds the first such byte, and the walk
	// starts a byte before it, where a keycap's character would be.
	first := indexNonASCII(value)
	if first < 0 {
		return
	}
	var pieces []textPiece
	for i := max(first-1, 0); i < len(value); {
		// ASCII emoji (keycaps) need FE0F, which is tested first: most
		// text is ASCII, and the table lookup costs more than the bytes.
		size := 1
		if c := value[i]; c < utf8.RuneSelf {
			if !bytes.HasPrefix(value[i+1:], []byte("\uFE0F")) || !assets.MayStartEmoji(rune(c)) {
				i++
				continue
			}
		} else {
			var r rune
			r, size = utf8.DecodeRune(value[i:])
			if !assets.MayStartEmoji(r) {
				i += size
				continue
			}
		}
		e, n, ok := assets.EmojiAt(string(value[i:min(len(value), i+maxEmojiBytes)]))
		if n == 0 {
			i += size
			continue
		}
		if ok {
			pieces = append(pieces, textPiece{start: i, end: i + n, node: &emojiNode{Name: e.Name, Code: e.Code}})
		}
		i += n
	}
	replacePieces(t, pieces)
}

// indexNonASCII is the index of the first byte of b past ASCII, or -1.
func indexNonASCII(b []byte) int {
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// maxEmojiBytes is more than the longest emoji sequence (family and flag
// sequences run to about 35 bytes).
const maxEmojiBytes = 64

type emojiRenderer struct{}

func (emojiRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindEmoji, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*emojiNode)
		title := escapeAttr(strings.ReplaceAll(n.Name, "_", " "))
		if n.Custom != nil {
			_, _ = w.WriteString(`<img alt=":` + escapeAttr(n.Name) + `:" class="emoji" src="` + escapeAttr(n.Custom.SourceURL) + `" title="` + title + `">`)
		} else {
			_, _ = w.WriteString(`<span aria-label="` + title + `" class="emoji emoji-` + escapeAttr(n.Code) + `" role="img" title="` + title + `">:` + escapeText(n.Name) + ":</span>")
		}
		return ast.WalkSkipChildren, nil
	})
}
