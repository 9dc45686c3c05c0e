package store

// Presence is one client's last report of a user's activity.
type Presence struct {
	UserID    int64  `json:"user_id"`
	Client    string `json:"client"`
	Status    string `json:"status"`    // "active" or "idle"
	Timestamp int64  `json:"timestamp"` // when the report arrived
	// UpdateID orders reports across the organization (Zulip's
	// last_update_id): each report draws the next one, so a client that
	// has seen every report up to an ID asks only for those after it.
	UpdateID int64 `json:"update_id,omitempty"`
}

func presenceKey(userID int64, client string) []byte {
	return append(itob(userID), client...)
}

// PutPresence records a client's report under the next update ID.
func (tx *Tx) PutPresence(p *Presence) error {
	id, err := tx.nextID(bucketPresence)
	if err != nil {
		return err
	}
	p.UpdateID = id
	return tx.put(bucketPresence, presenceKey(p.UserID, p.Client), *p)
}

// UserPresence lists a user's clients' reports.
func (tx *Tx) UserPresence(userID int64) ([]Presence, error) {
	return scanPrefix[Presence](tx, bucketPresence, itob(userID))
}

// AllPresence lists every report.
func (tx *Tx) AllPresence() ([]Presence, error) {
	var out []Presence
	err := each(tx, bucketPresence, func(p Presence) bool { out = append(out, p); return true })
	return out, err
}
