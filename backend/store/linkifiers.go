package store

import (
	"cmp"
	"slices"
)

// Linkifier turns matches of a pattern in messages and topics into links.
type Linkifier struct {
	ID          int64  `json:"id"`
	Pattern     string `json:"pattern"`
	URLTemplate string `json:"url_template"`
	// Order places it among the others (Zulip's order); linkifiers stored
	// before reordering existed all have 0 and keep their ID order.
	Order int64 `json:"order,omitempty"`
}

// Linkifiers lists every linkifier in the order they apply in: by Order,
// then by ID.
func (tx *Tx) Linkifiers() ([]Linkifier, error) {
	out := []Linkifier{}
	err := each(tx, bucketLinkifiers, func(l Linkifier) bool { out = append(out, l); return true })
	slices.SortStableFunc(out, func(a, b Linkifier) int { return cmp.Compare(a.Order, b.Order) })
	return out, err
}

// Linkifier loads one linkifier.
func (tx *Tx) Linkifier(id int64) (Linkifier, error) {
	var l Linkifier
	err := tx.get(bucketLinkifiers, itob(id), &l)
	return l, err
}

// CreateLinkifier assigns the next ID and stores the linkifier last in
// order.
func (tx *Tx) CreateLinkifier(l *Linkifier) error {
	id, err := tx.nextID(bucketLinkifiers)
	if err != nil {
		return err
	}
	all, err := tx.Linkifiers()
	if err != nil {
		return err
	}
	l.ID, l.Order = id, 0
	if len(all) > 0 {
		l.Order = all[len(all)-1].Order + 1
	}
	return tx.PutLinkifier(*l)
}

// PutLinkifier writes an existing linkifier.
func (tx *Tx) PutLinkifier(l Linkifier) error { return tx.put(bucketLinkifiers, itob(l.ID), l) }

// DeleteLinkifier removes a linkifier.
func (tx *Tx) DeleteLinkifier(id int64) error { return tx.bucket(bucketLinkifiers).Delete(itob(id)) }
