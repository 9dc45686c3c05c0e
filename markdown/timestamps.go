package markdown

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// timeNode is <time:…>, a moment every reader sees in their own time zone.
type timeNode struct {
	ast.BaseInline
	Original string
	When     time.Time
	Valid    bool
}

// kindTime is the node kind of times.
var kindTime = ast.NewNodeKind("Time")

func (n *timeNode) Kind() ast.NodeKind            { return kindTime }
func (n *timeNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// maxTimeBytes bounds the search for the closing '>', so a run of
// unclosed "<time:" stays linear; real times are far shorter.
const maxTimeBytes = 256

type timeParser struct{}

func (*timeParser) Trigger() []byte { return []byte{'<'} }

// Parse reads <time:…> up to the first '>'. What cannot be read as a time
// is shown as an error, as Zulip does.
func (*timeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("<time:")) {
		return nil
	}
	end := bytes.IndexByte(line[:min(len(line), maxTimeBytes)], '>')
	if end < 0 || bytes.IndexByte(line[:end], '\n') >= 0 {
		return nil
	}
	block.Advance(end + 1)
	n := &timeNode{Original: string(line[len("<time:"):end])}
	n.When, n.Valid = parseTime(n.Original)
	return n
}

// isoLayouts and naturalLayouts are tried in order; times without a zone
// are UTC, as in Zulip. Natural layouts take short or long month names.
var (
	isoLayouts = []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05Z0700",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04",
		"2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04:05",
		"2006-01-02 15:04",
		"2006-01-02",
	}
	naturalLayouts = []string{
		"Jan 2 2006 3:04PM", "Jan 2 2006 3:04 PM", "Jan 2 2006 15:04", "Jan 2 2006",
		"2 Jan 2006 3:04PM", "2 Jan 2006 3:04 PM", "2 Jan 2006 15:04", "2 Jan 2006",
	}
)

// ordinal matches day suffixes ("5th") and commas, which the natural
// layouts do without.
var ordinal = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)\b|,`)

// parseTime reads ISO 8601, a few natural forms ("Jun 5th 2017, 10:30PM",
// "31 Dec 2017") and Unix seconds.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	natural := strings.Join(strings.Fields(ordinal.ReplaceAllString(s, "$1")), " ")
	natural = strings.NewReplacer("am", "AM", "pm", "PM").Replace(natural)
	for _, layout := range naturalLayouts {
		for _, l := range []string{layout, strings.Replace(layout, "Jan", "January", 1)} {
			if t, err := time.Parse(l, natural); err == nil {
				return t.UTC(), true
			}
		}
	}
	secs, err := strconv.ParseFloat(s, 64)
	// Python's datetime covers years 1 to 9999.
	if err != nil || math.IsNaN(secs) || secs < -62135596800 || secs > 253402300799 {
		return time.Time{}, false
	}
	whole, frac := math.Modf(secs)
	return time.Unix(int64(whole), int64(math.Round(frac*1e6))*1000).UTC(), true
}

// isoTime writes t as Python's isoformat() does in Zulip: microseconds
// only when there are any, and Z for UTC.
func isoTime(t time.Time) string {
	if t.Nanosecond()/1000 != 0 {
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	return t.Format("2006-01-02T15:04:05Z")
}

type timeRenderer struct{}

func (timeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTime, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*timeNode)
		if n.Valid {
			_, _ = w.WriteString(`<time datetime="` + isoTime(n.When) + `">` + escapeText(n.Original) + "</time>")
		} else {
			_, _ = w.WriteString(`<span class="timestamp-error">Invalid time format: ` + escapeText(n.Original) + "</span>")
		}
		return ast.WalkSkipChildren, nil
	})
}
