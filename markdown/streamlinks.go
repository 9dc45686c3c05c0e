package markdown

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// StreamLink is #**stream**, #**stream>topic** or #**stream>topic@id**.
type StreamLink struct {
	ast.BaseInline
	Stream    Stream
	Topic     string
	HasTopic  bool
	MessageID int64
}

// KindStreamLink is the node kind of stream links.
var KindStreamLink = ast.NewNodeKind("StreamLink")

func (n *StreamLink) Kind() ast.NodeKind { return KindStreamLink }

func (n *StreamLink) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type streamLinkParser struct{}

func (*streamLinkParser) Trigger() []byte { return []byte{'#'} }

// Parse links only to streams the sender may see; others stay text.
func (*streamLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("#**")) {
		return nil
	}
	end := bytes.Index(line[3:], []byte("**"))
	e := envOf(pc)
	if end <= 0 || e.lookup == nil {
		return nil
	}
	inside := string(line[3 : 3+end])
	name, topic, hasTopic := strings.Cut(inside, ">")
	st, ok := e.lookup.StreamByName(name)
	if !ok {
		return nil
	}
	n := &StreamLink{Stream: st, Topic: topic, HasTopic: hasTopic}
	if hasTopic {
		if at := strings.LastIndexByte(topic, '@'); at >= 0 {
			if id, err := strconv.ParseInt(topic[at+1:], 10, 64); err == nil && id > 0 {
				n.Topic, n.MessageID = topic[:at], id
			}
		}
	}
	block.Advance(3 + end + 2)
	return n
}

// narrowPart encodes a stream or topic for a #narrow URL as Zulip does:
// percent-encode, then turn % into '.'.
func narrowPart(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), "%", ".")
}

// href is the link's #narrow address.
func (n *StreamLink) href() string {
	h := "/#narrow/channel/" + strconv.FormatInt(n.Stream.ID, 10) + "-" + narrowPart(n.Stream.Name)
	if n.HasTopic {
		h += "/topic/" + narrowPart(n.Topic)
	}
	if n.MessageID != 0 {
		h += "/near/" + strconv.FormatInt(n.MessageID, 10)
	}
	return h
}
