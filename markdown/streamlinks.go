package markdown

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// streamLinkNode is #**stream**, #**stream>topic** or #**stream>topic@id**.
type streamLinkNode struct {
	ast.BaseInline
	Stream    Stream
	Topic     string
	HasTopic  bool
	MessageID int64
	// With is a message of the linked topic: the link follows it when the
	// topic moves (Zulip's with operator, level 347).
	With int64
}

// kindStreamLink is the node kind of stream links.
var kindStreamLink = ast.NewNodeKind("StreamLink")

func (n *streamLinkNode) Kind() ast.NodeKind            { return kindStreamLink }
func (n *streamLinkNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type streamLinkParser struct{}

func (*streamLinkParser) Trigger() []byte { return []byte{'#'} }

// Parse links only to streams the sender may see; others stay text. Like
// Zulip it tries, in turn, a message link, a topic link (the stream name
// ends at the first '>') and a stream whose name is everything.
func (*streamLinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	e := envOf(pc)
	// A link cannot hold another link.
	if e.lookup == nil || pc.IsInLinkLabel() || !mentionBoundary(block.PrecendingCharacter()) {
		return nil
	}
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("#**")) {
		return nil
	}
	end := bytes.IndexByte(line[3:], '*')
	if end <= 0 || !bytes.HasPrefix(line[3+end:], []byte("**")) {
		return nil
	}
	inside := string(line[3 : 3+end])
	if strings.ContainsRune(inside, '\n') {
		return nil
	}
	n := resolveStreamLink(e.lookup, inside)
	if n == nil {
		return nil
	}
	block.Advance(3 + end + 2)
	return n
}

func resolveStreamLink(lookup Lookup, inside string) *streamLinkNode {
	// The topic may be empty, as may a message link's (level 346).
	if name, topic, ok := strings.Cut(inside, ">"); ok && name != "" {
		if st, found := lookup.StreamByName(name); found {
			n := &streamLinkNode{Stream: st, Topic: topic, HasTopic: true}
			if at := strings.LastIndexByte(topic, '@'); at >= 0 && isDigits(topic[at+1:]) {
				if id, err := strconv.ParseInt(topic[at+1:], 10, 64); err == nil {
					n.Topic, n.MessageID = topic[:at], id
				}
			}
			if n.MessageID == 0 {
				n.With, _ = lookup.LatestInTopic(st.ID, n.Topic)
			}
			return n
		}
	}
	if st, found := lookup.StreamByName(inside); found {
		return &streamLinkNode{Stream: st}
	}
	return nil
}

// narrowPart encodes a stream or topic for a #narrow URL as Zulip does:
// percent-encode all but letters, digits and _-~*, write "." as ".2E",
// then turn '%' into '.'.
func narrowPart(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-~*", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('.')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// href is the link's #narrow address; a stream's spaces become dashes.
func (n *streamLinkNode) href() string {
	h := "/#narrow/channel/" + strconv.FormatInt(n.Stream.ID, 10) + "-" + narrowPart(strings.ReplaceAll(n.Stream.Name, " ", "-"))
	if n.HasTopic {
		h += "/topic/" + narrowPart(n.Topic)
	}
	if n.MessageID != 0 {
		h += "/near/" + strconv.FormatInt(n.MessageID, 10)
	}
	if n.With != 0 {
		h += "/with/" + strconv.FormatInt(n.With, 10)
	}
	return h
}

// emptyTopicName is how a link shows the empty topic, as Zulip's
// EMPTY_TOPIC_FALLBACK_NAME.
const emptyTopicName = "general chat"

// topicText is a link's topic as HTML: the empty topic's name in italics.
func topicText(topic string) string {
	if topic == "" {
		return "<em>" + emptyTopicName + "</em>"
	}
	return escapeText(topic)
}

type streamLinkRenderer struct{}

func (streamLinkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindStreamLink, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*streamLinkNode)
		id := strconv.FormatInt(n.Stream.ID, 10)
		href := escapeAttr(n.href())
		name := escapeText(n.Stream.Name)
		switch {
		case n.MessageID != 0:
			_, _ = w.WriteString(`<a class="message-link" href="` + href + `">#` + name + " &gt; " + topicText(n.Topic) + " @ 💬</a>")
		case n.HasTopic:
			_, _ = w.WriteString(`<a class="stream-topic" data-stream-id="` + id + `" href="` + href + `">#` + name + " &gt; " + topicText(n.Topic) + "</a>")
		default:
			_, _ = w.WriteString(`<a class="stream" data-stream-id="` + id + `" href="` + href + `">#` + name + "</a>")
		}
		return ast.WalkSkipChildren, nil
	})
}
