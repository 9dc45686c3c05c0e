package domain

import (
	"errors"
	"time"

	"golang.org/x/crypto/bcrypt"

	"lanchat/backend/store"
)

// SessionLifetime is how long a browser stays signed in.
const SessionLifetime = 30 * 24 * time.Hour

// ErrBadCSRF refuses a cookie-authenticated write without the session's
// CSRF token.
var ErrBadCSRF = errorf("CSRF_FAILED", "CSRF verification failed: reload the page")

// BrowserSession is a signed-in browser: the cookie token and the CSRF
// token its page must send with every write.
type BrowserSession struct {
	Token  string
	CSRF   string
	UserID int64
	Email  string
}

// checkPassword is the one password check: unknown users and wrong
// passwords fail alike, in the same time.
func (s *Service) checkPassword(username, password string) (store.User, error) {
	var u store.User
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		u, err = tx.UserByEmail(username)
		return err
	})
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.PasswordHash == "") {
		bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return store.User{}, ErrLogin
	}
	if err != nil {
		return store.User{}, internal("check password", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) != nil {
		return store.User{}, ErrLogin
	}
	if !u.IsActive {
		return store.User{}, ErrInactive
	}
	return u, nil
}

// SignIn checks a password and opens a browser session.
func (s *Service) SignIn(username, password string) (BrowserSession, error) {
	u, err := s.checkPassword(username, password)
	if err != nil {
		return BrowserSession{}, err
	}
	now := s.now()
	bs := BrowserSession{Token: randomString(43, apiKeyAlphabet), CSRF: randomString(32, apiKeyAlphabet), UserID: u.ID, Email: u.Email}
	err = s.store.Update(func(tx *store.Tx) error {
		return tx.PutSession(bs.Token, store.Session{UserID: u.ID, CSRF: bs.CSRF, Created: now.Unix(), Expires: now.Add(SessionLifetime).Unix()})
	})
	return bs, internal("sign in", err)
}

// SessionUser resolves a session cookie to its active user and CSRF token.
func (s *Service) SessionUser(token string) (store.User, string, error) {
	var u store.User
	var sess store.Session
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		if sess, err = tx.Session(token); err != nil {
			return ErrNoAuth
		}
		if sess.Expires < s.now().Unix() {
			return ErrNoAuth
		}
		if u, err = tx.User(sess.UserID); err != nil {
			return ErrNoAuth
		}
		return nil
	})
	if err != nil {
		return store.User{}, "", internal("session", err)
	}
	if !u.IsActive {
		return store.User{}, "", ErrInactive
	}
	return u, sess.CSRF, nil
}

// SignOut ends a browser session.
func (s *Service) SignOut(token string) error {
	return internal("sign out", s.store.Update(func(tx *store.Tx) error { return tx.DeleteSession(token) }))
}
