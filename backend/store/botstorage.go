package store

// BotStorageEntry is one key of an account's bot storage, a small key-value
// store bots keep state in (Zulip's /bot_storage). The key is kept in the
// value too, so a prefix scan returns whole entries.
type BotStorageEntry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// botStorageKey is the user ID followed by the entry's key: IDs are fixed
// width, so one user's entries are exactly one prefix.
func botStorageKey(userID int64, key string) []byte {
	return append(itob(userID), key...)
}

// BotStorage lists a user's entries in key order.
func (tx *Tx) BotStorage(userID int64) ([]BotStorageEntry, error) {
	return scanPrefix[BotStorageEntry](tx, bucketBotStorage, itob(userID))
}

// PutBotStorage sets one entry.
func (tx *Tx) PutBotStorage(userID int64, e BotStorageEntry) error {
	return tx.put(bucketBotStorage, botStorageKey(userID, e.Key), e)
}

// DeleteBotStorage removes one entry.
func (tx *Tx) DeleteBotStorage(userID int64, key string) error {
	return tx.bucket(bucketBotStorage).Delete(botStorageKey(userID, key))
}
