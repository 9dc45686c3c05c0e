package markdown

import (
	"slices"
	"strings"
)

// topicSplitters end the words in which topics are searched for URLs, as
// in Zulip.
const topicSplitters = " !;),'\""

// TopicLinks finds links in a topic as Zulip does: linkifier matches
// (earlier linkifiers first), then bare URLs (www. names become https://
// links); a match overlapping one taken before is dropped. The result is
// in order of position, and never nil.
func (r *Renderer) TopicLinks(topic string, links *Linkifiers) []TopicLink {
	var matches []match
	if links != nil {
		for _, l := range links.list {
			matches = append(matches, l.find(topic, ' ')...)
		}
	}
	for pos := 0; pos < len(topic); {
		end := strings.IndexAny(topic[pos:], topicSplitters)
		if end < 0 {
			end = len(topic)
		} else {
			end += pos
		}
		if m, ok := topicURL(topic, pos, end); ok {
			matches = append(matches, m)
		}
		pos = end + 1
	}
	var applied []match
	for _, m := range matches {
		if !overlaps(applied, m) {
			applied = append(applied, m)
		}
	}
	slices.SortStableFunc(applied, func(a, b match) int { return a.start - b.start })
	out := make([]TopicLink, 0, len(applied))
	for _, m := range applied {
		out = append(out, TopicLink{Text: topic[m.start:m.end], URL: m.url})
	}
	return out
}

// topicURL finds the first URL in topic[start:end]: at its start, or after
// ( : < or whitespace.
func topicURL(topic string, start, end int) (match, bool) {
	word := topic[start:end]
	for i := 0; i < len(word); i++ {
		if i > 0 && !strings.ContainsRune("(:<\t\n", rune(word[i-1])) {
			continue
		}
		candidate, ok := urlCandidate(word[i:])
		if !ok {
			continue
		}
		n, kind := scanURL(candidate)
		if n == 0 || kind == urlEmail {
			continue
		}
		url := word[i : i+n]
		if kind == urlWWW {
			url = "https://" + url
		}
		return match{start: start + i, end: start + i + n, url: url}, true
	}
	return match{}, false
}
