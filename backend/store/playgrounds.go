package store

// Playground is a code playground: a site that opens code blocks of one
// Pygments language, its URL made from an RFC 6570 template with {code}.
type Playground struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

// Playgrounds lists the code playgrounds in ID order.
func (tx *Tx) Playgrounds() ([]Playground, error) {
	out := []Playground{}
	err := each(tx, bucketPlaygrounds, func(p Playground) bool { out = append(out, p); return true })
	return out, err
}

// CreatePlayground assigns the next ID and stores the playground.
func (tx *Tx) CreatePlayground(p *Playground) error {
	id, err := tx.nextID(bucketPlaygrounds)
	if err != nil {
		return err
	}
	p.ID = id
	return tx.put(bucketPlaygrounds, itob(id), *p)
}

// DeletePlayground removes a playground; ErrNotFound when there is none.
func (tx *Tx) DeletePlayground(id int64) error {
	var p Playground
	if err := tx.get(bucketPlaygrounds, itob(id), &p); err != nil {
		return err
	}
	return tx.bucket(bucketPlaygrounds).Delete(itob(id))
}
