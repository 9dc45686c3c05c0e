package domain

import (
	"maps"
	"slices"
	"unicode/utf8"

	"lanchat/backend/store"
)

// BotStorageLimit bounds one account's storage, counted in characters of
// every key and value, as Zulip's USER_STATE_SIZE_LIMIT is.
const BotStorageLimit = 10_000_000

// MaxBotStorageKeyLength bounds one key, which is a store key: past bbolt's
// 32 KiB a write failed with a 500. Zulip sets no limit on keys.
const MaxBotStorageKeyLength = 1000

// errNoStorageKey is Zulip's answer when any requested key is absent.
var errNoStorageKey = BadRequest("Key does not exist.")

// storageMap reads an account's whole storage.
func storageMap(tx *store.Tx, userID int64) (map[string]string, error) {
	entries, err := tx.BotStorage(userID)
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		out[e.Key] = e.Value
	}
	return out, err
}

// BotStorage returns the actor's entries for keys, or every entry when keys
// is empty. Bot storage belongs to whichever account calls it, as in Zulip.
func (s *Service) BotStorage(actor store.User, keys []string) (map[string]string, error) {
	var out map[string]string
	err := s.store.View(func(tx *store.Tx) error {
		all, err := storageMap(tx, actor.ID)
		if err != nil || len(keys) == 0 {
			out = all
			return err
		}
		out = make(map[string]string, len(keys))
		for _, k := range keys {
			v, ok := all[k]
			if !ok {
				return errNoStorageKey
			}
			out[k] = v
		}
		return nil
	})
	return out, internal("read bot storage", err)
}

// PutBotStorage sets entries (values must be strings), refusing a change
// that would take the account's storage over the limit.
func (s *Service) PutBotStorage(actor store.User, entries map[string]any) error {
	values := make(map[string]string, len(entries))
	for k, v := range entries {
		if err := checkLength("storage key", k, MaxBotStorageKeyLength); err != nil {
			return err
		}
		text, ok := v.(string)
		if !ok {
			return BadRequest("storage[\"%s\"] is not a string", k)
		}
		values[k] = text
	}
	return internal("write bot storage", s.store.Update(func(tx *store.Tx) error {
		all, err := storageMap(tx, actor.ID)
		if err != nil {
			return err
		}
		maps.Copy(all, values)
		size := 0
		for k, v := range all {
			size += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
		}
		if size > BotStorageLimit {
			return BadRequest("Request exceeds storage limit by %d characters. The limit is %d characters.", size-BotStorageLimit, BotStorageLimit)
		}
		for k, v := range values {
			if err := tx.PutBotStorage(actor.ID, store.BotStorageEntry{Key: k, Value: v}); err != nil {
				return err
			}
		}
		return nil
	}))
}

// RemoveBotStorage deletes entries, or every entry when keys is empty; an
// unknown key removes nothing.
func (s *Service) RemoveBotStorage(actor store.User, keys []string) error {
	return internal("remove bot storage", s.store.Update(func(tx *store.Tx) error {
		all, err := storageMap(tx, actor.ID)
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			keys = slices.Collect(maps.Keys(all))
		}
		for _, k := range keys {
			if _, ok := all[k]; !ok {
				return errNoStorageKey
			}
		}
		for _, k := range keys {
			if err := tx.DeleteBotStorage(actor.ID, k); err != nil {
				return err
			}
		}
		return nil
	}))
}
