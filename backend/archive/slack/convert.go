package slack

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// names resolves the IDs Slack's messages mention.
type names struct {
	users    map[string]string // user ID → full name
	channels map[string]string // channel ID → name
}

// convert turns a message in Slack's dialect ("mrkdwn") into Zulip's
// markdown: *bold*, ~strike~ and _italic_ become **bold**, ~~strike~~ and
// *italic*; <@U1>, <#C1|name>, <!here> and <url|label> become mentions and
// links; &lt; &gt; &amp; become the characters they escape.
func convert(text string, n names) string {
	text = emphasize(text, '*', "**", "_~")
	text = emphasize(text, '~', "~~", "*_")
	text = emphasize(text, '_', "*", "*~)")
	return entities(text, n)
}

// Around an emphasis marker: what may come before it (besides the start of
// the text, white space and the other markers) and after it (besides the
// end). Slack formats whole words only, so "mid*word*" stays as it is.
const (
	beforeMarker = `!"#$%&'(+,-./:;<=>?[{|^`
	afterMarker  = `!"#$%&'+,-./:;<=>?)]}|^`
)

// emphasize rewrites each span marker…marker on one line, outside code
// and <…> entities, into repl…repl. others are the characters besides the
// common ones that may stand before or after the marker.
func emphasize(text string, marker byte, repl, others string) string {
	if strings.IndexByte(text, marker) < 0 {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if skip := opaqueEnd(text, i); skip > i {
			b.WriteString(text[i:skip])
			i = skip
			continue
		}
		if text[i] == marker && markerOpens(text, i, others) {
			if j := closingMarker(text, i+1, marker); j > i+1 && markerCloses(text, j, others) {
				b.WriteString(repl)
				b.WriteString(text[i+1 : j])
				b.WriteString(repl)
				i = j + 1
				continue
			}
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

func markerOpens(text string, i int, others string) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || strings.ContainsRune(beforeMarker, r) || strings.ContainsRune(others, r)
}

func markerCloses(text string, j int, others string) bool {
	if j+1 == len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[j+1:])
	return unicode.IsSpace(r) || strings.ContainsRune(afterMarker, r) || strings.ContainsRune(others, r)
}

// closingMarker finds the marker ending a span that starts at i, on the
// same line and outside code and entities; -1 when there is none.
func closingMarker(text string, i int, marker byte) int {
	for i < len(text) {
		if skip := opaqueEnd(text, i); skip > i {
			i = skip
			continue
		}
		switch text[i] {
		case marker:
			return i
		case '\n':
			return -1
		}
		i++
	}
	return -1
}

// opaqueEnd is the end of the code span or <…> entity starting at i, or i
// when none starts there. Formatting never applies inside them.
func opaqueEnd(text string, i int) int {
	switch text[i] {
	case '<':
		if j := strings.IndexAny(text[i+1:], "<>\n"); j >= 0 && text[i+1+j] == '>' {
			return i + 1 + j + 1
		}
	case '`':
		fence := "`"
		if strings.HasPrefix(text[i:], "```") {
			fence = "```"
		}
		if j := strings.Index(text[i+len(fence):], fence); j >= 0 {
			return i + len(fence) + j + len(fence)
		}
	}
	return i
}

// entities rewrites Slack's <…> entities and unescapes &lt; &gt; &amp;.
func entities(text string, n names) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		switch {
		case text[i] == '<':
			end := opaqueEnd(text, i)
			if end == i {
				b.WriteByte('<')
				i++
				continue
			}
			b.WriteString(entity(unescape(text[i+1:end-1]), n))
			i = end
		case text[i] == '&':
			k := strings.IndexAny(text[i+1:], ";<& \n") + 1
			if k > 0 && text[i+k] == ';' {
				if r, ok := escapes[text[i:i+k+1]]; ok {
					b.WriteString(r)
					i += k + 1
					continue
				}
			}
			b.WriteByte('&')
			i++
		default:
			j := strings.IndexAny(text[i:], "<&")
			if j < 0 {
				j = len(text) - i
			}
			b.WriteString(text[i : i+j])
			i += j
		}
	}
	return b.String()
}

var escapes = map[string]string{"&lt;": "<", "&gt;": ">", "&amp;": "&"}

func unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// entity is one <target|label> in Zulip's markdown.
func entity(inner string, n names) string {
	target, label, _ := strings.Cut(inner, "|")
	switch {
	case strings.HasPrefix(target, "@"):
		if name, ok := n.users[target[1:]]; ok {
			return "@**" + name + "**"
		}
		return "@" + strings.TrimPrefix(cmp.Or(label, target[1:]), "@")
	case strings.HasPrefix(target, "#"):
		name, ok := n.channels[target[1:]]
		if !ok {
			name = cmp.Or(label, target[1:])
		}
		return "#**" + name + "**"
	case strings.HasPrefix(target, "!"):
		switch target {
		case "!everyone", "!channel", "!here":
			return "@**all**"
		}
		return label
	case strings.Contains(target, ":"):
		if label == "" || label == target || label == strings.TrimPrefix(target, "mailto:") ||
			strings.TrimSuffix(label, "/") == strings.TrimSuffix(stripScheme(target), "/") {
			return target
		}
		return "[" + strings.ReplaceAll(label, "]", `\]`) + "](" + parens.Replace(target) + ")"
	}
	return "<" + inner + ">"
}

// parens are escaped in a link's URL, where ")" would end it.
var parens = strings.NewReplacer("(", "%28", ")", "%29")

func stripScheme(url string) string {
	if _, rest, ok := strings.Cut(url, "://"); ok {
		return rest
	}
	return url
}
