package domain

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"lanchat/backend/events"
	"lanchat/backend/store"
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

// ChangeAlertWords adds (add) or removes the actor's alert words and
// returns the new list.
func (s *Service) ChangeAlertWords(actor store.User, words []string, add bool) ([]string, error) {
	var list []string
	err := s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		for _, w := range words {
			w = strings.TrimSpace(w)
			if w == "" || len(w) > 100 {
				return nil, BadRequest("Alert words must be 1 to 100 characters.")
			}
			i := slices.IndexFunc(u.AlertWords, func(x string) bool { return strings.EqualFold(x, w) })
			switch {
			case add && i < 0:
				u.AlertWords = append(u.AlertWords, w)
			case !add && i >= 0:
				u.AlertWords = slices.Delete(u.AlertWords, i, i+1)
			}
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
