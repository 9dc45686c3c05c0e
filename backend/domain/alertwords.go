package domain

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Alert words are looked for in every message their owner receives, so a
// user's list is bounded.
const (
	MaxAlertWords      = 1000
	MaxAlertWordLength = 100 // characters
)

// alertWordCache keeps every user's alert words in memory: sending checks
// each recipient, and reading their records for every message would cost
// a lookup per subscriber.
type alertWordCache struct {
	mu    sync.RWMutex
	words map[int64][]string // lower case
}

func (c *alertWordCache) load(tx *store.Tx) error {
	users, err := tx.Users()
	if err != nil {
		return err
	}
	words := map[int64][]string{}
	for _, u := range users {
		if len(u.AlertWords) > 0 {
			words[u.ID] = lowerAll(u.AlertWords)
		}
	}
	c.mu.Lock()
	c.words = words
	c.mu.Unlock()
	return nil
}

func (c *alertWordCache) set(userID int64, words []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.words == nil {
		c.words = map[int64][]string{}
	}
	c.words[userID] = lowerAll(words)
}

// alerted lists the recipients whose alert words appear in content as
// whole words, ignoring case.
func (c *alertWordCache) alerted(content string, recipients []int64) map[int64]bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if len(c.words) == 0 {
		return nil
	}
	lower := strings.ToLower(content)
	out := map[int64]bool{}
	for _, uid := range recipients {
		for _, w := range c.words[uid] {
			if containsWord(lower, w) {
				out[uid] = true
				break
			}
		}
	}
	return out
}

// containsWord finds w in s with no letter or digit on either side.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWordByte(s, start-1)) && (end == len(s) || !isWordByte(s, end)) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(s string, i int) bool {
	r := rune(s[i])
	return r >= 0x80 || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func lowerAll(words []string) []string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// AlertWords lists the actor's alert words.
func (s *Service) AlertWords(actor store.User) []string {
	if actor.AlertWords == nil {
		return []string{}
	}
	return actor.AlertWords
}

// AddAlertWords adds words to the actor's alert words (ignoring case, a word
// already there is kept as it is) and returns the new list.
func (s *Service) AddAlertWords(actor store.User, words []string) ([]string, error) {
	return s.changeAlertWords(actor, words, addWords)
}

// RemoveAlertWords removes words, ignoring case, from the actor's alert words
// and returns the new list.
func (s *Service) RemoveAlertWords(actor store.User, words []string) ([]string, error) {
	return s.changeAlertWords(actor, words, removeWords)
}

// checkAlertWord trims an alert word and checks its length.
func checkAlertWord(w string) (string, error) {
	w = strings.TrimSpace(w)
	if w == "" || utf8.RuneCountInString(w) > MaxAlertWordLength {
		return w, BadRequest("Alert words must be 1 to %d characters.", MaxAlertWordLength)
	}
	return w, nil
}

// changeAlertWords checks words, stores change(the actor's list, words) and
// tells the actor's queues.
func (s *Service) changeAlertWords(actor store.User, words []string, change func(have, words []string) []string) ([]string, error) {
	for i, w := range words {
		w, err := checkAlertWord(w)
		if err != nil {
			return nil, err
		}
		words[i] = w
	}
	var list []string
	err := s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		u.AlertWords = change(u.AlertWords, words)
		if len(u.AlertWords) > MaxAlertWords {
			return nil, BadRequest("You can have at most %d alert words.", MaxAlertWords)
		}
		if err := tx.PutUser(u); err != nil {
			return nil, err
		}
		list = s.AlertWords(u)
		e := events.Event{"type": "alert_words", "alert_words": list}
		return func() {
			// Only a committed change reaches the cache.
			s.alertWords.set(u.ID, u.AlertWords)
			s.events.Publish(e, []int64{u.ID})
		}, nil
	})
	return list, internal("alert words", err)
}

// addWords and removeWords change a list of words, ignoring case, in one
// pass over each list: the words already there are looked up in a set, not
// scanned.
func addWords(have, words []string) []string {
	seen := make(map[string]bool, len(have)+len(words))
	for _, w := range have {
		seen[strings.ToLower(w)] = true
	}
	for _, w := range words {
		if key := strings.ToLower(w); !seen[key] {
			seen[key] = true
			have = append(have, w)
		}
	}
	return have
}

func removeWords(have, words []string) []string {
	drop := make(map[string]bool, len(words))
	for _, w := range words {
		drop[strings.ToLower(w)] = true
	}
	return slices.DeleteFunc(have, func(w string) bool { return drop[strings.ToLower(w)] })
}
