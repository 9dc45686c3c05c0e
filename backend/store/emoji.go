package store

import "strings"

// RealmEmoji is a custom emoji: a name and an image file the server stores
// under a name it chose.
type RealmEmoji struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"` // lower case, underscores for spaces
	FileName    string `json:"file_name"`
	ContentType string `json:"content_type"`
	AuthorID    int64  `json:"author_id"`
	Deactivated bool   `json:"deactivated"`
}

// RealmEmoji loads one custom emoji by ID.
func (tx *Tx) RealmEmoji(id int64) (RealmEmoji, error) {
	var e RealmEmoji
	err := tx.get(bucketRealmEmoji, itob(id), &e)
	return e, err
}

// RealmEmojis lists every custom emoji, deactivated ones included.
func (tx *Tx) RealmEmojis() ([]RealmEmoji, error) {
	out := []RealmEmoji{}
	err := each(tx, bucketRealmEmoji, func(e RealmEmoji) bool { out = append(out, e); return true })
	return out, err
}

// ActiveRealmEmoji finds the active custom emoji with a name.
func (tx *Tx) ActiveRealmEmoji(name string) (RealmEmoji, error) {
	var found RealmEmoji
	err := each(tx, bucketRealmEmoji, func(e RealmEmoji) bool {
		if !e.Deactivated && strings.EqualFold(e.Name, name) {
			found = e
			return false
		}
		return true
	})
	if err == nil && found.ID == 0 {
		err = ErrNotFound
	}
	return found, err
}

// CreateRealmEmoji assigns the next ID and stores the emoji.
func (tx *Tx) CreateRealmEmoji(e *RealmEmoji) error {
	id, err := tx.nextID(bucketRealmEmoji)
	if err != nil {
		return err
	}
	e.ID = id
	return tx.PutRealmEmoji(*e)
}

// PutRealmEmoji writes an existing custom emoji.
func (tx *Tx) PutRealmEmoji(e RealmEmoji) error { return tx.put(bucketRealmEmoji, itob(e.ID), e) }
