package store

// Invite is an invitation to join the organization: to one email address,
// or a reusable link (Multiuse) anyone holding it may use until it ends.
type Invite struct {
	ID        int64  `json:"id"`
	Multiuse  bool   `json:"multiuse,omitempty"`
	Email     string `json:"email,omitempty"` // an email invitation's address
	Key       string `json:"key"`             // the secret in its link
	InvitedBy int64  `json:"invited_by"`
	InvitedAt int64  `json:"invited_at"`
	// ExpiresAt is when it stops working (Unix seconds); 0 never.
	ExpiresAt int64 `json:"expires_at,omitempty"`
	InvitedAs int   `json:"invited_as"`
	// StreamIDs are joined on arrival, besides the default streams when
	// IncludeDefaultStreams.
	StreamIDs             []int64 `json:"stream_ids,omitempty"`
	IncludeDefaultStreams bool    `json:"include_default_streams,omitempty"`
	NotifyReferrerOnJoin  bool    `json:"notify_referrer_on_join,omitempty"`
	// GroupIDs are the user groups joined on arrival.
	GroupIDs []int64 `json:"group_ids,omitempty"`
	// Revoked marks a reusable link that was revoked: kept, so that
	// revoking it again is told apart from an unknown one.
	Revoked bool `json:"revoked,omitempty"`
}

// Invites lists every invitation in ID order: email invitations until used
// or revoked (then deleted), reusable links revoked or not.
func (tx *Tx) Invites() ([]Invite, error) {
	out := []Invite{}
	err := each(tx, bucketInvites, func(i Invite) bool { out = append(out, i); return true })
	return out, err
}

// Invite loads one invitation.
func (tx *Tx) Invite(id int64) (Invite, error) {
	var i Invite
	err := tx.get(bucketInvites, itob(id), &i)
	return i, err
}

// CreateInvite assigns the next ID and stores the invitation.
func (tx *Tx) CreateInvite(i *Invite) error {
	id, err := tx.nextID(bucketInvites)
	if err != nil {
		return err
	}
	i.ID = id
	return tx.PutInvite(*i)
}

// PutInvite writes an existing invitation.
func (tx *Tx) PutInvite(i Invite) error { return tx.put(bucketInvites, itob(i.ID), i) }

// DeleteInvite removes an invitation (revoked, or an email one used).
func (tx *Tx) DeleteInvite(id int64) error { return tx.bucket(bucketInvites).Delete(itob(id)) }
