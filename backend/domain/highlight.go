package domain

import (
	"html"
	"strings"
	"unicode"
)

func htmlEscape(s string) string { return html.EscapeString(s) }

// highlight wraps each word of an HTML fragment's text that starts with one
// of the search words in <span class="highlight">, as Zulip's match_content
// does. Tags and character references are copied untouched.
func highlight(fragment string, words []string) string {
	var b strings.Builder
	runes := []rune(fragment)
	for i := 0; i < len(runes); {
		switch r := runes[i]; {
		case r == '<' || r == '&':
			end := '>'
			if r == '&' {
				end = ';'
			}
			j := i
			for j < len(runes) && runes[j] != end {
				j++
			}
			j = min(j+1, len(runes))
			b.WriteString(string(runes[i:j]))
			i = j
		case isWordRune(r):
			j := i
			for j < len(runes) && isWordRune(runes[j]) {
				j++
			}
			word := string(runes[i:j])
			if matchesAny(strings.ToLower(word), words) {
				b.WriteString(`<span class="highlight">` + word + `</span>`)
			} else {
				b.WriteString(word)
			}
			i = j
		default:
			b.WriteRune(r)
			i++
		}
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func matchesAny(word string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(word, p) {
			return true
		}
	}
	return false
}
