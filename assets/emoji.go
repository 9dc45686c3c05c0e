package assets

import (
	_ "embed"
	"strconv"
	"strings"
	"unicode/utf8"
)

//go:embed emoji.txt
var emojiTable string

// Emoji is one Unicode emoji: its code in Zulip's form (lower-case hex
// code points joined by "-", without the FE0F variation selector) and its
// canonical name.
type Emoji struct {
	Code string
	Name string
}

var (
	byName     = map[string]Emoji{}
	byCode     = map[string]Emoji{}
	bySequence = map[string]Emoji{} // the emoji's characters, with and without FE0F
	names      []string
	starts     = map[rune]bool{} // first runes of every sequence
	maxSeqLen  int
)

func init() {
	for _, line := range strings.Split(emojiTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		codes, nameList, _ := strings.Cut(line, "\t")
		aliases := strings.Fields(nameList)
		if len(aliases) == 0 {
			continue
		}
		e := Emoji{Code: strings.ReplaceAll(strings.ReplaceAll(codes, "-fe0f", ""), "fe0f-", ""), Name: aliases[0]}
		byCode[e.Code] = e
		for _, n := range aliases {
			if _, taken := byName[n]; !taken {
				byName[n] = e
				names = append(names, n)
			}
		}
		seq := sequence(codes)
		for _, s := range []string{seq, strings.ReplaceAll(seq, "\uFE0F", "")} {
			if s == "" {
				continue
			}
			if _, taken := bySequence[s]; !taken {
				bySequence[s] = e
			}
			r, _ := utf8.DecodeRuneInString(s)
			starts[r] = true
			maxSeqLen = max(maxSeqLen, len(s))
		}
	}
}

func sequence(codes string) string {
	var b strings.Builder
	for _, hex := range strings.Split(codes, "-") {
		n, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return ""
		}
		b.WriteRune(rune(n))
	}
	return b.String()
}

// EmojiByName finds an emoji by any of its names (":smile:" without colons).
func EmojiByName(name string) (Emoji, bool) {
	e, ok := byName[name]
	return e, ok
}

// EmojiByCode finds an emoji by its code, e.g. "1f604".
func EmojiByCode(code string) (Emoji, bool) {
	e, ok := byCode[code]
	return e, ok
}

// EmojiNames lists every name, for autocomplete.
func EmojiNames() []string { return names }

// MayStartEmoji tells whether an emoji sequence can begin with r, so
// scanners try EmojiAt only where it can succeed.
func MayStartEmoji(r rune) bool { return starts[r] }

// EmojiAt finds the longest emoji sequence at the start of s, returning it
// and its length in bytes (0 when s does not start with an emoji).
func EmojiAt(s string) (Emoji, int) {
	r, _ := utf8.DecodeRuneInString(s)
	if !starts[r] {
		return Emoji{}, 0
	}
	for n := min(len(s), maxSeqLen); n > 0; n-- {
		if n < len(s) && !utf8.RuneStart(s[n]) {
			continue
		}
		if e, ok := bySequence[s[:n]]; ok {
			// A trailing FE0F belongs to the emoji.
			if strings.HasPrefix(s[n:], "\uFE0F") {
				n += len("\uFE0F")
			}
			return e, n
		}
	}
	return Emoji{}, 0
}
