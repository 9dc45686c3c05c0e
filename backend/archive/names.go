package archive

import (
	"strings"
	"unicode/utf8"

	"lanchat/markdown"
)

// MaxNameLength is the longest full name Lanchat (and Zulip) accepts.
const MaxNameLength = 100

// CleanName makes a source's display name one Lanchat accepts: the
// characters mention syntax cannot carry (markdown.BreaksMention, the
// API's rule) are dropped, it is cut to MaxNameLength, and an empty name
// falls back to fallback (a user name or an address's local part).
// Readers use it for the names they write into mentions (@**Name**), so
// mentions and accounts agree; the importer applies it to every name the
// API's rule refuses, and says so in the summary.
func CleanName(name, fallback string) string {
	clean := func(s string) string {
		s = strings.TrimSpace(strings.Map(func(r rune) rune {
			if markdown.BreaksMention(r) {
				return -1
			}
			return r
		}, s))
		if utf8.RuneCountInString(s) > MaxNameLength {
			s = strings.TrimSpace(string([]rune(s)[:MaxNameLength]))
		}
		return s
	}
	if s := clean(name); s != "" {
		return s
	}
	return clean(fallback)
}
