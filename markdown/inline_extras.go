package markdown

import (
	"bytes"
	"strconv"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Math is $$TeX$$ (inline) or $$$TeX$$$ (display), kept for the client.
type Math struct {
	ast.BaseInline
	TeX     []byte
	Display bool
}

// Time is <time:…>, a moment every reader sees in their own time zone.
type Time struct {
	ast.BaseInline
	Original []byte
	When     time.Time
	Valid    bool
}

// Node kinds of inline math and times.
var (
	KindMath = ast.NewNodeKind("Math")
	KindTime = ast.NewNodeKind("Time")
)

func (n *Math) Kind() ast.NodeKind            { return KindMath }
func (n *Time) Kind() ast.NodeKind            { return KindTime }
func (n *Math) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }
func (n *Time) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type mathParser struct{}

func (*mathParser) Trigger() []byte { return []byte{'$'} }

func (*mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	for _, delim := range []string{"$$$", "$$"} {
		if !bytes.HasPrefix(line, []byte(delim)) {
			continue
		}
		body := line[len(delim):]
		end := bytes.Index(body, []byte(delim))
		if end <= 0 {
			return nil
		}
		block.Advance(2*len(delim) + end)
		return &Math{TeX: bytes.Clone(body[:end]), Display: delim == "$$$"}
	}
	return nil
}

type timeParser struct{}

func (*timeParser) Trigger() []byte { return []byte{'<'} }

// Parse reads <time:ISO 8601> or <time:unix seconds>; anything else inside
// <time:…> is shown as an error, as Zulip does.
func (*timeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("<time:")) {
		return nil
	}
	end := bytes.IndexByte(line, '>')
	if end < 0 {
		return nil
	}
	original := bytes.Clone(line[len("<time:"):end])
	block.Advance(end + 1)
	n := &Time{Original: original}
	s := string(original)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		n.When, n.Valid = t, true
	} else if secs, err := strconv.ParseInt(s, 10, 64); err == nil && secs > -1e11 && secs < 1e11 {
		n.When, n.Valid = time.Unix(secs, 0), true
	}
	return n
}
