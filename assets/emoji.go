package assets

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

//go:generate go run ./internal/genemoji -in /tmp/emoji/node_modules/emoji-datasource/emoji.json -out emoji.txt

//go:embed emoji.txt
var emojiTable string

// Emoji is one Unicode emoji: its code in Zulip's form (lower-case hex code
// points joined by "-", without the FE0F variation selector) and its
// canonical name.
type Emoji struct {
	Code string
	Name string
}

var (
	byName      = map[string]Emoji{}
	byCode      = map[string]Emoji{}
	codeNames   = map[string][]string{} // code → its names, canonical first
	bases       = map[rune]bool{}       // code points an emoji element can start with
	textDefault = map[rune]bool{}       // shown as text unless FE0F follows
)

func init() {
	for _, line := range strings.Split(emojiTable, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		code, nameList, _ := strings.Cut(line, "\t")
		aliases := strings.Fields(nameList)
		if len(aliases) == 0 {
			continue
		}
		code, text := strings.CutSuffix(code, "*")
		e := Emoji{Code: code, Name: aliases[0]}
		byCode[code] = e
		for _, n := range aliases {
			if _, taken := byName[n]; !taken {
				byName[n] = e
				codeNames[code] = append(codeNames[code], n)
			}
		}
		for _, element := range strings.Split(code, "-200d-") {
			hex, _, _ := strings.Cut(element, "-")
			if r, err := strconv.ParseUint(hex, 16, 32); err == nil {
				bases[rune(r)] = true
				if text {
					textDefault[rune(r)] = true
				}
			}
		}
	}
}

// EmojiByName finds an emoji by any of its names (":smile:" without colons).
func EmojiByName(name string) (Emoji, bool) {
	e, ok := byName[name]
	return e, ok
}

// EmojiByCode finds an emoji by its code, e.g. "1f642".
func EmojiByCode(code string) (Emoji, bool) {
	e, ok := byCode[code]
	return e, ok
}

// EmojiCodeToNames maps each emoji's code to its names, canonical first.
func EmojiCodeToNames() map[string][]string {
	out := make(map[string][]string, len(codeNames))
	for code, n := range codeNames {
		out[code] = slices.Clone(n)
	}
	return out
}

// MayStartEmoji tells whether an emoji can begin with r, so scanners call
// EmojiAt only where it can find something.
func MayStartEmoji(r rune) bool { return bases[r] || isRegionalIndicator(r) }

const (
	zwj       = 0x200D
	vs16      = 0xFE0F
	keycap    = 0x20E3
	tagCancel = 0xE007F
)

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }
func isModifier(r rune) bool          { return r >= 0x1F3FB && r <= 0x1F3FF }
func isTag(r rune) bool               { return r >= 0xE0020 && r <= 0xE007E }

// EmojiAt reads the emoji sequence at the start of s, as Zulip delimits
// them (Unicode TR51: a flag pair, or elements with an optional modifier,
// FE0F, keycap or tag run, joined by ZWJ). It returns the sequence's length
// in bytes (0 when s does not start with one) and the emoji, if the
// sequence is a known one. An unknown sequence, like a skin-toned emoji
// Zulip has no name for, is left whole as text by callers.
func EmojiAt(s string) (Emoji, int, bool) {
	var code strings.Builder
	i, runes, qualified := 0, 0, false
	for {
		n, ok := element(s[i:], &code, &runes, &qualified)
		if !ok {
			break
		}
		i += n
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != zwj {
			break
		}
		if _, ok := element(s[i+size:], &strings.Builder{}, new(int), new(bool)); !ok {
			break
		}
		code.WriteString("-200d")
		runes++
		i += size
	}
	if i == 0 {
		return Emoji{}, 0, false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if runes == 1 && !qualified && textDefault[first] {
		return Emoji{}, i, false
	}
	e, ok := byCode[code.String()]
	return e, i, ok
}

// element reads one emoji element, appending its code points (without
// FE0F) to code.
func element(s string, code *strings.Builder, runes *int, qualified *bool) (int, bool) {
	r, size := utf8.DecodeRuneInString(s)
	write := func(r rune) {
		if code.Len() > 0 {
			code.WriteByte('-')
		}
		hex := strconv.FormatInt(int64(r), 16)
		if len(hex) < 4 {
			hex = strings.Repeat("0", 4-len(hex)) + hex
		}
		code.WriteString(hex)
		*runes++
	}
	if isRegionalIndicator(r) {
		r2, size2 := utf8.DecodeRuneInString(s[size:])
		if !isRegionalIndicator(r2) {
			return 0, false
		}
		write(r)
		write(r2)
		return size + size2, true
	}
	if !bases[r] {
		return 0, false
	}
	write(r)
	i := size
	next, nsize := utf8.DecodeRuneInString(s[i:])
	switch {
	case isModifier(next):
		write(next)
		i += nsize
	case next == vs16:
		*qualified = true
		i += nsize
		if k, ksize := utf8.DecodeRuneInString(s[i:]); k == keycap {
			write(k)
			i += ksize
		}
	case isTag(next):
		j := i
		for {
			t, tsize := utf8.DecodeRuneInString(s[j:])
			if isTag(t) {
				j += tsize
				continue
			}
			if t == tagCancel {
				for _, t := range s[i : j+tsize] {
					write(t)
				}
				i = j + tsize
			}
			break
		}
	}
	return i, true
}
