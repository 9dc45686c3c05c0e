package store

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTermLength keeps pathological "words" (base64 blobs, long URLs) from
// bloating the index; longer tokens are indexed by their first bytes.
const maxTermLength = 40

// SearchTerms splits text into the distinct lower-case words the full-text
// index holds: runs of letters and digits.
func SearchTerms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := make(map[string]bool, len(words))
	out := words[:0]
	for _, w := range words {
		if len(w) > maxTermLength {
			w = truncateUTF8(w, maxTermLength)
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// SearchIDs returns, ascending, the IDs of messages whose content or topic
// has a word starting with each of the query's words (all of them must
// match). An empty query matches nothing.
func (tx *Tx) SearchIDs(query string) []int64 {
	words := SearchTerms(query)
	if len(words) == 0 {
		return nil
	}
	through := tx.searchIndexedThrough()
	var result []int64
	for i, w := range words {
		ids := tx.prefixIDs(w)
		if i == 0 {
			result = ids
		} else {
			result = intersectSorted(result, ids)
		}
		if len(result) == 0 {
			break
		}
	}
	return append(result, tx.pendingSearchIDs(through, words)...)
}

// prefixIDs unions the postings of every term starting with prefix.
func (tx *Tx) prefixIDs(prefix string) []int64 {
	c := tx.bucket(bucketSearchPostings).Cursor()
	p := []byte(prefix)
	var ids []int64
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		if len(k) >= 9 && k[len(k)-9] == 0 {
			ids = postingIDs(ids, k, v)
		}
	}
	// Each term's postings are sorted, but terms interleave and a message
	// can hold several terms with the prefix.
	slices.Sort(ids)
	return slices.Compact(ids)
}

// pendingSearchIDs finds the query's words in the messages after the
// index's watermark, which the postings do not hold yet.
func (tx *Tx) pendingSearchIDs(through int64, words []string) []int64 {
	var ids []int64
	c := tx.bucket(bucketMessages).Cursor()
	for k, v := c.Seek(itob(through + 1)); k != nil; k, v = c.Next() {
		m, err := decodeMessage(v)
		if err != nil {
			continue // the history walk that reads it reports the record
		}
		if MatchesWords(MessageWords(m), words) {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// MessageWords are the words a search matches in a message: its content's
// and topic's SearchTerms, sorted.
func MessageWords(m Message) []string {
	words := SearchTerms(m.Content + " " + m.Topic)
	slices.Sort(words)
	return words
}

// MatchesWords is the search rule: every query word starts some word of
// the message (its MessageWords).
func MatchesWords(sortedTerms, words []string) bool {
	for _, w := range words {
		i, _ := slices.BinarySearch(sortedTerms, w)
		if i == len(sortedTerms) || !strings.HasPrefix(sortedTerms[i], w) {
			return false
		}
	}
	return true
}

func intersectSorted(a, b []int64) []int64 {
	out := a[:0:0]
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
