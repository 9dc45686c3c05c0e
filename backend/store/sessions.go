package store

import "crypto/sha256"

// Session is a browser's sign-in. It is stored under a hash of its token,
// so a copy of the database does not hand out live sessions.
type Session struct {
	UserID  int64  `json:"user_id"`
	CSRF    string `json:"csrf"`
	Created int64  `json:"created"`
	Expires int64  `json:"expires"`
}

func sessionKey(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// Session loads the session of a token.
func (tx *Tx) Session(token string) (Session, error) {
	var s Session
	err := tx.get(bucketSessions, sessionKey(token), &s)
	return s, err
}

// PutSession stores a session under its token.
func (tx *Tx) PutSession(token string, s Session) error {
	return tx.put(bucketSessions, sessionKey(token), s)
}

// DeleteSession ends a session.
func (tx *Tx) DeleteSession(token string) error {
	return tx.bucket(bucketSessions).Delete(sessionKey(token))
}

// DeleteUserSessions ends every session of a user except the one of keep
// (empty: all of them).
func (tx *Tx) DeleteUserSessions(userID int64, keep string) error {
	b := tx.bucket(bucketSessions)
	var ended [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var s Session
		if err := decode(v, &s); err != nil {
			return err
		}
		if s.UserID == userID && (keep == "" || string(k) != string(sessionKey(keep))) {
			ended = append(ended, k)
		}
		return nil
	})
	for _, k := range ended {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}
