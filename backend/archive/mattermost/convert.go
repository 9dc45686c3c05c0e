package mattermost

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mattermost writes CommonMark with GitHub's extensions; Lanchat writes
// Zulip's dialect. They share most of it: what differs is converted here,
// outside code (fenced, indented and inline code stay as written):
//   - @username mentions become @**Full Name**; @all, @channel and @here
//     become Zulip's wildcards (@here, the online members, has none: the
//     channel is the nearest);
//   - ~channel links become #**stream name**;
//   - _emphasis_ and __strong__ become *emphasis* and **strong** (Zulip's
//     underscores never emphasise);
//   - images ![alt](url) (and Mattermost's sized ![alt](url =WxH)) become
//     links: Zulip shows a preview of uploads only, and would print the
//     "!" before the link;
//   - ```latex (or tex) fences become ```math.

// names answers the converter's questions about the export.
type names interface {
	// fullName is a username's full name.
	fullName(username string) (string, bool)
	// streamName is the stream a ~channel of team becomes.
	streamName(team, channel string) (string, bool)
}

// convert turns a Mattermost message of team ("" for a direct message)
// into Zulip markdown.
func convert(text, team string, nm names) string {
	var out strings.Builder
	out.Grow(len(text) + 16)
	fence := ""
	prevBlank, indented := true, false
	for len(text) > 0 {
		ln, rest, nl := strings.Cut(text, "\n")
		text = rest
		switch {
		case fence != "":
			out.WriteString(ln)
			if closesFence(ln, fence) {
				fence = ""
			}
		case opensFence(ln) != "":
			fence = opensFence(ln)
			out.WriteString(mathFence(ln, fence))
		case (prevBlank || indented) && isIndentedCode(ln):
			indented = true
			out.WriteString(ln)
		default:
			indented = false
			inline(&out, ln, team, nm)
		}
		prevBlank = strings.TrimSpace(ln) == ""
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// opensFence is the fence (``` or ~~~, or longer) a line opens, or "".
func opensFence(ln string) string {
	s := trimIndent(ln)
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.Contains(s[n:], "`")) {
		return ""
	}
	return s[:n]
}

func closesFence(ln, fence string) bool {
	s := trimIndent(ln)
	n := 0
	for n < len(s) && s[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(s[n:]) == ""
}

// trimIndent drops the up to three spaces a fence may be indented by.
func trimIndent(ln string) string {
	for i := 0; i < 3 && strings.HasPrefix(ln, " "); i++ {
		ln = ln[1:]
	}
	return ln
}

func isIndentedCode(ln string) bool {
	return strings.HasPrefix(ln, "    ") || strings.HasPrefix(ln, "\t")
}

// mathFence rewrites a fence opening TeX to Zulip's math fence.
func mathFence(ln, fence string) string {
	at := strings.Index(ln, fence) + len(fence)
	info := strings.TrimSpace(ln[at:])
	lang, _, _ := strings.Cut(info, " ")
	if strings.EqualFold(lang, "latex") || strings.EqualFold(lang, "tex") {
		return ln[:at] + "math"
	}
	return ln
}

// wildcards are Mattermost's mentions of many, and their Zulip form.
var wildcards = map[string]string{"all": "@**all**", "channel": "@**channel**", "here": "@**channel**"}

// inline converts one line of text outside code blocks.
func inline(out *strings.Builder, s, team string, nm names) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			// An escaped character stays as it is.
			_, size := utf8.DecodeRuneInString(s[i+1:])
			out.WriteString(s[i : i+1+size])
			i += 1 + size
			continue
		case c == '`':
			n := run(s[i:], '`')
			if end := strings.Index(s[i+n:], s[i:i+n]); end >= 0 {
				end += i + 2*n
				out.WriteString(s[i:end])
				i = end
				continue
			}
			out.WriteString(s[i : i+n])
			i += n
			continue
		case c == '@' && boundary(s, i):
			if repl, n := mention(s[i+1:], nm); n > 0 {
				out.WriteString(repl)
				i += 1 + n
				continue
			}
		case c == '~' && boundary(s, i):
			if repl, n := channelLink(s[i+1:], team, nm); n > 0 {
				out.WriteString(repl)
				i += 1 + n
				continue
			}
		case c == '!' && strings.HasPrefix(s[i+1:], "[") && strings.Contains(s[i+1:], "]("):
			// The link stays, without the image's "!" and the size
			// Mattermost may give it: ![alt](url =200x100).
			i++
			mid := i + strings.Index(s[i:], "](") + 2
			if end := strings.IndexByte(s[mid:], ')'); end >= 0 {
				if dest, size, ok := strings.Cut(s[mid:mid+end], " ="); ok && strings.Trim(size, "0123456789x") == "" {
					out.WriteString(s[i:mid] + dest + ")")
					i = mid + end + 1
				}
			}
			continue
		case c == '_' && boundary(s, i):
			if n := run(s[i:], '_'); n <= 2 {
				if end := closingUnderscores(s, i+n, n); end > 0 {
					stars := "**"[:n]
					out.WriteString(stars)
					inline(out, s[i+n:end], team, nm)
					out.WriteString(stars)
					i = end + n
					continue
				}
				out.WriteString(s[i : i+n])
				i += n
				continue
			}
		}
		out.WriteByte(c)
		i++
	}
}

