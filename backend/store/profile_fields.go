package store

import (
	"cmp"
	"slices"
)

// ProfileField is one of the organization's custom profile fields (Zulip's
// CustomProfileField); Type is Zulip's field type number.
type ProfileField struct {
	ID                      int64  `json:"id"`
	Type                    int    `json:"type"`
	Name                    string `json:"name"`
	Hint                    string `json:"hint,omitempty"`
	FieldData               string `json:"field_data,omitempty"` // JSON: a list's options, an external account's subtype
	DisplayInProfileSummary bool   `json:"display_in_profile_summary,omitempty"`
	Required                bool   `json:"required,omitempty"`
	Order                   int64  `json:"order"`
}

// ProfileValue is one person's value for one field, with its rendering for
// the text types.
type ProfileValue struct {
	FieldID  int64  `json:"field_id"`
	Value    string `json:"value"`
	Rendered string `json:"rendered,omitempty"`
}

// ProfileFields lists the fields in their order.
func (tx *Tx) ProfileFields() ([]ProfileField, error) {
	out := []ProfileField{}
	err := each(tx, bucketProfileFields, func(f ProfileField) bool { out = append(out, f); return true })
	slices.SortStableFunc(out, func(a, b ProfileField) int { return cmp.Compare(a.Order, b.Order) })
	return out, err
}

// ProfileField loads one field.
func (tx *Tx) ProfileField(id int64) (ProfileField, error) {
	var f ProfileField
	err := tx.get(bucketProfileFields, itob(id), &f)
	return f, err
}

// CreateProfileField assigns the next ID and places the field last.
func (tx *Tx) CreateProfileField(f *ProfileField) error {
	id, err := tx.nextID(bucketProfileFields)
	if err != nil {
		return err
	}
	all, err := tx.ProfileFields()
	if err != nil {
		return err
	}
	f.ID, f.Order = id, 1
	if len(all) > 0 {
		f.Order = all[len(all)-1].Order + 1
	}
	return tx.PutProfileField(*f)
}

// PutProfileField writes an existing field.
func (tx *Tx) PutProfileField(f ProfileField) error {
	return tx.put(bucketProfileFields, itob(f.ID), f)
}

// DeleteProfileField removes a field and everyone's value for it.
func (tx *Tx) DeleteProfileField(id int64) error {
	values := tx.bucket(bucketProfileValues)
	var keys [][]byte
	c := values.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if btoi(k[8:]) == id {
			keys = append(keys, slices.Clone(k))
		}
	}
	for _, k := range keys {
		if err := values.Delete(k); err != nil {
			return err
		}
	}
	return tx.bucket(bucketProfileFields).Delete(itob(id))
}

// ProfileValues maps each person with values to them, by field ID.
func (tx *Tx) ProfileValues() (map[int64]map[int64]ProfileValue, error) {
	out := map[int64]map[int64]ProfileValue{}
	c := tx.bucket(bucketProfileValues).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var pv ProfileValue
		if err := decode(v, &pv); err != nil {
			return nil, err
		}
		user := btoi(k[:8])
		if out[user] == nil {
			out[user] = map[int64]ProfileValue{}
		}
		out[user][pv.FieldID] = pv
	}
	return out, nil
}

// UserProfileValues lists one person's values in field ID order.
func (tx *Tx) UserProfileValues(userID int64) ([]ProfileValue, error) {
	return scanPrefix[ProfileValue](tx, bucketProfileValues, itob(userID))
}

// PutProfileValue sets a person's value for a field.
func (tx *Tx) PutProfileValue(userID int64, v ProfileValue) error {
	return tx.put(bucketProfileValues, pairKey(userID, v.FieldID), v)
}

// DeleteProfileValue clears a person's value for a field.
func (tx *Tx) DeleteProfileValue(userID, fieldID int64) error {
	return tx.bucket(bucketProfileValues).Delete(pairKey(userID, fieldID))
}
