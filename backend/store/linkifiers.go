package store

// Linkifier turns matches of a pattern in messages and topics into links.
type Linkifier struct {
	ID          int64  `json:"id"`
	Pattern     string `json:"pattern"`
	URLTemplate string `json:"url_template"`
}

// Linkifiers lists every linkifier in ID order (the order they apply in).
func (tx *Tx) Linkifiers() ([]Linkifier, error) {
	out := []Linkifier{}
	err := each(tx, bucketLinkifiers, func(l Linkifier) bool { out = append(out, l); return true })
	return out, err
}

// Linkifier loads one linkifier.
func (tx *Tx) Linkifier(id int64) (Linkifier, error) {
	var l Linkifier
	err := tx.get(bucketLinkifiers, itob(id), &l)
	return l, err
}

// CreateLinkifier assigns the next ID and stores the linkifier.
func (tx *Tx) CreateLinkifier(l *Linkifier) error {
	id, err := tx.nextID(bucketLinkifiers)
	if err != nil {
		return err
	}
	l.ID = id
	return tx.PutLinkifier(*l)
}

// PutLinkifier writes an existing linkifier.
func (tx *Tx) PutLinkifier(l Linkifier) error { return tx.put(bucketLinkifiers, itob(l.ID), l) }

// DeleteLinkifier removes a linkifier.
func (tx *Tx) DeleteLinkifier(id int64) error { return tx.bucket(bucketLinkifiers).Delete(itob(id)) }
