package domain

import (
	"slices"
	"strings"
	"sync"

	"lanchat/backend/store"
)

// accountCache keeps accounts by email for authentication: every request
// authenticates, and reading and decoding the account's record in a
// transaction of its own was a fifth of the server's CPU under long-poll
// load. It holds what was read at one store.AccountsVersion and is emptied
// when that changes, so a changed key, role or deactivation counts from the
// moment its write returns.
type accountCache struct {
	mu      sync.RWMutex
	version uint64
	byEmail map[string]store.User // by lower-case, trimmed email
}

func accountCacheKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// get returns the account cached for email at version.
func (c *accountCache) get(version uint64, email string) (store.User, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	u, ok := c.byEmail[accountCacheKey(email)]
	if !ok || c.version != version {
		return store.User{}, false
	}
	u.AlertWords = slices.Clone(u.AlertWords) // callers own what they get
	return u, true
}

// put caches u, read at version (taken before the read began).
func (c *accountCache) put(version uint64, email string, u store.User) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != version {
		if version < c.version {
			return // read before a later write: leave the newer entries
		}
		c.version, c.byEmail = version, nil
	}
	if c.byEmail == nil {
		c.byEmail = map[string]store.User{}
	}
	u.AlertWords = slices.Clone(u.AlertWords)
	c.byEmail[accountCacheKey(email)] = u
}