// run is how many times c repeats at the start of s.
func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// boundary says whether a mention, channel link or emphasis may start at
// s[i]: not inside a word, a URL or an email address.
func boundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("/.@-_~`:=&?#%+\\", r)
}

// closingUnderscores finds where n underscores close emphasis opened just
// before s[from]: not before a space, not inside a word, and with
// something between. It returns 0 when nothing closes it.
func closingUnderscores(s string, from, n int) int {
	if from >= len(s) || s[from] == ' ' || s[from] == '_' {
		return 0
	}
	for j := from + 1; j+n <= len(s); j++ {
		if s[j] != '_' {
			continue
		}
		k := run(s[j:], '_')
		if k == n && s[j-1] != ' ' && !wordAfter(s, j+n) {
			return j
		}
		j += k - 1
	}
	return 0
}

func wordAfter(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

// nameLen is how long the name at the start of s is: ASCII letters and
// digits, and the extra characters Mattermost allows in that kind of name.
func nameLen(s string, extra string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0 {
			n++
			continue
		}
		break
	}
	return n
}

// mention converts the mention at the start of s (after its "@"): the
// longest known username there, less trailing punctuation, as Mattermost
// reads "@ron." as a mention of ron. It returns how much of s it took.
func mention(s string, nm names) (string, int) {
	n := nameLen(s, "._-")
	for ; n > 0; n-- {
		name := strings.ToLower(s[:n])
		if full, ok := nm.fullName(name); ok {
			return "@**" + full + "**", n
		}
		if w, ok := wildcards[name]; ok {
			return w, n
		}
		if !strings.ContainsRune("._-", rune(s[n-1])) {
			break
		}
	}
	return "", 0
}

// channelLink converts the ~channel at the start of s (after its "~").
func channelLink(s, team string, nm names) (string, int) {
	n := nameLen(s, "_-")
	for ; n > 0; n-- {
		if name, ok := nm.streamName(team, strings.ToLower(s[:n])); ok {
			return "#**" + name + "**", n
		}
		if !strings.ContainsRune("_-", rune(s[n-1])) {
			break
		}
	}
	return "", 0
}

// richText writes integrations' message attachments as markdown: the
// pretext, the title (a link when it has one), the text and the fields,
// or the plain-text fallback when there is nothing else.
func richText(atts []richAttachment, team string, nm names) string {
	var parts []string
	for _, a := range atts {
		var lines []string
		add := func(s string) {
			if s = strings.TrimSpace(s); s != "" {
				lines = append(lines, convert(s, team, nm))
			}
		}
		add(a.Pretext)
		switch {
		case a.Title != "" && a.TitleLink != "":
			lines = append(lines, "**["+a.Title+"]("+a.TitleLink+")**")
		case a.Title != "":
			add("**" + a.Title + "**")
		}
		add(a.Text)
		for _, f := range a.Fields {
			if v := strings.TrimSpace(fmt.Sprint(f.Value)); f.Value != nil && v != "" {
				add("**" + f.Title + "**: " + v)
			}
		}
		if len(lines) == 0 {
			add(a.Fallback)
		}
		if len(lines) > 0 {
			parts = append(parts, strings.Join(lines, "\n"))
		}
	}
	return strings.Join(parts, "\n\n")
}
